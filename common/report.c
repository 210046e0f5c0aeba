/*
 * report.c - warnings, progress and fatal conditions through the
 * routines the caller installed (report.h).
 */
#include "common/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const struct report_ops *ops;

void report_set(const struct report_ops *o)
{
	ops = o;
}

void report_warning(const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (!ops || !ops->warning)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ops->warning(text);
}

void report_progress(const char *who, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (!ops || !ops->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ops->progress(who, text);
}

void report_fatal(const char *text)
{
	if (ops && ops->fatal)
		ops->fatal(text);
	abort();
}
