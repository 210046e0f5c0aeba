/*
 * pin.c - libpandia-pin.so, loaded with LD_PRELOAD by 'pandia run':
 * pins each thread of a program to its PU, in creation order.
 *
 * PANDIA_PIN_CPUS="1,0,1" is the placement.  The main thread goes to
 * the first PU when the library is loaded (before main()); each thread
 * the program creates with pthread_create() goes to the next PU of the
 * list, in the order of the pthread_create() calls; a PU listed twice
 * gets two threads.  The new thread pins itself before it runs any of
 * the program's code.
 *
 * Choices:
 *   - threads beyond the list (runtime helpers, a second team) are
 *     allowed on the set of listed PUs, not pinned: they stay inside
 *     the placement without taking a listed thread's PU;
 *   - a thread whose creator set an affinity in its pthread attributes
 *     (libgomp does under OMP_PROC_BIND) keeps it, and still takes its
 *     place in the list: the runner gives OpenMP the same list as
 *     OMP_PLACES, so both agree;
 *   - every process that loads the library (each exec under the
 *     command) starts the list anew: its main thread goes to the first
 *     PU.  A wrapper script that execs the program is therefore
 *     transparent.
 *
 * PANDIA_PIN_REPORT names a file to which one line per process and per
 * thread is appended, for the runner's report:
 *   proc PID PLANNED ALLOWED
 *   thread PID TID INDEX PLANNED ALLOWED
 * with PLANNED -1 beyond the list and ALLOWED the thread's own
 * affinity, read back after pinning, as a cpulist ("0-2,5").
 *
 * Nothing here prints; a malformed list disables the library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PIN_MAX_CPUS	4096
#define PIN_MAX_LIST	65536

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
			 void *(*)(void *), void *);

struct trampoline {
	void *(*fn)(void *);
	void *arg;
	int index;
	int cpu;		/* -1: the union */
	int keep;		/* creator chose its affinity */
};

static int *pin_cpus;
static int pin_n;
static atomic_int pin_next = 1;
static size_t pin_setsize;
static cpu_set_t *pin_union;
static int pin_report = -1;
static create_fn real_create;

/* pid of the calling thread */
static int pin_gettid(void)
{
	return (int)syscall(SYS_gettid);
}

/* "1,0,1" into pin_cpus; 0 or -1 when malformed */
static int parse_list(const char *s)
{
	int n = 1, i = 0;
	const char *p;

	for (p = s; *p; p++)
		if (*p == ',')
			n++;
	if (n > PIN_MAX_LIST)
		return -1;
	pin_cpus = calloc((size_t)n, sizeof(*pin_cpus));
	if (!pin_cpus)
		return -1;
	p = s;
	for (;;) {
		char *end;
		long v;

		if (*p < '0' || *p > '9')
			goto fail;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v >= PIN_MAX_CPUS)
			goto fail;
		pin_cpus[i++] = (int)v;
		if (!*end)
			break;
		if (*end != ',')
			goto fail;
		p = end + 1;
	}
	pin_n = i;
	return 0;
fail:
	free(pin_cpus);
	pin_cpus = NULL;
	return -1;
}

static cpu_set_t *one_cpu(int cpu)
{
	cpu_set_t *set = CPU_ALLOC(PIN_MAX_CPUS);

	if (!set)
		return NULL;
	CPU_ZERO_S(pin_setsize, set);
	CPU_SET_S((size_t)cpu, pin_setsize, set);
	return set;
}

/* pin the calling thread to CPU (-1: the union); 0 or -1 */
static int pin_self(int cpu)
{
	cpu_set_t *set;
	int rc;

	if (cpu < 0)
		return sched_setaffinity(0, pin_setsize, pin_union);
	set = one_cpu(cpu);
	if (!set)
		return -1;
	rc = sched_setaffinity(0, pin_setsize, set);
	CPU_FREE(set);
	return rc;
}

/* the calling thread's affinity as a cpulist into buf */
static void allowed_list(char *buf, size_t size)
{
	cpu_set_t *set = CPU_ALLOC(PIN_MAX_CPUS);
	size_t len = 0;
	int c, first = -1;

	buf[0] = '\0';
	if (!set)
		return;
	if (sched_getaffinity(0, pin_setsize, set) < 0) {
		snprintf(buf, size, "?");
		goto out;
	}
	for (c = 0; c <= PIN_MAX_CPUS; c++) {
		int in = c < PIN_MAX_CPUS &&
			 CPU_ISSET_S((size_t)c, pin_setsize, set);

		if (in && first < 0)
			first = c;
		if (in || first < 0)
			continue;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len,
						"%s%d", len ? "," : "",
						first);
		if (c - 1 > first && len < size)
			len += (size_t)snprintf(buf + len, size - len,
						"-%d", c - 1);
		first = -1;
	}
	if (!len)
		snprintf(buf, size, "none");
out:
	CPU_FREE(set);
}

/* one line to the report file, in one write so lines never mix */
static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void report(const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	int n;

	if (pin_report < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	while (write(pin_report, line, (size_t)n) < 0 && errno == EINTR)
		;
}

__attribute__((constructor)) static void pin_init(void)
{
	const char *list = getenv("PANDIA_PIN_CPUS");
	const char *path = getenv("PANDIA_PIN_REPORT");
	char allowed[4096];
	int i;

	if (!list || parse_list(list) < 0 || pin_n < 1)
		return;
	pin_setsize = CPU_ALLOC_SIZE(PIN_MAX_CPUS);
	pin_union = CPU_ALLOC(PIN_MAX_CPUS);
	if (!pin_union) {
		pin_n = 0;
		return;
	}
	CPU_ZERO_S(pin_setsize, pin_union);
	for (i = 0; i < pin_n; i++)
		CPU_SET_S((size_t)pin_cpus[i], pin_setsize, pin_union);
	if (path && *path)
		pin_report = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	pin_self(pin_cpus[0]);
	allowed_list(allowed, sizeof(allowed));
	report("proc %d %d %s\n", (int)getpid(), pin_cpus[0], allowed);
}

static void *pin_start(void *p)
{
	struct trampoline t = *(struct trampoline *)p;
	char allowed[4096];

	free(p);
	if (!t.keep)
		pin_self(t.cpu);
	allowed_list(allowed, sizeof(allowed));
	report("thread %d %d %d %d %s\n", (int)getpid(), pin_gettid(),
	       t.index, t.cpu, allowed);
	return t.fn(t.arg);
}

/* whether attr carries an affinity its creator chose */
static int attr_has_affinity(const pthread_attr_t *attr)
{
	cpu_set_t *set;
	int keep = 0;

	if (!attr)
		return 0;
	set = CPU_ALLOC(PIN_MAX_CPUS);
	if (!set)
		return 0;
	/* glibc reports "all CPUs" when no affinity was set */
	if (!pthread_attr_getaffinity_np(attr, pin_setsize, set))
		keep = CPU_COUNT_S(pin_setsize, set) != PIN_MAX_CPUS;
	CPU_FREE(set);
	return keep;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	struct trampoline *t;
	int index, rc, expect;

	if (!real_create) {
		real_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
		if (!real_create)
			return EAGAIN;
	}
	if (pin_n < 1)
		return real_create(thread, attr, fn, arg);
	t = malloc(sizeof(*t));
	if (!t)
		return EAGAIN;
	index = atomic_fetch_add(&pin_next, 1);
	t->fn = fn;
	t->arg = arg;
	t->index = index;
	t->cpu = index < pin_n ? pin_cpus[index] : -1;
	t->keep = attr_has_affinity(attr);
	rc = real_create(thread, attr, pin_start, t);
	if (rc) {
		free(t);
		/* give the position back unless another thread took one */
		expect = index + 1;
		atomic_compare_exchange_strong(&pin_next, &expect, index);
	}
	return rc;
}
