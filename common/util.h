/*
 * util.h - small helpers shared by every part of pandia.
 */
#ifndef PANDIA_UTIL_H
#define PANDIA_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Allocation that cannot fail: on exhaustion they print
 * "pandia: out of memory" and abort.  Every other failure in library
 * code is returned to the caller.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Monotonic clock in seconds. */
double now_seconds(void);

/*
 * Read the whole of PATH into a new NUL-terminated buffer (caller
 * frees).  Returns NULL and fills err on failure.
 */
char *read_file(const char *path, size_t *len, struct pandia_error *err);

/*
 * Write LEN bytes to PATH atomically: a temporary file in the same
 * directory is written, flushed to disk and renamed over PATH, so a
 * reader never sees a half-written file and a failure leaves PATH as
 * it was.  Returns 0 or -1 with err filled.
 */
int write_file_atomic(const char *path, const char *buf, size_t len,
		      struct pandia_error *err);

/* Parse a whole string as a number; false if anything is left over. */
bool parse_double(const char *s, double *out);
bool parse_int(const char *s, int *out);

/* Compare doubles for qsort. */
int cmp_double(const void *a, const void *b);

/* Median of n values (sorts a copy).  0 when n is 0. */
double median_of(const double *v, int n);

#endif
