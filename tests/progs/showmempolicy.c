/*
 * showmempolicy.c - what memory policy this process runs under, as the
 * kernel shows it: map and touch a buffer of SIZE MiB (default 4), then
 * print the line of /proc/self/numa_maps that holds it, after
 * "numa_maps: ".  'pandia run --membind 0' must make it "bind:0", and
 * '--interleave all' "interleave:0..." (tests/cli/run-mempolicy.sh).
 * With SECONDS, it sleeps that long after the line (so that a test can
 * read /proc/PID/numa_maps itself).
 *
 *   showmempolicy [SIZE_MIB [SECONDS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t size = (size_t)(argc > 1 ? atof(argv[1]) : 4) << 20, i;
	unsigned long start, best = 0, addr;
	char line[4096], keep[4096] = "";
	char *buf;
	FILE *f;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("showmempolicy: mmap");
		return 1;
	}
	for (i = 0; i < size; i += 4096)
		buf[i] = (char)i;
	addr = (unsigned long)buf;
	f = fopen("/proc/self/numa_maps", "r");
	if (!f) {
		perror("showmempolicy: /proc/self/numa_maps");
		return 1;
	}
	/* the mapping that holds the buffer: the last start below it */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx", &start) == 1 && start <= addr &&
		    start >= best) {
			best = start;
			snprintf(keep, sizeof(keep), "%s", line);
		}
	fclose(f);
	keep[strcspn(keep, "\n")] = 0;
	printf("numa_maps: %s\n", keep);
	fflush(stdout);
	if (argc > 2)
		sleep((unsigned)atoi(argv[2]));
	munmap(buf, size);
	return 0;
}
