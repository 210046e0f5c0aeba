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
/*
 * "A; B" for a status or note said in parts: A owned (freed; NULL:
 * none yet), B borrowed (NULL: nothing to add, A returned as is).
 */
char *join_status(char *a, const char *b);

/* Monotonic clock in seconds. */
double now_seconds(void);

/*
 * Read the whole of PATH into a new NUL-terminated buffer (caller
 * frees).  Returns NULL and fills err on failure.
 */
char *read_file(const char *path, size_t *len, struct pandia_error *err);

/*
 * Whether PATH can take pandia's output, checked before any work is
 * done: a new name in a writable directory, a writable regular file,
 * or a character device (/dev/null, written through).  A symbolic
 * link, a FIFO, a socket, a directory, /dev/full (every write fails)
 * or an empty name is refused.
 * Returns 0 or -1 with err saying why.
 */
int output_check(const char *path, struct pandia_error *err);

/*
 * Write LEN bytes to PATH atomically: a temporary file in the same
 * directory is written, flushed to disk and renamed over PATH, so a
 * reader never sees a half-written file and a failure leaves PATH as
 * it was.  An existing file keeps its mode, a new one gets 0666 less
 * the umask.  A character device is written through instead; what
 * output_check() refuses is refused.  Returns 0 or -1 with err.
 */
/*
 * Lock PATH for a read-modify-write: an exclusive flock() on PATH.lock
 * (created, and left in place), waited for.  A lock file of its own,
 * because write_file_atomic() replaces PATH's inode: a lock on PATH
 * itself would not stop the next reader.  Returns the descriptor that
 * holds the lock (close it to unlock), or -1 with err filled.
 */
int lock_path(const char *path, struct pandia_error *err);

int write_file_atomic(const char *path, const char *buf, size_t len,
		      struct pandia_error *err);
/* Write all of BUF to FD, again where a signal interrupts it.  0, or -1
   with errno (EIO where a write takes nothing). */
int write_all(int fd, const char *buf, size_t len);

/* TEXT written atomically into DIR/NAME.  0, or -1 with err filled. */
int write_file_in(const char *dir, const char *name, const char *text,
		  struct pandia_error *err);

/* Parse a whole string as a number; false if anything is left over. */
/*
 * S as a message may show it: S itself when at most SHORT_SHOWN bytes,
 * else its first bytes, "..." and its length ("hhhh... (1000000
 * bytes)"), written into buf (at least SHORT_BUF bytes).  A name read
 * from a file (a 1 MB host name) never makes a 1 MB line.
 */
#define SHORT_SHOWN 80
#define SHORT_BUF 128
const char *shorten(const char *s, char *buf, size_t size);

/*
 * S with its blanks squeezed, in place: none at either end, one space
 * for every run between words (a CPU's brand string, padded by CPUID:
 * "Oxide Virtual Turin-like Processor      ").  S, or NULL.
 */
char *squeeze_blanks(char *s);

bool parse_double(const char *s, double *out);
bool parse_int(const char *s, int *out);

/* Compare doubles for qsort. */
int cmp_double(const void *a, const void *b);

/* Median of n values (sorts a copy).  0 when n is 0. */
double median_of(const double *v, int n);
/* The median of the known (not NAN) values of v[0..n-1], or NAN. */
double median_known(const double *v, int n);
/* Half the range of v[0..n-1] (largest less smallest, over 2); 0 for
   fewer than two values. */
double half_range_of(const double *v, int n);

/* The time now, UTC, ISO 8601 ("2026-11-23T11:01:05Z"), into buf. */
void iso_date_now(char *buf, size_t size);

/* mkdir DIR unless it is a directory already.  0, or -1 with err. */
int make_dir(const char *dir, struct pandia_error *err);
/* The same for DIR and every folder above it (mkdir -p). */
int make_dirs(const char *dir, struct pandia_error *err);

/* /proc/loadavg's three figures into l[0..2]; NAN when unreadable. */
void read_loadavg(double *l);

#endif
