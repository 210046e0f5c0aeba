/*
 * jsonpos.c - locate a value in JSON text by path, for error messages.
 *
 * A small scanner that knows just enough JSON to skip values; the text
 * has already been parsed by jansson, so it is known to be valid.
 */
#include "common/jsonpos.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *p;
	int line, col;
};

static void adv(struct scan *s)
{
	if (!*s->p)
		return;
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else {
		s->col++;
	}
	s->p++;
}

static void skip_ws(struct scan *s)
{
	while (*s->p && isspace((unsigned char)*s->p))
		adv(s);
}

/* At '"': copy the raw string body (escapes kept) into buf. */
static int scan_string(struct scan *s, char *buf, size_t size)
{
	size_t n = 0;

	if (*s->p != '"')
		return -1;
	adv(s);
	while (*s->p && *s->p != '"') {
		if (*s->p == '\\') {
			if (buf && n + 1 < size)
				buf[n++] = *s->p;
			adv(s);
		}
		if (buf && n + 1 < size)
			buf[n++] = *s->p;
		adv(s);
	}
	if (buf)
		buf[n] = '\0';
	if (*s->p != '"')
		return -1;
	adv(s);
	return 0;
}

static int skip_value(struct scan *s)
{
	int depth = 0;

	skip_ws(s);
	do {
		switch (*s->p) {
		case '\0':
			return -1;
		case '"':
			if (scan_string(s, NULL, 0) < 0)
				return -1;
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			depth--;
			break;
		default:
			if (depth == 0) {
				/* a scalar: up to a delimiter */
				while (*s->p && !strchr(",}] \t\r\n", *s->p))
					adv(s);
				return 0;
			}
		}
		adv(s);
	} while (depth > 0);
	return 0;
}

/* Enter the member KEY of the object at s. */
static int enter_key(struct scan *s, const char *key)
{
	char buf[256];

	skip_ws(s);
	if (*s->p != '{')
		return -1;
	adv(s);
	for (;;) {
		skip_ws(s);
		if (*s->p != '"')
			return -1;
		if (scan_string(s, buf, sizeof(buf)) < 0)
			return -1;
		skip_ws(s);
		if (*s->p != ':')
			return -1;
		adv(s);
		skip_ws(s);
		if (!strcmp(buf, key))
			return 0;
		if (skip_value(s) < 0)
			return -1;
		skip_ws(s);
		if (*s->p != ',')
			return -1;
		adv(s);
	}
}

/* Enter element INDEX of the array at s. */
static int enter_index(struct scan *s, long index)
{
	long i;

	skip_ws(s);
	if (*s->p != '[')
		return -1;
	adv(s);
	for (i = 0; i < index; i++) {
		if (skip_value(s) < 0)
			return -1;
		skip_ws(s);
		if (*s->p != ',')
			return -1;
		adv(s);
	}
	skip_ws(s);
	return *s->p == ']' ? -1 : 0;
}

int json_locate(const char *text, const char *path, int *line, int *column)
{
	struct scan s = { text, 1, 1 }, last;
	const char *q = path;
	char key[256];
	int ret = 0;

	skip_ws(&s);
	last = s;
	while (q && *q) {
		if (*q == '.') {
			q++;
			continue;
		}
		if (*q == '[') {
			char *end;
			long idx = strtol(q + 1, &end, 10);

			if (*end != ']' || enter_index(&s, idx) < 0) {
				ret = -1;
				break;
			}
			q = end + 1;
		} else {
			size_t n = strcspn(q, ".[");

			if (n >= sizeof(key))
				n = sizeof(key) - 1;
			memcpy(key, q, n);
			key[n] = '\0';
			q += n;
			if (enter_key(&s, key) < 0) {
				ret = -1;
				break;
			}
		}
		last = s;
	}
	*line = last.line;
	*column = last.col;
	return ret;
}

int json_fail(const struct json_src *src, const char *path,
	      const char *fmt, ...)
{
	char msg[384];
	int line = 0, col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_locate(src->text, path, &line, &col);
	return perr_at(src->err, src->source, line, col, "%s%s%s", path,
		       *path ? ": " : "", msg);
}

int json_fail_at_path(const struct json_src *src, const char *path)
{
	char msg[sizeof(src->err->text)];

	memcpy(msg, src->err->text, sizeof(msg));
	return json_fail(src, path, "%s", msg);
}

json_t *json_src_parse(const struct json_src *src)
{
	json_error_t jerr;
	json_t *root = json_loads(src->text, JSON_REJECT_DUPLICATES, &jerr);

	if (!root)
		perr_at(src->err, src->source, jerr.line, jerr.column,
			"not valid JSON: %s", jerr.text);
	return root;
}
