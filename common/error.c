#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

void perr_clear(struct pandia_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

static void vset(struct pandia_error *err, const char *fmt, va_list ap)
{
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
}

int perr_set(struct pandia_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	perr_clear(err);
	va_start(ap, fmt);
	vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

int perr_at(struct pandia_error *err, const char *source, int line,
	    int column, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	perr_clear(err);
	snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

int perr_errno(struct pandia_error *err, const char *fmt, ...)
{
	int saved = errno;
	size_t len;
	va_list ap;

	if (!err)
		return -1;
	perr_clear(err);
	va_start(ap, fmt);
	vset(err, fmt, ap);
	va_end(ap);
	len = strlen(err->text);
	snprintf(err->text + len, sizeof(err->text) - len, ": %s",
		 strerror(saved));
	errno = saved;
	return -1;
}

void perr_print(const struct pandia_error *err, FILE *stream)
{
	fputs("pandia: ", stream);
	if (err->source[0]) {
		fputs(err->source, stream);
		if (err->line > 0) {
			fprintf(stream, ":%d", err->line);
			if (err->column > 0)
				fprintf(stream, ":%d", err->column);
		}
		fputs(": ", stream);
	}
	fprintf(stream, "%s\n", err->text[0] ? err->text : "unknown error");
}
