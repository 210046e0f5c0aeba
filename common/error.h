/*
 * error.h - errors that library code hands back to its caller.
 *
 * Library code never prints and never exits: it fills a caller-owned
 * struct pandia_error and returns -1 (or NULL).  Commands print the
 * error with perr_print(), which gives the git-style message
 *   pandia: FILE:LINE:COLUMN: what was wrong
 */
#ifndef PANDIA_ERROR_H
#define PANDIA_ERROR_H

#include <stdio.h>

struct pandia_error {
	char source[256];	/* file name, or "" when not about a file */
	int line;		/* 1-based; 0 when unknown */
	int column;		/* 1-based; 0 when unknown */
	char text[512];		/* lower case, no full stop */
};

/* Clear *err (no error).  err may be NULL in every function here. */
void perr_clear(struct pandia_error *err);

/* Set err to a message about nothing in particular.  Returns -1. */
int perr_set(struct pandia_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Set err to a message about SOURCE at LINE:COLUMN (0 = unknown). */
int perr_at(struct pandia_error *err, const char *source, int line,
	    int column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Set err to "WHAT: strerror(errno)".  Returns -1, errno preserved. */
int perr_errno(struct pandia_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "pandia: [SOURCE:LINE:COLUMN: ]TEXT\n" to stream. */
void perr_print(const struct pandia_error *err, FILE *stream);

#endif
