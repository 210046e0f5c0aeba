#include "common/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("pandia: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check_alloc(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check_alloc(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check_alloc(realloc(p, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		s = NULL;
	return check_alloc(s);
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *read_file(const char *path, size_t *len, struct pandia_error *err)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	f = fopen(path, "r");
	if (!f) {
		perr_errno(err, "cannot open '%s'", path);
		return NULL;
	}
	do {
		if (cap - n < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		perr_errno(err, "cannot read '%s'", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      struct pandia_error *err)
{
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	size_t done = 0;
	int fd, ret = -1;

	fd = mkstemp(tmp);
	if (fd < 0) {
		perr_errno(err, "cannot create a temporary file for '%s'",
			   path);
		goto out_free;
	}
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			perr_errno(err, "cannot write '%s'", tmp);
			goto out_unlink;
		}
		done += (size_t)w;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		perr_errno(err, "cannot write '%s'", tmp);
		goto out_unlink;
	}
	if (close(fd) < 0) {
		fd = -1;
		perr_errno(err, "cannot write '%s'", tmp);
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		perr_errno(err, "cannot rename '%s' to '%s'", tmp, path);
		goto out_unlink;
	}
	ret = 0;
	goto out_free;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out_free:
	free(tmp);
	return ret;
}

bool parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool parse_int(const char *s, int *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < INT_MIN || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median_of(const double *v, int n)
{
	double *c, m;

	if (n <= 0)
		return 0;
	c = xmalloc(sizeof(*c) * (size_t)n);
	memcpy(c, v, sizeof(*c) * (size_t)n);
	qsort(c, (size_t)n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
	free(c);
	return m;
}
