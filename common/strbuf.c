/*
 * strbuf.c - a growing string (common/strbuf.h).
 */
#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/util.h"

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + (size_t)n < b->cap)
			break;
		b->cap = 2 * (b->cap + (size_t)n + 64);
		b->s = xrealloc(b->s, b->cap);
	}
	b->len += (size_t)n;
}

void strbuf_addc(struct strbuf *b, char c)
{
	if (!b->s || b->len + 2 > b->cap) {
		b->cap = 2 * (b->cap + 64);
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

void strbuf_gnuplot_string(struct strbuf *b, const char *s)
{
	strbuf_printf(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_printf(b, "\\%c", *s);
		else if (*s == '\n' || *s == '\r')
			strbuf_printf(b, " ");
		else
			strbuf_printf(b, "%c", *s);
	}
	strbuf_printf(b, "\"");
}

void strbuf_gnuplot_png(struct strbuf *b, int w, int h, int font)
{
	strbuf_printf(b, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		      "  set terminal pngcairo size %d,%d font \",%d\"\n"
		      "} else {\n  set terminal png size %d,%d\n}\n", w, h,
		      font, w, h);
}
