/*
 * report.c - the pinning library's report (protocol.h says its lines):
 * ids as pandia sees them, the clock, a line built without malloc or
 * stdio, and the start, end and affinity lines of a thread.
 */
#include "profiler/shim/shim.h"

/* ---- small things that are safe anywhere -------------------------- */

/*
 * Ids as pandia sees them.  pandia may run the command in a PID
 * namespace of its own (profiler/run/), where getpid() and gettid()
 * give the namespace's ids; /proc is pandia's, so its self links give
 * pandia's.  pin_ns says which: set at load and in a forked child.
 */
static bool pin_ns;

/* the number after the last '/' of the link LINK, or -1 */
static int link_id(const char *link)
{
	char buf[64], *p;
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, '/');
	return atoi(p ? p + 1 : buf);
}

int getpid_(void)
{
	int id = pin_ns ? link_id("/proc/self") : -1;

	return id > 0 ? id : getpid();
}

int gettid_(void)
{
	int id = pin_ns ? link_id("/proc/thread-self") : -1;

	return id > 0 ? id : (int)syscall(SYS_gettid);
}

/* whether this process's ids differ from pandia's */
void find_ns(void)
{
	int id = link_id("/proc/self");

	pin_ns = id > 0 && id != getpid();
}

int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void put_str(struct line *l, const char *s)
{
	while (*s && l->len < sizeof(l->s) - 1)
		l->s[l->len++] = *s++;
}

void put_int(struct line *l, int64_t v)
{
	char d[24];
	int n = 0;
	uint64_t u = v < 0 ? (uint64_t)-v : (uint64_t)v;

	if (v < 0)
		put_str(l, "-");
	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n && l->len < sizeof(l->s) - 1)
		l->s[l->len++] = d[--n];
}

/* SET as a cpulist ("0-2,5") */
void put_set(struct line *l, const cpu_set_t *set, size_t size)
{
	int c, first = -1, any = 0, max = (int)size * 8;

	for (c = 0; c <= max; c++) {
		int in = c < max && CPU_ISSET_S((size_t)c, size, set);

		if (in && first < 0)
			first = c;
		if (in || first < 0)
			continue;
		put_str(l, any ? "," : "");
		put_int(l, first);
		if (c - 1 > first) {
			put_str(l, "-");
			put_int(l, c - 1);
		}
		any = 1;
		first = -1;
	}
	if (!any)
		put_str(l, "none");
}

/* one line to the report, in one write so that lines never mix */
void emit(struct line *l)
{
	if (pin_report < 0)
		return;
	l->s[l->len++] = '\n';
	while (write(pin_report, l->s, l->len) < 0 && errno == EINTR)
		;
}

/* the "start" line of the calling thread, R */
void report_start(const struct pin_rec *r, const char *flags)
{
	union {
		cpu_set_t set;
		char buf[PIN_MAX_CPUS / 8];
	} u;
	struct line l = { .len = 0 };
	long n;

	put_str(&l, "start ");
	put_int(&l, getpid_());
	put_str(&l, " ");
	put_int(&l, r->tid);
	put_str(&l, " ");
	put_int(&l, r->index);
	put_str(&l, " ");
	put_int(&l, r->local);
	put_str(&l, " ");
	put_int(&l, slot_cpu(r->slot));
	put_str(&l, " ");
	put_int(&l, r->start);
	put_str(&l, " ");
	put_str(&l, flags);
	if (r->wrapped)
		put_str(&l, PIN_FLAG_WRAPPED);
	if (r->keep)
		put_str(&l, PIN_FLAG_KEPT);
	if (!*flags && !r->wrapped && !r->keep)
		put_str(&l, "-");
	put_str(&l, " ");
	memset(u.buf, 0, sizeof(u.buf));
	n = syscall(SYS_sched_getaffinity, 0, sizeof(u.buf), u.buf);
	if (n > 0)
		put_set(&l, &u.set, (size_t)n);
	else
		put_str(&l, "?");
	put_str(&l, " ");
	put_str(&l, r->routine[0] ? r->routine : "-");
	put_str(&l, " ");
	put_str(&l, pin_prog);
	emit(&l);
}

/* "123 45 6" from schedstat: CPU ns, run-queue ns; -1 when unknown */
static void read_schedstat(int tid, int64_t *cpu, int64_t *runq)
{
	struct line path = { .len = 0 };
	char buf[128];
	int64_t v[2] = { -1, -1 };
	ssize_t n;
	int fd, k = 0;
	char *p;

	put_str(&path, "/proc/self/task/");
	put_int(&path, tid);
	put_str(&path, "/schedstat");
	path.s[path.len] = '\0';
	fd = open(path.s, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			for (p = buf; k < 2 && *p >= '0' && *p <= '9'; k++) {
				v[k] = 0;
				while (*p >= '0' && *p <= '9')
					v[k] = v[k] * 10 + (*p++ - '0');
				while (*p == ' ')
					p++;
			}
		}
	}
	*cpu = k == 2 ? v[0] : -1;
	*runq = k == 2 ? v[1] : -1;
}

/* report R's end, give its position back; once per thread */
void rec_end(struct pin_rec *r)
{
	struct line l = { .len = 0 };
	int64_t cpu, runq, t;
	int k;

	if (atomic_exchange(&r->done, 1))
		return;
	read_schedstat(r->tid, &cpu, &runq);
	t = mono_ns();
	put_str(&l, "end ");
	put_int(&l, getpid_());
	put_str(&l, " ");
	put_int(&l, r->tid);
	put_str(&l, " ");
	put_int(&l, t);
	put_str(&l, " ");
	put_int(&l, cpu);
	put_str(&l, " ");
	put_int(&l, runq);
	for (k = 0; k < PIN_BLOCK_KINDS; k++) {
		put_str(&l, " ");
		put_int(&l, (int64_t)atomic_load_explicit(&r->blocked[k],
						memory_order_relaxed));
	}
	emit(&l);
	give_slot(r->slot);
}

/* ---- the program sets affinities itself: said, not prevented ------ */

void report_affinity(int tid, const cpu_set_t *set, size_t size)
{
	struct line l = { .len = 0 };

	put_str(&l, "affinity ");
	put_int(&l, getpid_());
	put_str(&l, " ");
	put_int(&l, tid);
	put_str(&l, " ");
	put_set(&l, set, size);
	emit(&l);
}
