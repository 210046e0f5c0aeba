/*
 * noise.c - the noise of a simulated run (tests/progs): a normal draw
 * seeded by --seed and a run counter kept in a file, so that the
 * repetitions of one profile differ and the whole is reproducible.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/rng.h"

/*
 * The next value of the counter kept in the file PATH: 0 the first
 * time (PATH is created), then one more each call; the file is locked
 * meanwhile, so concurrent runs each get their own.  0, or -1 with *why
 * "open" or "write" (what failed) and errno set.
 */
static int count_next(const char *path, uint64_t *n, const char **why)
{
	unsigned long long v = 0;
	char buf[64];
	ssize_t len;
	int fd = open(path, O_RDWR | O_CREAT, 0644);

	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		*why = "open";
		goto out_close;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	if (len > 0) {
		buf[len] = 0;
		v = strtoull(buf, NULL, 10);
	}
	len = snprintf(buf, sizeof(buf), "%llu\n", v + 1);
	if (lseek(fd, 0, SEEK_SET) < 0 || ftruncate(fd, 0) < 0 ||
	    write(fd, buf, (size_t)len) != len) {
		*why = "write";
		goto out_close;
	}
	close(fd);
	*n = v;
	return 0;

out_close:
	if (fd >= 0)
		close(fd);
	return -1;
}

int tk_noisy_time(double *t, double noise, uint64_t seed,
		  const char *state_file, const char **why)
{
	uint64_t st, count = 0;

	/* counted whatever the noise: the runs of a profile are numbered */
	if (state_file && count_next(state_file, &count, why) < 0)
		return -1;
	if (state_file)
		st = seed ^ (count * 0x2545f4914f6cdd1dULL);
	else
		st = seed ^ ((uint64_t)getpid() << 32) ^ (uint64_t)clock();
	tk_rng_next(&st);
	if (noise > 0)
		*t *= 1 + noise * tk_rng_normal(&st);
	return 0;
}
