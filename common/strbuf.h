/*
 * strbuf.h - a growing string, for the text files pandia writes
 * (gnuplot scripts, CSV) and the command lines it builds.
 *
 * Ownership: b->s is owned by the buffer until the caller takes it
 * (then frees it); a buffer starts as STRBUF_INIT.
 */
#ifndef PANDIA_STRBUF_H
#define PANDIA_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *s;		/* NUL-terminated once anything was added */
	size_t len, cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

/* Append printf-style text. */
void strbuf_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append one character. */
void strbuf_addc(struct strbuf *b, char c);

/*
 * Append S as a gnuplot double-quoted string: '"' and '\' escaped,
 * line breaks made spaces.
 */
void strbuf_gnuplot_string(struct strbuf *b, const char *s);
/*
 * Append the lines that choose a PNG terminal of W x H pixels: pngcairo
 * with a font of FONT points where gnuplot has it, png otherwise.
 */
void strbuf_gnuplot_png(struct strbuf *b, int w, int h, int font);

#endif
