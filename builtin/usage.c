/*
 * usage.c - how the commands talk to people on stderr (builtin.h):
 * git's die(), error() and warning(), the routines through which the
 * library reports (common/report.h), and the end of standard output.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "common/jsonout.h"
#include "common/report.h"
#include "common/util.h"

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "pandia: %s%s\n", prefix, msg);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(1);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void warning_text(void *arg, const char *text)
{
	(void)arg;
	warning("%s", text);
}

static void report_warning_stderr(const char *text)
{
	warning("%s", text);
}

static void report_progress_stderr(const char *who, const char *text)
{
	progress(who, "%s", text);
}

static void report_fatal_stderr(const char *text)
{
	fflush(stdout);
	fprintf(stderr, "pandia: %s\n", text);
}

void usage_install_report(void)
{
	static const struct report_ops ops = {
		.warning = report_warning_stderr,
		.progress = report_progress_stderr,
		.fatal = report_fatal_stderr,
	};

	report_set(&ops);
}

int error_perr(const struct pandia_error *err)
{
	perr_print(err, stderr);
	return -1;
}

void progress(const char *cmd, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "pandia %s: %s\n", cmd, msg);
}

const char *round_text(int round, int rounds, char *buf, size_t size)
{
	buf[0] = '\0';
	if (rounds > 1)
		snprintf(buf, size, "round %d of %d, ", round + 1, rounds);
	return buf;
}

void show_stderr_tail(const char *tail)
{
	const char *p, *nl;

	if (!tail || !*tail)
		return;
	fflush(stdout);
	fputs("pandia: the end of its standard error:\n", stderr);
	for (p = tail; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "  | %s\n", p);
			break;
		}
		fprintf(stderr, "  | %.*s\n", (int)(nl - p), p);
	}
}

void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pandia %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'pandia %s --help'\n", cmd);
	exit(2);
}

int finish_stdout(int status)
{
	/*
	 * As git's run_builtin(): a full disk or a closed pipe must be
	 * an error, not a silently truncated result.  stdout is flushed
	 * and closed, and either failure reported.
	 */
	int failed = 0, e = 0;

	if (fflush(stdout) || ferror(stdout)) {
		failed = 1;
		e = errno;
	}
	if (fclose(stdout) && !failed) {
		failed = 1;
		e = errno;
	}
	if (!failed)
		return status;
	if (e != EPIPE)
		fprintf(stderr, "pandia: cannot write to standard output: "
			"%s\n", strerror(e ? e : EIO));
	return status ? status : 1;
}

void json_print(const json_t *root)
{
	char *text = json_to_text(root);

	fputs(text, stdout);
	free(text);
}
