/*
 * common.h - what the built-in workloads share: option parsing, the
 * clock, the thread team and pinning.
 *
 * Header only (static inline), so that each workload stays one C file
 * that needs nothing but libc, libpthread, libm and libgomp.
 *
 * Conventions every workload follows (docs/workloads.md):
 *   --threads N   default PANDIA_THREADS, else OMP_NUM_THREADS, else 1
 *                 (or the length of --cpus);
 *   --cpus LIST   pin thread i to the i-th PU of LIST (OS indexes,
 *                 "0,0,1" or "0-3"; repeats time-share a PU);
 *   --scale F     multiply the default amount of work by F;
 *   results on stdout as "key: value" lines, "time: SECONDS" (the
 *   parallel part only) last; no other line contains "time: ".
 *
 * Threads are created with pthread_create in a fixed order, after the
 * main thread, which is thread 0 and works like the others.  So the
 * pinning shim of "pandia run" (which pins the main thread to the
 * first PU and each created thread to the next) and --cpus agree.
 */
#ifndef PANDIA_WORKLOADS_COMMON_H
#define PANDIA_WORKLOADS_COMMON_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define WL_MAX_THREADS 4096
#define WL_CACHE_LINE 64
#define WL_HUGE_PAGE ((size_t)2 << 20)

/* Name of the running workload, for messages. */
static const char *wl_name = "workload";

static inline void __attribute__((format(printf, 1, 2), noreturn))
wl_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", wl_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* A usage error: exit status 2, as the pandia commands do. */
static inline void __attribute__((format(printf, 1, 2), noreturn))
wl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", wl_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee '%s --help'\n", wl_name);
	exit(2);
}

/*
 * Memory that cannot fail; aligned to a cache line (or to ALIGN).
 * Blocks of 2 MiB or more aligned to 2 MiB are advised as transparent
 * huge pages, so that big arrays cost DRAM accesses rather than TLB
 * misses (most hosts set THP to "madvise"; the advice is harmless
 * where THP is off).
 */
static inline void *wl_alloc(size_t size, size_t align)
{
	void *p = NULL;

	if (align < WL_CACHE_LINE)
		align = WL_CACHE_LINE;
	if (posix_memalign(&p, align, size ? size : 1))
		wl_die("out of memory (%zu bytes)", size);
	if (align >= WL_HUGE_PAGE && size >= WL_HUGE_PAGE)
		madvise(p, size & ~(WL_HUGE_PAGE - 1), MADV_HUGEPAGE);
	return p;
}

static inline double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline double wl_thread_cpu_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Keep the compiler from dropping or merging memory work. */
static inline void wl_clobber(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/* splitmix64: deterministic pseudo-random numbers from a counter. */
static inline uint64_t wl_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The compute kernel of compute, serial and balance: N iterations of
 * four independent multiply-xorshift chains, in registers only (no
 * memory traffic, not vectorisable).  One unit of work in their
 * options is WL_UNIT iterations.
 */
#define WL_UNIT 1000000ULL

static inline uint64_t wl_compute(uint64_t n, uint64_t seed)
{
	uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3;
	uint64_t i;

	for (i = 0; i < n; i++) {
		a = a * 0x5851f42d4c957f2dULL + 1;
		b = b * 0x5851f42d4c957f2dULL + 3;
		c = c * 0x5851f42d4c957f2dULL + 5;
		d = d * 0x5851f42d4c957f2dULL + 7;
		a ^= a >> 29;
		b ^= b >> 29;
		c ^= c >> 29;
		d ^= d >> 29;
	}
	return a ^ b ^ c ^ d;
}

/* The STREAM triad a = b + s*c over N doubles (stream, cachestream). */
static inline void wl_triad(double *restrict a, const double *restrict b,
			    const double *restrict c, double s, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

/* [lo, hi) of N items for part I of PARTS: sizes differ by at most 1. */
static inline void wl_split(uint64_t n, int parts, int i, uint64_t *lo,
			    uint64_t *hi)
{
	uint64_t q = n / parts, r = n % parts;

	*lo = q * i + ((uint64_t)i < r ? (uint64_t)i : r);
	*hi = *lo + q + ((uint64_t)i < r ? 1 : 0);
}

/* ---- options ---------------------------------------------------- */

enum wl_opt_type {
	WL_OPT_INT,		/* long long; suffixes k, M, G (x1000) */
	WL_OPT_DOUBLE,
	WL_OPT_STRING,
	WL_OPT_FLAG,		/* bool, no argument */
};

struct wl_opt {
	const char *name;	/* without the leading "--" */
	enum wl_opt_type type;
	void *value;	/* long long *, double *, const char **, bool * */
	const char *arg;	/* metavariable in --help, NULL for flags */
	const char *help;	/* one line; the default is appended */
};

struct wl_prog {
	const char *name;
	const char *summary;	/* one line */
	const char *about;	/* paragraphs for --help, may be NULL */
	const struct wl_opt *opts;	/* ends with a zero entry */
};

/* What every workload takes; filled by wl_parse(). */
struct wl_common {
	int threads;
	const int *cpus;	/* NULL: no pinning by the workload */
	int ncpus;
	double scale;
	bool verbose;
};

static inline bool wl_parse_ll(const char *s, long long *out)
{
	char *end;
	long long v, mul = 1;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 'k': case 'K': mul = 1000LL; end++; break;
	case 'M': mul = 1000000LL; end++; break;
	case 'G': mul = 1000000000LL; end++; break;
	}
	if (*end)
		return false;
	if (v > 0 && v > __LONG_LONG_MAX__ / mul)
		return false;
	*out = v * mul;
	return true;
}

static inline bool wl_parse_dbl(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return !errno && end != s && !*end;
}

/*
 * Parse "0,1,1" or "0-3,8" into V (WL_MAX_THREADS entries; order and
 * repeats kept).  Returns the number of entries, or -1 if malformed.
 */
static inline int wl_parse_cpus(const char *s, int *v)
{
	const char *p = s;
	int n = 0;

	while (*p) {
		char *end;
		long a, b;

		errno = 0;
		a = strtol(p, &end, 10);
		if (errno || end == p || a < 0 || a > 1 << 20 || *p == '-')
			return -1;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (errno || end == p || *p == '-' || b < a ||
			    b > 1 << 20)
				return -1;
		}
		for (; a <= b; a++) {
			if (n == WL_MAX_THREADS)
				return -1;
			v[n++] = (int)a;
		}
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -1;
	}
	return n ? n : -1;
}

static inline void wl_print_opt(FILE *out, const char *name,
				const char *arg, const char *help,
				const char *dflt)
{
	char lhs[64];

	snprintf(lhs, sizeof(lhs), "--%s%s%s", name, arg ? " " : "",
		 arg ? arg : "");
	fprintf(out, "  %-18s %s", lhs, help);
	/* the default on the same line if it fits in 80 columns */
	if (dflt && 21 + strlen(help) + 11 + strlen(dflt) <= 80)
		fprintf(out, " (default %s)", dflt);
	else if (dflt)
		fprintf(out, "\n  %-18s (default %s)", "", dflt);
	fputc('\n', out);
}

static inline void wl_help(const struct wl_prog *prog)
{
	const struct wl_opt *o;
	char buf[64];

	printf("usage: %s [OPTION]...\n\n%s\n", prog->name, prog->summary);
	if (prog->about)
		printf("\n%s", prog->about);
	printf("\noptions:\n");
	for (o = prog->opts; o->name; o++) {
		const char *dflt = buf;

		switch (o->type) {
		case WL_OPT_INT:
			snprintf(buf, sizeof(buf), "%lld",
				 *(long long *)o->value);
			break;
		case WL_OPT_DOUBLE:
			snprintf(buf, sizeof(buf), "%g", *(double *)o->value);
			break;
		case WL_OPT_STRING:
			dflt = *(const char **)o->value;
			break;
		case WL_OPT_FLAG:
			dflt = NULL;
			break;
		}
		wl_print_opt(stdout, o->name, o->arg, o->help, dflt);
	}
	wl_print_opt(stdout, "threads", "N", "threads, the main thread "
		     "included",
		     "$PANDIA_THREADS, else $OMP_NUM_THREADS, else 1");
	wl_print_opt(stdout, "cpus", "LIST", "pin thread I to the I-th "
		     "PU of LIST (e.g. 0,0,1 or 0-3)", NULL);
	wl_print_opt(stdout, "scale", "F", "multiply the amount of work "
		     "by F", "1");
	wl_print_opt(stdout, "verbose", NULL, "print each thread's PU and "
		     "CPU time on stderr", NULL);
	wl_print_opt(stdout, "help", NULL, "print this help", NULL);
	printf("\nOutput: \"key: value\" lines on stdout, last "
	       "\"time: SECONDS\" (the parallel\npart, wall clock).  "
	       "See pandia-workloads(7) and docs/workloads.md.\n");
}

/* Threads from the environment: PANDIA_THREADS, OMP_NUM_THREADS, 1. */
static inline int wl_env_threads(void)
{
	static const char *vars[] = { "PANDIA_THREADS", "OMP_NUM_THREADS" };
	unsigned int i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *s = getenv(vars[i]);
		char *end;
		long v;

		if (!s || !*s)
			continue;
		/* OMP_NUM_THREADS may be a list of levels: take the first */
		v = strtol(s, &end, 10);
		if (end == s || (*end && *end != ',') || v < 1 ||
		    v > WL_MAX_THREADS)
			wl_usage_error("bad %s '%s'", vars[i], s);
		return (int)v;
	}
	return 1;
}

static inline void wl_set_opt(const struct wl_opt *o, const char *name,
			      const char *arg)
{
	switch (o->type) {
	case WL_OPT_INT:
		if (!wl_parse_ll(arg, o->value))
			wl_usage_error("bad integer '%s' for --%s", arg, name);
		break;
	case WL_OPT_DOUBLE:
		if (!wl_parse_dbl(arg, o->value))
			wl_usage_error("bad number '%s' for --%s", arg, name);
		break;
	case WL_OPT_STRING:
		*(const char **)o->value = arg;
		break;
	case WL_OPT_FLAG:	/* handled by the caller */
		break;
	}
}

/*
 * Parse argv against PROG's options and the common ones.  --help
 * prints the help and exits 0; a bad option exits 2.
 */
static inline void wl_parse(int argc, char **argv, const struct wl_prog *prog,
			    struct wl_common *c)
{
	long long threads = 0;
	const char *cpus = NULL;
	int i;

	wl_name = prog->name;
	memset(c, 0, sizeof(*c));
	c->scale = 1.0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		const struct wl_opt *o;
		char name[64];
		size_t len;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			wl_help(prog);
			exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
		}
		if (strncmp(a, "--", 2) || !a[2])
			wl_usage_error("unexpected argument '%s'", a);
		a += 2;
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		if (len >= sizeof(name))
			wl_usage_error("unknown option '%s'", argv[i]);
		memcpy(name, a, len);
		name[len] = '\0';
		if (!strcmp(name, "verbose")) {
			if (eq)
				wl_usage_error("--verbose takes no value");
			c->verbose = true;
			continue;
		}
		for (o = prog->opts; o->name; o++)
			if (!strcmp(o->name, name))
				break;
		if (o->name && o->type == WL_OPT_FLAG) {
			if (eq)
				wl_usage_error("--%s takes no value", name);
			*(bool *)o->value = true;
			continue;
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			wl_usage_error("--%s needs a value", name);
		if (o->name) {
			wl_set_opt(o, name, val);
		} else if (!strcmp(name, "threads")) {
			if (!wl_parse_ll(val, &threads) || threads < 1 ||
			    threads > WL_MAX_THREADS)
				wl_usage_error("bad thread count '%s' "
					       "(1 to %d)", val,
					       WL_MAX_THREADS);
		} else if (!strcmp(name, "cpus")) {
			cpus = val;
		} else if (!strcmp(name, "scale")) {
			if (!wl_parse_dbl(val, &c->scale) || !(c->scale > 0))
				wl_usage_error("bad scale '%s'", val);
		} else {
			wl_usage_error("unknown option '--%s'", name);
		}
	}
	if (cpus) {
		static int cpu_list[WL_MAX_THREADS];

		c->cpus = cpu_list;
		c->ncpus = wl_parse_cpus(cpus, cpu_list);
		if (c->ncpus < 0)
			wl_usage_error("bad PU list '%s' (OS indexes such as "
				       "0,0,1 or 0-3)", cpus);
		if (threads && threads != c->ncpus)
			wl_usage_error("--cpus lists %d PU%s but --threads "
				       "is %lld", c->ncpus,
				       c->ncpus == 1 ? "" : "s", threads);
		threads = c->ncpus;
	}
	c->threads = threads ? (int)threads : wl_env_threads();
}

/* Pin the calling thread to PU CPU.  Returns 0 or an errno value. */
static inline int wl_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static inline void wl_pin_or_die(int cpu)
{
	int e = wl_pin_self(cpu);

	if (e)
		wl_die("cannot pin a thread to PU %d: %s (is the PU online "
		       "and in this process's CPU affinity? see taskset -cp)",
		       cpu, strerror(e));
}

/* ---- the thread team ---------------------------------------------- */

struct wl_team;

struct wl_member {
	struct wl_team *team;
	int id;
	pthread_t tid;
	/* filled by wl_team_stop() for --verbose */
	int cpu;
	double cpu_time;
} __attribute__((aligned(WL_CACHE_LINE)));

struct wl_team {
	int n;
	const int *cpus;	/* NULL: do not pin */
	void (*body)(struct wl_team *team, int id);
	void *arg;		/* the workload's own state */
	pthread_barrier_t barrier;
	double t_start, t_stop;
	struct wl_member *members;
};

static inline void wl_team_barrier(struct wl_team *t)
{
	pthread_barrier_wait(&t->barrier);
}

/* All threads meet; thread 0 starts the clock. */
static inline void wl_team_start(struct wl_team *t, int id)
{
	wl_team_barrier(t);
	if (id == 0)
		t->t_start = wl_now();
}

/* All threads meet; thread 0 stops the clock. */
static inline void wl_team_stop(struct wl_team *t, int id)
{
	t->members[id].cpu = sched_getcpu();
	t->members[id].cpu_time = wl_thread_cpu_time();
	wl_team_barrier(t);
	if (id == 0)
		t->t_stop = wl_now();
}

static inline void *wl_team_thread(void *p)
{
	struct wl_member *m = p;

	if (m->team->cpus)
		wl_pin_or_die(m->team->cpus[m->id]);
	m->team->body(m->team, m->id);
	return NULL;
}

/*
 * Run BODY(team, id) on N threads: the main thread is id 0 and the
 * others are created in order 1..N-1.  BODY calls wl_team_start() and
 * wl_team_stop() around its timed part (and may call wl_team_barrier()
 * between them); the elapsed time is returned.
 */
static inline double wl_team_run(int n, const int *cpus,
				 void (*body)(struct wl_team *, int),
				 void *arg, bool verbose)
{
	struct wl_team t;
	int i, e;

	memset(&t, 0, sizeof(t));
	t.n = n;
	t.cpus = cpus;
	t.body = body;
	t.arg = arg;
	t.members = wl_alloc(n * sizeof(*t.members), 0);
	memset(t.members, 0, n * sizeof(*t.members));
	if (pthread_barrier_init(&t.barrier, NULL, n))
		wl_die("cannot create a barrier for %d threads", n);
	/* created threads inherit this, then pin themselves */
	if (cpus)
		wl_pin_or_die(cpus[0]);
	for (i = 0; i < n; i++) {
		t.members[i].team = &t;
		t.members[i].id = i;
	}
	for (i = 1; i < n; i++) {
		e = pthread_create(&t.members[i].tid, NULL, wl_team_thread,
				   &t.members[i]);
		if (e)
			wl_die("cannot create thread %d of %d: %s", i, n,
			       strerror(e));
	}
	body(&t, 0);
	for (i = 1; i < n; i++)
		pthread_join(t.members[i].tid, NULL);
	if (verbose)
		for (i = 0; i < n; i++)
			fprintf(stderr, "%s: thread %d: PU %d, "
				"cpu time %.3f s\n", wl_name, i,
				t.members[i].cpu,
				t.members[i].cpu_time);
	pthread_barrier_destroy(&t.barrier);
	free(t.members);
	return t.t_stop - t.t_start;
}

/* ---- output ------------------------------------------------------ */

static inline void wl_print_header(const struct wl_common *c)
{
	int i;

	printf("workload: %s\nthreads: %d\n", wl_name, c->threads);
	if (c->cpus) {
		printf("cpus: ");
		for (i = 0; i < c->ncpus; i++)
			printf("%s%d", i ? "," : "", c->cpus[i]);
		putchar('\n');
	}
}

/* Print the time line, flush, and return the exit status for main. */
static inline int wl_finish(double seconds)
{
	printf("time: %.6f\n", seconds);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write to stdout: %s\n", wl_name,
			strerror(errno));
		return 1;
	}
	return 0;
}

#endif
