#include "common/util.h"
#include "common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static void *check_alloc(void *p)
{
	if (!p)
		report_fatal("out of memory");
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

char *join_status(char *a, const char *b)
{
	char *s;

	if (!b)
		return a;
	if (!a)
		return xstrdup(b);
	s = xasprintf("%s; %s", a, b);
	free(a);
	return s;
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

int write_all(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;	/* nothing taken: never loop on it */
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* The directory part of PATH ("." when none).  New string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

int output_check(const char *path, struct pandia_error *err)
{
	struct stat st;
	char *dir;
	int ret = -1;

	if (!path || !*path)
		return perr_set(err, "the output file name is empty");
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return perr_set(err, "'%s' is a symbolic link: pandia "
					"replaces files whole, so name the "
					"file it points to", path);
		if (S_ISDIR(st.st_mode))
			return perr_set(err, "'%s' is a directory", path);
		/* Linux's memory device 1:7, /dev/full, fails every
		   write: refused now, not after the work */
		if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
		    minor(st.st_rdev) == 7)
			return perr_set(err, "cannot write '%s': it is the "
					"full device, where every write fails "
					"(No space left on device)", path);
		if (S_ISCHR(st.st_mode))
			return access(path, W_OK) == 0 ? 0 :
				perr_errno(err, "cannot write '%s'", path);
		if (!S_ISREG(st.st_mode))
			return perr_set(err, "'%s' is not a regular file (a "
					"FIFO, socket or block device): "
					"pandia writes files whole, not "
					"through it", path);
		if (access(path, W_OK) < 0)
			return perr_errno(err, "cannot write '%s'", path);
	} else if (errno != ENOENT) {
		return perr_errno(err, "cannot use '%s'", path);
	}
	/* the temporary file is made beside it */
	dir = dir_of(path);
	if (stat(dir, &st) < 0)
		perr_errno(err, "cannot write '%s': directory '%s'", path,
			   dir);
	else if (!S_ISDIR(st.st_mode))
		perr_set(err, "cannot write '%s': '%s' is not a directory",
			 path, dir);
	else if (access(dir, W_OK | X_OK) < 0)
		perr_errno(err, "cannot write '%s': directory '%s'", path,
			   dir);
	else
		ret = 0;
	free(dir);
	return ret;
}

int lock_path(const char *path, struct pandia_error *err)
{
	char *lock = xasprintf("%s.lock", path);
	int fd;

	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		perr_errno(err, "cannot open the lock file '%s'", lock);
		goto out;
	}
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			perr_errno(err, "cannot lock '%s'", lock);
			close(fd);
			fd = -1;
			break;
		}
out:
	free(lock);
	return fd;
}

int write_file_atomic(const char *path, const char *buf, size_t len,
		      struct pandia_error *err)
{
	struct stat st;
	char *tmp = NULL;
	mode_t mode, mask;
	int fd = -1, ret = -1;

	if (output_check(path, err) < 0)
		return -1;
	if (lstat(path, &st) == 0 && S_ISCHR(st.st_mode)) {
		/* /dev/null, a terminal: written through, never replaced */
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return perr_errno(err, "cannot open '%s'", path);
		if (write_all(fd, buf, len) < 0) {
			perr_errno(err, "cannot write '%s'", path);
			close(fd);
			return -1;
		}
		if (close(fd) < 0)
			return perr_errno(err, "cannot write '%s'", path);
		return 0;
	}
	/* an existing file keeps its mode; a new one gets the umask's */
	mask = umask(0);
	umask(mask);
	mode = lstat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask;
	tmp = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		perr_errno(err, "cannot create a temporary file for '%s'",
			   path);
		goto out_free;
	}
	if (write_all(fd, buf, len) < 0) {
		perr_errno(err, "cannot write '%s'", tmp);
		goto out_unlink;
	}
	if (fchmod(fd, mode) < 0 || fsync(fd) < 0) {
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

double median_known(const double *v, int n)
{
	double *k = xmalloc(sizeof(*k) * (size_t)(n > 0 ? n : 1)), m;
	int i, got = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			k[got++] = v[i];
	m = got ? median_of(k, got) : NAN;
	free(k);
	return m;
}

double half_range_of(const double *v, int n)
{
	double lo = INFINITY, hi = -INFINITY;
	int i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	return (hi - lo) / 2;
}

void iso_date_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int make_dir(const char *dir, struct pandia_error *err)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	return perr_errno(err, "cannot create directory '%s'", dir);
}

int make_dirs(const char *dir, struct pandia_error *err)
{
	char *d = xstrdup(dir), *p;
	int ret = 0;

	for (p = d + 1; ret == 0 && *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(d, 0777) < 0 && errno != EEXIST)
				ret = perr_errno(err, "cannot make '%s'", d);
			*p = '/';
		}
	if (ret == 0)
		ret = make_dir(d, err);
	free(d);
	return ret;
}

void read_loadavg(double *l)
{
	FILE *f = fopen("/proc/loadavg", "r");

	l[0] = l[1] = l[2] = NAN;
	if (!f)
		return;
	if (fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
		l[0] = l[1] = l[2] = NAN;
	fclose(f);
}

const char *shorten(const char *s, char *buf, size_t size)
{
	size_t n = s ? strlen(s) : 0;

	if (!s || n <= SHORT_SHOWN || size < SHORT_BUF)
		return s;
	snprintf(buf, size, "%.*s... (%zu bytes)", SHORT_SHOWN - 16, s, n);
	return buf;
}

char *squeeze_blanks(char *s)
{
	char *r, *w;

	if (!s)
		return NULL;
	for (r = w = s; *r; r++) {
		if (*r != ' ' && *r != '\t') {
			*w++ = *r;
			continue;
		}
		if (w > s && w[-1] != ' ')
			*w++ = ' ';
	}
	if (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
	return s;
}

int write_file_in(const char *dir, const char *name, const char *text,
		  struct pandia_error *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file_atomic(path, text, strlen(text), err);

	free(path);
	return ret;
}
