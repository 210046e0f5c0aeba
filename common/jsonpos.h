/*
 * jsonpos.h - where a value sits in JSON text, for error messages.
 *
 * jansson reports line and column for syntax errors only; semantic
 * errors found after parsing (a negative bandwidth, a PU listed twice)
 * are located again in the text with json_locate().
 */
#ifndef PANDIA_JSONPOS_H
#define PANDIA_JSONPOS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/error.h"

/*
 * Find the value at PATH in the JSON TEXT.  PATH is a sequence of
 * object keys and array indexes: "links[2].per_core_bw",
 * "model.demands.dram", "pus[3]".  On success sets *line and *column
 * (1-based) to the start of the value and returns 0; if the path is
 * not there, sets them to the deepest container found and returns -1.
 */
int json_locate(const char *text, const char *path, int *line,
		int *column);

/* A JSON file being read: its text, its name, where errors go. */
struct json_src {
	const char *text;
	const char *source;
	struct pandia_error *err;
};

/*
 * Fill src->err with "PATH: MESSAGE" at the line and column of PATH in
 * src->text (the deepest part of PATH that exists).  Returns -1.
 */
int json_fail(const struct json_src *src, const char *path,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Move the message already in src->err (from a check that knows the
 * path of the bad value but not the text) to PATH's line and column,
 * as json_fail() would have put it.  Returns -1.
 */
int json_fail_at_path(const struct json_src *src, const char *path);

/*
 * Parse src->text, refusing duplicate keys.  Returns a new reference,
 * or NULL with src->err naming the line and column of the syntax
 * error.
 */
json_t *json_src_parse(const struct json_src *src);

/* "an object", "an array", "a string", "a number", ... for messages. */
const char *json_type_name(const json_t *v);

/* ---- reading a description: helpers for the loaders ---------------- */

/*
 * "an object", "a number", ... for the type a field should have;
 * JSON_TRUE or JSON_FALSE: "true or false".
 */
const char *json_want_name(json_type t);

/* PATH = OPATH.KEY ("KEY" when OPATH is empty). */
void json_path_join(char *path, size_t plen, const char *opath,
		    const char *key);

/* Refuse keys of OBJ (at OPATH) not in KEYS (NULL-terminated): -1. */
int json_only_keys(const struct json_src *c, json_t *obj, const char *opath,
		   const char *const *keys);

/* Whether an error has been recorded in c->err. */
bool json_failed(const struct json_src *c);

/*
 * The getters below are the one way the loaders read a field KEY of
 * the object OBJ found at OPATH, so that every description says the
 * same of the same mistake, at the line and column of the value:
 *   absent and required:   "OPATH: missing field 'KEY'"
 *   null and required:     "OPATH.KEY: must be a number, not null"
 *   of the wrong type:     "OPATH.KEY: must be a number, not a string"
 * An optional field that is absent or null is left out: NULL, or 0
 * in *out.
 */

/*
 * OBJ.KEY if it has TYPE (integers pass as numbers, JSON_TRUE stands
 * for either boolean).  Absent or null:
 * NULL, and an error if REQUIRED.  Wrong type: NULL and an error; tell
 * the two apart with json_failed().  Borrowed reference.
 */
json_t *json_get(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, json_type type, bool required);

/* A number field in *out (0 when left out): 0, or -1. */
int json_get_num(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, double *out, bool required);

/*
 * OBJ.KEY as written, null included, for a field that must be there
 * but may be null; absent: NULL, and an error if REQUIRED.  Borrowed
 * reference.
 */
json_t *json_get_value(const struct json_src *c, json_t *obj,
		       const char *opath, const char *key, bool required);

/* A boolean field in *out (false when left out): 0, or -1. */
int json_get_bool(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, bool *out, bool required);

/*
 * An integer field from LO to HI in *out (0 when left out); outside
 * the range: "must be from LO to HI, not X".  0, or -1.  LO and HI
 * must fit an int for json_get_int().
 */
int json_get_long(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, long lo, long hi, long *out, bool required);
int json_get_int(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, long lo, long hi, int *out, bool required);

/* A string field: a new copy in *out (NULL when left out): 0, or -1. */
int json_get_string(const struct json_src *c, json_t *obj,
		    const char *opath, const char *key, char **out,
		    bool required);

/* An optional string field: json_get_string(..., false). */
int json_get_str(const struct json_src *c, json_t *obj, const char *opath,
		 const char *key, char **out);

/*
 * An array of strings KEY: *n new copies in a new, NULL-terminated
 * *out (NULL when left out).  An element of another type: "OPATH.KEY[I]:
 * must be a string, not Y".  0, or -1 with *out holding the *n copies
 * made so far, for the caller to free.
 */
int json_get_strings(const struct json_src *c, json_t *obj,
		     const char *opath, const char *key, char ***out, int *n,
		     bool required);

/* An array of numbers KEY, as json_get_strings(): *n of them in *out. */
int json_get_nums(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, double **out, int *n, bool required);

/*
 * An array of integers KEY, each from LO to HI (which fit an int), as
 * json_get_strings(): *n of them in *out.
 */
int json_get_ints(const struct json_src *c, json_t *obj, const char *opath,
		  const char *key, long lo, long hi, int **out, int *n,
		  bool required);

#endif
