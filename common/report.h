/*
 * report.h - how library code speaks to a person: through the caller.
 *
 * Nothing below the commands writes to stderr or stdout.  A library
 * function that has a warning, a progress line or a fatal condition
 * (out of memory) hands the text to the routines the caller installed
 * with report_set(), as git's set_warn_routine() does.  The commands'
 * dispatcher (pandia.c) installs routines that print "pandia:
 * warning: ..." and "pandia CMD: ..." on stderr; a program that links
 * the library without installing any hears nothing (and a fatal
 * condition still aborts).
 */
#ifndef PANDIA_REPORT_H
#define PANDIA_REPORT_H

struct report_ops {
	/* a warning TEXT (no prefix, no newline) */
	void (*warning)(const char *text);
	/* a progress line TEXT of the part WHO ("machine", "run") */
	void (*progress)(const char *who, const char *text);
	/* a condition the process cannot go on from; abort() follows */
	void (*fatal)(const char *text);
};

/* Install OPS (borrowed for the life of the process; NULL: none). */
void report_set(const struct report_ops *ops);

void report_warning(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void report_progress(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Says TEXT through the fatal routine, then abort(). */
void report_fatal(const char *text) __attribute__((noreturn));

#endif
