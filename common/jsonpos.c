/*
 * jsonpos.c - locate a value in JSON text by path, for error messages.
 *
 * A small scanner that knows just enough JSON to skip values; the text
 * has already been parsed by jansson, so it is known to be valid.
 */
#include "common/jsonpos.h"
#include "common/util.h"

#include <ctype.h>
#include <math.h>
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

/*
 * The path of a denormal number under V (such as 1e-320: no
 * measurement, count or setting pandia reads is one), or false.
 */
static bool find_denormal(json_t *v, char *path, size_t plen, size_t len)
{
	const char *key;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_REAL:
		return json_real_value(v) != 0 &&
			!isnormal(json_real_value(v));
	case JSON_OBJECT:
		json_object_foreach(v, key, x) {
			snprintf(path + len, plen - len, "%s%s",
				 len ? "." : "", key);
			if (find_denormal(x, path, plen, strlen(path)))
				return true;
		}
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, x) {
			snprintf(path + len, plen - len, "[%zu]", i);
			if (find_denormal(x, path, plen, strlen(path)))
				return true;
		}
		break;
	default:
		break;
	}
	path[len] = '\0';
	return false;
}

json_t *json_src_parse(const struct json_src *src)
{
	json_error_t jerr;
	json_t *root = json_loads(src->text, JSON_REJECT_DUPLICATES, &jerr);
	char path[256] = "";

	if (!root) {
		perr_at(src->err, src->source, jerr.line, jerr.column,
			"not valid JSON: %s", jerr.text);
		return NULL;
	}
	if (find_denormal(root, path, sizeof(path), 0)) {
		json_fail(src, path, "a denormal number (below 2.2e-308) is "
			  "no measurement: write 0 or a normal number");
		json_decref(root);
		return NULL;
	}
	return root;
}

const char *json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

const char *json_want_name(json_type t)
{
	switch (t) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_TRUE: case JSON_FALSE: return "true or false";
	default: return "a number";
	}
}

/* Whether V may stand where TYPE is wanted. */
static bool json_type_fits(const json_t *v, json_type type)
{
	if (type == JSON_REAL)
		return json_is_number(v);
	if (type == JSON_TRUE || type == JSON_FALSE)
		return json_is_boolean(v);
	return json_typeof(v) == type;
}

void json_path_join(char *path, size_t plen, const char *opath,
		    const char *key)
{
	snprintf(path, plen, "%s%s%s", opath, *opath ? "." : "", key);
}

int json_only_keys(const struct json_src *c, json_t *obj, const char *opath,
		   const char *const *keys)
{
	const char *key;
	char path[192];
	json_t *v;
	int i;

	json_object_foreach(obj, key, v) {
		for (i = 0; keys[i]; i++)
			if (!strcmp(key, keys[i]))
				break;
		if (!keys[i]) {
			json_path_join(path, sizeof(path), opath, key);
			return json_fail(c, path, "unknown field '%s'", key);
		}
	}
	return 0;
}

bool json_failed(const struct json_src *c)
{
	return c->err->text[0] != '\0';
}

json_t *json_get(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, json_type type, bool required)
{
	json_t *v = json_object_get(obj, key);
	char path[192];

	json_path_join(path, sizeof(path), opath, key);
	if (!v || json_is_null(v)) {
		if (required && v)
			json_fail(c, path, "must be %s, not null",
				  json_want_name(type));
		else if (required)
			json_fail(c, opath, "missing field '%s'", key);
		return NULL;
	}
	if (!json_type_fits(v, type)) {
		json_fail(c, path, "must be %s, not %s", json_want_name(type),
			  json_type_name(v));
		return NULL;
	}
	return v;
}

int json_get_num(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, double *out, bool required)
{
	json_t *v = json_get(c, obj, opath, key, JSON_REAL, required);

	*out = v ? json_number_value(v) : 0;
	return json_failed(c) ? -1 : 0;
}

json_t *json_get_value(const struct json_src *c, json_t *obj,
		       const char *opath, const char *key, bool required)
{
	json_t *v = json_object_get(obj, key);

	if (!v && required)
		json_fail(c, opath, "missing field '%s'", key);
	return v;
}

int json_get_bool(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, bool *out, bool required)
{
	json_t *v = json_get(c, obj, opath, key, JSON_TRUE, required);

	*out = v && json_is_true(v);
	return json_failed(c) ? -1 : 0;
}

int json_get_long(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, long lo, long hi, long *out, bool required)
{
	json_t *v = json_get(c, obj, opath, key, JSON_INTEGER, required);
	json_int_t x;
	char path[192];

	*out = 0;
	if (!v)
		return json_failed(c) ? -1 : 0;
	x = json_integer_value(v);
	if (x < lo || x > hi) {
		json_path_join(path, sizeof(path), opath, key);
		return json_fail(c, path, "must be from %ld to %ld, not %lld",
				 lo, hi, (long long)x);
	}
	*out = (long)x;
	return 0;
}

int json_get_int(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, long lo, long hi, int *out, bool required)
{
	long x;
	int ret = json_get_long(c, obj, opath, key, lo, hi, &x, required);

	*out = (int)x;
	return ret;
}

int json_get_string(const struct json_src *c, json_t *obj,
		    const char *opath, const char *key, char **out,
		    bool required)
{
	json_t *v = json_get(c, obj, opath, key, JSON_STRING, required);

	*out = v ? xstrdup(json_string_value(v)) : NULL;
	return json_failed(c) ? -1 : 0;
}

int json_get_str(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, char **out)
{
	return json_get_string(c, obj, opath, key, out, false);
}

/*
 * The array KEY of OBJ, each element of TYPE (an integer: from LO to
 * HI): *n elements read into *out by PUT.  Left out: *out NULL.  On
 * failure *out holds the *n read so far.
 */
static int get_array(const struct json_src *c, json_t *obj,
		     const char *opath, const char *key, json_type type,
		     long lo, long hi, size_t size, void **out, int *n,
		     bool required, void (*put)(void *out, int i, json_t *v))
{
	json_t *a = json_get(c, obj, opath, key, JSON_ARRAY, required), *v;
	char path[208];
	size_t i;

	*out = NULL;
	*n = 0;
	if (!a)
		return json_failed(c) ? -1 : 0;
	*out = xcalloc(json_array_size(a) + 1, size);
	json_array_foreach(a, i, v) {
		snprintf(path, sizeof(path), "%s%s%s[%zu]", opath,
			 *opath ? "." : "", key, i);
		if (!json_type_fits(v, type))
			return json_fail(c, path, "must be %s, not %s",
					 json_want_name(type),
					 json_type_name(v));
		if (type == JSON_INTEGER && (json_integer_value(v) < lo ||
					     json_integer_value(v) > hi))
			return json_fail(c, path, "must be from %ld to %ld, "
					 "not %lld", lo, hi,
					 (long long)json_integer_value(v));
		put(*out, (*n)++, v);
	}
	return 0;
}

static void put_string(void *out, int i, json_t *v)
{
	((char **)out)[i] = xstrdup(json_string_value(v));
}

static void put_num(void *out, int i, json_t *v)
{
	((double *)out)[i] = json_number_value(v);
}

static void put_int(void *out, int i, json_t *v)
{
	((int *)out)[i] = (int)json_integer_value(v);
}

int json_get_strings(const struct json_src *c, json_t *obj,
		     const char *opath, const char *key, char ***out, int *n,
		     bool required)
{
	void *p;
	int ret = get_array(c, obj, opath, key, JSON_STRING, 0, 0,
			    sizeof(char *), &p, n, required, put_string);

	*out = p;
	return ret;
}

int json_get_nums(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, double **out, int *n, bool required)
{
	void *p;
	int ret = get_array(c, obj, opath, key, JSON_REAL, 0, 0,
			    sizeof(double), &p, n, required, put_num);

	*out = p;
	return ret;
}

int json_get_ints(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, long lo, long hi, int **out, int *n,
		  bool required)
{
	void *p;
	int ret = get_array(c, obj, opath, key, JSON_INTEGER, lo, hi,
			    sizeof(int), &p, n, required, put_int);

	*out = p;
	return ret;
}
