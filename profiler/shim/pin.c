/*
 * pin.c - libpandia-pin.so, loaded with LD_PRELOAD by 'pandia run':
 * pins each thread of a program to its PU and accounts for its time.
 *
 * Environment (set by the runner, profiler/run.c):
 *   PANDIA_PIN_CPUS="1,0,1"  the placement: one PU per position
 *   PANDIA_PIN_SKIP="0,3-4"  creation indexes that are helpers
 *   PANDIA_PIN_HELPERS       helpers by role, one "PROGRAM/LOCAL" a
 *                            line: the LOCAL-th thread (0: main) of
 *                            every process running PROGRAM
 *   PANDIA_PIN_FLOAT=1       pin nothing to a PU (the accounting run)
 *   PANDIA_PIN_SHARED        a file shared by every process of the
 *                            command: the index counter, the positions
 *                            taken, the processes seen
 *   PANDIA_PIN_REPORT        the report file, lines appended
 *
 * Every thread gets an index, its creation order within the whole
 * command (the first process's main thread is 0; a child process's
 * main thread takes the next index when it is forked or, if started
 * without fork (posix_spawn), when it loads the library).  A thread
 * that is not a helper takes the free position of the list with the
 * fewest threads on it, the first such: in creation order while there
 * are free ones, wrapping around when there are more threads than
 * positions.  A position is given back when its thread exits, so a
 * program that creates a new team in every phase puts every team on
 * the listed PUs.  Helpers and, with PANDIA_PIN_FLOAT, every thread
 * are allowed on the set of listed PUs.  A process that execs keeps
 * its index and position (a wrapper script that execs is transparent).
 *
 * A thread whose creator set an affinity in its pthread attributes
 * (libgomp does under OMP_PROC_BIND) keeps it and still takes its
 * position: the runner gives OpenMP the same list as OMP_PLACES.
 *
 * Accounting: the time a thread spends in pthread_mutex_lock (when
 * the lock is taken: a first try-lock that succeeds costs no clock
 * read and no system call),
 * pthread_cond_wait / timedwait / clockwait, pthread_barrier_wait,
 * pthread_join and sem_wait / timedwait (when the semaphore is zero)
 * is added up per kind; at its exit (or the process's) the thread
 * reads its CPU time and run-queue wait from
 * /proc/self/task/TID/schedstat and reports.  Report lines:
 *   start PID TID INDEX LOCAL CPU T FLAGS ALLOWED ROUTINE PROGRAM
 *   end PID TID T CPU_NS RUNQ_NS MUTEX COND BARRIER JOIN SEM
 *   affinity PID TID LIST
 * T in ns of CLOCK_MONOTONIC, CPU -1 for the set, FLAGS letters
 * (m: a process's main thread, f: forked, w: wrapped around, k: kept
 * its creator's affinity, -: none), ALLOWED the affinity read back,
 * CPU_NS and RUNQ_NS -1 when schedstat cannot be read; "affinity"
 * says the program set thread TID's affinity itself (-1: a thread
 * the library does not know).  ROUTINE is the thread's start routine
 * as MODULE+0xOFFSET ("main" for a process's main thread), the same in
 * every run of the program: threads with the same routine have the
 * same role.
 *
 * Nothing here prints or allocates on the paths a signal or a fork
 * can interrupt; a malformed list disables the library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* a pause in a spin: lets the other hyper-thread and the bus breathe */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

#define PIN_MAX_CPUS	4096
#define MUTEX_SPINS	1	/* try-locks before a wait is timed */
#define PIN_MAX_LIST	65536
#define PIN_MAX_INDEX	(1 << 20)	/* skip lists end here */
#define PIN_MAX_PROCS	4096
#define PIN_LINE	8192

enum { K_MUTEX, K_COND, K_BARRIER, K_JOIN, K_SEM, K_KINDS };

/* one process of the command, for exec: index and position kept */
struct pin_proc {
	atomic_int pid;
	int index;
	int slot;
	int64_t start;
};

/* shared by every process of the command (PANDIA_PIN_SHARED) */
struct pin_shared {
	atomic_int next_index;
	atomic_int n_procs;
	struct pin_proc procs[PIN_MAX_PROCS];
	atomic_int occ[];	/* threads on each position */
};

/* one thread of this process */
struct pin_rec {
	void *(*fn)(void *);
	void *arg;
	pthread_t self;
	int tid;
	int index;
	int local;		/* 0 main, 1.. created by this process */
	int slot;		/* position in the list; -1 the set */
	int keep;		/* creator chose its affinity */
	int wrapped;
	char routine[64];	/* "libzstd.so.1+0x1f2e0", "main" */
	int64_t start;
	_Atomic uint64_t blocked[K_KINDS];
	atomic_int done;
	struct pin_rec *next;
};

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
			 void *(*)(void *), void *);

static int *pin_cpus;
static int pin_n;
static unsigned char *pin_skip;	/* bitmap of indexes */
static int pin_skip_max;
static char *pin_helpers;	/* "\nPROG/LOCAL\n..." */
static int pin_float;
static char pin_prog[256];
static size_t pin_setsize;
static cpu_set_t *pin_union;
static int pin_report = -1;
static struct pin_shared *sh;
static struct pin_shared *local_sh;	/* no shared file */
static atomic_int pin_local_next = 1;	/* created by this process */
static pthread_key_t pin_key;
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pin_rec *pin_list;
static struct pin_rec main_rec;
static __thread struct pin_rec *self_rec
	__attribute__((tls_model("initial-exec")));

static create_fn real_create;
static int (*real_mutex_lock)(pthread_mutex_t *);
static int (*real_mutex_trylock)(pthread_mutex_t *);
static int (*real_mutex_unlock)(pthread_mutex_t *);
static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
				  const struct timespec *);
static int (*real_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *,
				  clockid_t, const struct timespec *);
static int (*real_barrier_wait)(pthread_barrier_t *);
static int (*real_join)(pthread_t, void **);
static int (*real_sem_wait)(sem_t *);
static int (*real_sem_trywait)(sem_t *);
static int (*real_sem_timedwait)(sem_t *, const struct timespec *);
static int (*real_setaffinity_np)(pthread_t, size_t, const cpu_set_t *);

/* ---- small things that are safe anywhere -------------------------- */

/*
 * Ids as pandia sees them.  pandia may run the command in a PID
 * namespace of its own (profiler/run.c), where getpid() and gettid()
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

static int getpid_(void)
{
	int id = pin_ns ? link_id("/proc/self") : -1;

	return id > 0 ? id : getpid();
}

static int gettid_(void)
{
	int id = pin_ns ? link_id("/proc/thread-self") : -1;

	return id > 0 ? id : (int)syscall(SYS_gettid);
}

/* whether this process's ids differ from pandia's */
static void find_ns(void)
{
	int id = link_id("/proc/self");

	pin_ns = id > 0 && id != getpid();
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct line {
	char s[PIN_LINE];
	size_t len;
};

static void put_str(struct line *l, const char *s)
{
	while (*s && l->len < sizeof(l->s) - 1)
		l->s[l->len++] = *s++;
}

static void put_int(struct line *l, int64_t v)
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
static void put_set(struct line *l, const cpu_set_t *set, size_t size)
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
static void emit(struct line *l)
{
	if (pin_report < 0)
		return;
	l->s[l->len++] = '\n';
	while (write(pin_report, l->s, l->len) < 0 && errno == EINTR)
		;
}

/* ---- the list, the skip list, the shared state -------------------- */

/* "1,0,3-5" into a new array; its length, or -1 when malformed */
static int parse_list(const char *s, int **out, int max)
{
	int n = 0, cap = 0, *v = NULL;
	const char *p = s;

	for (;;) {
		char *end;
		long a, b;

		if (*p < '0' || *p > '9')
			goto fail;
		a = b = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto fail;
			b = strtol(p, &end, 10);
		}
		if (a < 0 || b < a || b >= max)
			goto fail;
		for (; a <= b; a++) {
			if (n == cap) {
				int *t;

				cap = cap ? 2 * cap : 16;
				if (cap > PIN_MAX_LIST)
					goto fail;
				t = realloc(v, sizeof(*v) * (size_t)cap);
				if (!t)
					goto fail;
				v = t;
			}
			v[n++] = (int)a;
		}
		if (!*end)
			break;
		if (*end != ',')
			goto fail;
		p = end + 1;
	}
	*out = v;
	return n;
fail:
	free(v);
	return -1;
}

static int skipped(int index, int local)
{
	char key[300];
	struct line l = { .len = 0 };

	if (pin_float)
		return 1;
	if (pin_skip && index >= 0 && index <= pin_skip_max &&
	    (pin_skip[index / 8] & (1 << (index % 8))))
		return 1;
	if (!pin_helpers)
		return 0;
	put_str(&l, "\n");
	put_str(&l, pin_prog);
	put_str(&l, "/");
	put_int(&l, local);
	put_str(&l, "\n");
	l.s[l.len] = '\0';
	memcpy(key, l.s, l.len + 1);
	return strstr(pin_helpers, key) != NULL;
}

static int take_index(void)
{
	return atomic_fetch_add(&sh->next_index, 1);
}

/*
 * The position for a new thread: the first with the fewest threads on
 * it; -1 for a helper.  *wrapped: every position was taken.
 */
static int take_slot(int index, int local, int *wrapped)
{
	int best, bv, s, v;

	*wrapped = 0;
	if (skipped(index, local))
		return -1;
	for (;;) {
		best = 0;
		bv = atomic_load(&sh->occ[0]);
		for (s = 1; s < pin_n && bv > 0; s++) {
			v = atomic_load(&sh->occ[s]);
			if (v < bv) {
				best = s;
				bv = v;
			}
		}
		if (atomic_compare_exchange_weak(&sh->occ[best], &bv, bv + 1))
			break;
	}
	*wrapped = bv > 0;
	return best;
}

static void give_slot(int slot)
{
	if (slot >= 0 && slot < pin_n)
		atomic_fetch_sub(&sh->occ[slot], 1);
}

static struct pin_proc *find_proc(int pid)
{
	int n = atomic_load(&sh->n_procs), i;

	if (n > PIN_MAX_PROCS)
		n = PIN_MAX_PROCS;
	for (i = n - 1; i >= 0; i--)
		if (atomic_load(&sh->procs[i].pid) == pid)
			return &sh->procs[i];
	return NULL;
}

static void add_proc(int pid, const struct pin_rec *r)
{
	int i = atomic_fetch_add(&sh->n_procs, 1);

	if (i >= PIN_MAX_PROCS)
		return;
	sh->procs[i].index = r->index;
	sh->procs[i].slot = r->slot;
	sh->procs[i].start = r->start;
	atomic_store(&sh->procs[i].pid, pid);
}

static int map_shared(const char *path)
{
	size_t size = sizeof(struct pin_shared) +
		      sizeof(atomic_int) * (size_t)pin_n;
	void *p = MAP_FAILED;
	int fd;

	if (path && *path) {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			/* the first process sizes it; zeros: a fresh run */
			if (ftruncate(fd, (off_t)size) == 0)
				p = mmap(NULL, size, PROT_READ | PROT_WRITE,
					 MAP_SHARED, fd, 0);
			close(fd);
		}
	}
	if (p == MAP_FAILED) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		local_sh = p;
	}
	sh = p;
	return 0;
}

/* ---- pinning ------------------------------------------------------ */

/* pin the calling thread to CPU, -1: the set (not through our wrapper) */
static void pin_to(int cpu)
{
	cpu_set_t *set;

	if (cpu < 0) {
		syscall(SYS_sched_setaffinity, 0, pin_setsize, pin_union);
		return;
	}
	set = CPU_ALLOC(PIN_MAX_CPUS);
	if (!set)
		return;
	CPU_ZERO_S(pin_setsize, set);
	CPU_SET_S((size_t)cpu, pin_setsize, set);
	syscall(SYS_sched_setaffinity, 0, pin_setsize, set);
	CPU_FREE(set);
}

static int slot_cpu(int slot)
{
	return slot >= 0 ? pin_cpus[slot] : -1;
}

/* the "start" line of the calling thread, R */
static void report_start(const struct pin_rec *r, const char *flags)
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
		put_str(&l, "w");
	if (r->keep)
		put_str(&l, "k");
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
static void rec_end(struct pin_rec *r)
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
	for (k = 0; k < K_KINDS; k++) {
		put_str(&l, " ");
		put_int(&l, (int64_t)atomic_load_explicit(&r->blocked[k],
						memory_order_relaxed));
	}
	emit(&l);
	give_slot(r->slot);
}

static void list_add(struct pin_rec *r)
{
	real_mutex_lock(&list_lock);
	r->next = pin_list;
	pin_list = r;
	real_mutex_unlock(&list_lock);
}

static void list_del(struct pin_rec *r)
{
	struct pin_rec **p;

	real_mutex_lock(&list_lock);
	for (p = &pin_list; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	real_mutex_unlock(&list_lock);
}

/* TSD destructor: the thread exits (return or pthread_exit) */
static void thread_exit(void *p)
{
	struct pin_rec *r = p;

	rec_end(r);
	if (r == &main_rec)
		return;
	/* other destructors may still lock: account nothing to it */
	self_rec = NULL;
	list_del(r);
	free(r);
}

/* ---- setting up --------------------------------------------------- */

static void resolve(void)
{
	static atomic_int done;

	if (atomic_load(&done))
		return;
#define REAL(var, name) (var = (__typeof__(var))dlsym(RTLD_NEXT, name))
	REAL(real_create, "pthread_create");
	REAL(real_mutex_lock, "pthread_mutex_lock");
	REAL(real_mutex_trylock, "pthread_mutex_trylock");
	REAL(real_mutex_unlock, "pthread_mutex_unlock");
	REAL(real_cond_wait, "pthread_cond_wait");
	REAL(real_cond_timedwait, "pthread_cond_timedwait");
	REAL(real_cond_clockwait, "pthread_cond_clockwait");
	REAL(real_barrier_wait, "pthread_barrier_wait");
	REAL(real_join, "pthread_join");
	REAL(real_sem_wait, "sem_wait");
	REAL(real_sem_trywait, "sem_trywait");
	REAL(real_sem_timedwait, "sem_timedwait");
	REAL(real_setaffinity_np, "pthread_setaffinity_np");
#undef REAL
	atomic_store(&done, 1);
}

static void fork_prepare(void)
{
	if (pin_n > 0)
		real_mutex_lock(&list_lock);
}

static void fork_parent(void)
{
	if (pin_n > 0)
		real_mutex_unlock(&list_lock);
}

/* the child of a fork: a new process, its main thread the next index */
static void fork_child(void)
{
	struct pin_rec *r = self_rec ? self_rec : &main_rec;
	int k;

	if (pin_n < 1)
		return;
	pthread_mutex_init(&list_lock, NULL);
	atomic_store(&pin_local_next, 1);
	find_ns();
	r->tid = getpid_();
	r->self = pthread_self();
	r->index = take_index();
	r->local = 0;
	r->start = mono_ns();
	r->keep = 0;
	memcpy(r->routine, "main", 5);
	r->slot = take_slot(r->index, 0, &r->wrapped);
	for (k = 0; k < K_KINDS; k++)
		atomic_store(&r->blocked[k], 0);
	atomic_store(&r->done, 0);
	r->next = NULL;
	pin_list = r;
	self_rec = r;
	add_proc(r->tid, r);
	pin_to(slot_cpu(r->slot));
	report_start(r, "mf");
}

__attribute__((constructor)) static void pin_init(void)
{
	const char *list = getenv("PANDIA_PIN_CPUS");
	const char *skip = getenv("PANDIA_PIN_SKIP");
	const char *helpers = getenv("PANDIA_PIN_HELPERS");
	const char *fl = getenv("PANDIA_PIN_FLOAT");
	const char *path = getenv("PANDIA_PIN_REPORT");
	struct pin_proc *pp;
	char exe[4096];
	ssize_t len;
	int i, n, *v;

	resolve();
	if (!list || !real_create || !real_mutex_lock || !real_mutex_unlock ||
	    !real_mutex_trylock || !real_cond_wait || !real_cond_timedwait ||
	    !real_barrier_wait || !real_join || !real_sem_wait ||
	    !real_sem_trywait || !real_sem_timedwait)
		return;
	n = parse_list(list, &pin_cpus, PIN_MAX_CPUS);
	if (n < 1)
		return;
	if (skip && *skip) {
		int m = parse_list(skip, &v, PIN_MAX_INDEX);

		if (m < 0)
			return;
		for (i = 0; i < m; i++)
			if (v[i] > pin_skip_max)
				pin_skip_max = v[i];
		pin_skip = calloc((size_t)pin_skip_max / 8 + 1, 1);
		if (!pin_skip)
			return;
		for (i = 0; i < m; i++)
			pin_skip[v[i] / 8] |= (unsigned char)(1 << (v[i] % 8));
		free(v);
	}
	if (helpers && *helpers) {
		size_t hl = strlen(helpers);

		pin_helpers = malloc(hl + 3);
		if (!pin_helpers)
			return;
		pin_helpers[0] = '\n';
		memcpy(pin_helpers + 1, helpers, hl);
		memcpy(pin_helpers + 1 + hl, "\n", 2);
	}
	pin_float = fl && *fl == '1';
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		char *b;

		exe[len] = '\0';
		b = strrchr(exe, '/');
		b = b ? b + 1 : exe;
		for (i = 0; b[i] && i < (int)sizeof(pin_prog) - 1; i++)
			pin_prog[i] = b[i] == '\n' || b[i] == ' ' ? '_' : b[i];
		pin_prog[i] = '\0';
	}
	pin_n = n;
	pin_setsize = CPU_ALLOC_SIZE(PIN_MAX_CPUS);
	pin_union = CPU_ALLOC(PIN_MAX_CPUS);
	if (!pin_union || map_shared(getenv("PANDIA_PIN_SHARED")) < 0 ||
	    pthread_key_create(&pin_key, thread_exit)) {
		pin_n = 0;
		return;
	}
	CPU_ZERO_S(pin_setsize, pin_union);
	for (i = 0; i < pin_n; i++)
		CPU_SET_S((size_t)pin_cpus[i], pin_setsize, pin_union);
	if (path && *path)
		pin_report = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

	find_ns();
	main_rec.tid = getpid_();
	main_rec.self = pthread_self();
	memcpy(main_rec.routine, "main", 5);
	pp = find_proc(main_rec.tid);
	if (pp) {
		/*
		 * It exec'd: the same process, the same index, and the same
		 * position unless the new program's role differs from the
		 * one it had when forked (a shell forked it).
		 */
		main_rec.index = pp->index;
		main_rec.start = pp->start;
		main_rec.slot = pp->slot;
		if (skipped(pp->index, 0)) {
			give_slot(main_rec.slot);
			main_rec.slot = -1;
		} else if (main_rec.slot < 0) {
			main_rec.slot = take_slot(pp->index, 0,
						  &main_rec.wrapped);
		}
		pp->slot = main_rec.slot;
	} else {
		main_rec.index = take_index();
		main_rec.start = mono_ns();
		main_rec.slot = take_slot(main_rec.index, 0,
					  &main_rec.wrapped);
		add_proc(main_rec.tid, &main_rec);
	}
	pin_list = &main_rec;
	self_rec = &main_rec;
	pthread_setspecific(pin_key, &main_rec);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	pin_to(slot_cpu(main_rec.slot));
	report_start(&main_rec, "m");
}

/* the process exits: every thread still there reports */
__attribute__((destructor)) static void pin_fini(void)
{
	struct pin_rec *r;
	struct pin_proc *pp;

	if (pin_n < 1)
		return;
	real_mutex_lock(&list_lock);
	for (r = pin_list; r; r = r->next)
		rec_end(r);
	real_mutex_unlock(&list_lock);
	pp = find_proc(getpid_());
	if (pp)
		atomic_store(&pp->pid, 0);
}

/* ---- created threads ---------------------------------------------- */

static void *pin_start(void *p)
{
	struct pin_rec *r = p;

	r->tid = gettid_();
	r->self = pthread_self();
	r->start = mono_ns();
	if (!r->keep)
		pin_to(slot_cpu(r->slot));
	self_rec = r;
	list_add(r);
	pthread_setspecific(pin_key, r);
	report_start(r, "");
	return r->fn(r->arg);
}

/* FN as "MODULE+0xOFFSET": the same in every run of the program */
static void routine_name(void *(*fn)(void *), char *buf, size_t size)
{
	struct line l = { .len = 0 };
	const char *b;
	uintptr_t off;
	Dl_info di;
	size_t i;
	int k;

	if (!dladdr((void *)fn, &di) || !di.dli_fbase || !di.dli_fname)
		return;
	b = strrchr(di.dli_fname, '/');
	b = b ? b + 1 : di.dli_fname;
	put_str(&l, *b ? b : pin_prog);
	put_str(&l, "+0x");
	off = (uintptr_t)fn - (uintptr_t)di.dli_fbase;
	for (k = (int)sizeof(off) * 2 - 1; k >= 0; k--)
		if (off >> (4 * k) || k == 0)
			l.s[l.len++] = "0123456789abcdef"[(off >> (4 * k)) &
							  15];
	for (i = 0; i < l.len && i < size - 1; i++)
		buf[i] = l.s[i] == ' ' ? '_' : l.s[i];
	buf[i] = '\0';
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
	struct pin_rec *r;
	int rc;

	resolve();
	if (!real_create)
		return EAGAIN;
	if (pin_n < 1)
		return real_create(thread, attr, fn, arg);
	r = calloc(1, sizeof(*r));
	if (!r)
		return EAGAIN;
	r->fn = fn;
	r->arg = arg;
	r->index = take_index();
	r->local = atomic_fetch_add(&pin_local_next, 1);
	r->slot = take_slot(r->index, r->local, &r->wrapped);
	r->keep = attr_has_affinity(attr);
	routine_name(fn, r->routine, sizeof(r->routine));
	rc = real_create(thread, attr, pin_start, r);
	if (rc) {
		give_slot(r->slot);
		free(r);
	}
	return rc;
}

/* ---- waits, accounted --------------------------------------------- */

static void add_blocked(int kind, int64_t t0)
{
	struct pin_rec *r = self_rec;

	if (r)
		atomic_fetch_add_explicit(&r->blocked[kind],
					  (uint64_t)(mono_ns() - t0),
					  memory_order_relaxed);
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	int64_t t0;
	int rc, spin;

	if (!real_mutex_trylock) {
		resolve();
		if (!real_mutex_lock)
			return EINVAL;
	}
	if (pin_n < 1)
		return real_mutex_lock(m);
	/*
	 * Uncontended: one try-lock, no clock, no system call.  Held by
	 * another thread: timed.  More try-locks before timing (a spin)
	 * would change the program instead of measuring it: with 100 of
	 * them, a mutex-heavy program ran 4 to 21% faster and a lock
	 * handed back and forth 68 to 124% slower than without the
	 * library; with one, -1 to +0% and +5 to +15% (bench/40-accounting.sh,
	 * docs/running.md).
	 */
	for (spin = 0; spin < MUTEX_SPINS; spin++) {
		rc = real_mutex_trylock(m);
		if (rc != EBUSY)
			return rc;
		cpu_relax();
	}
	t0 = mono_ns();
	rc = real_mutex_lock(m);
	add_blocked(K_MUTEX, t0);
	return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_cond_wait(c, m);
	add_blocked(K_COND, t0);
	return rc;
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			   const struct timespec *abstime)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_cond_timedwait(c, m, abstime);
	add_blocked(K_COND, t0);
	return rc;
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
			   clockid_t clock, const struct timespec *abstime)
{
	int64_t t0;
	int rc;

	resolve();
	if (!real_cond_clockwait)
		return EINVAL;
	t0 = mono_ns();
	rc = real_cond_clockwait(c, m, clock, abstime);
	add_blocked(K_COND, t0);
	return rc;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_barrier_wait(b);
	add_blocked(K_BARRIER, t0);
	return rc;
}

int pthread_join(pthread_t th, void **ret)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_join(th, ret);
	add_blocked(K_JOIN, t0);
	return rc;
}

int sem_wait(sem_t *s)
{
	int64_t t0;
	int rc, e = errno;

	resolve();
	if (pin_n < 1)
		return real_sem_wait(s);
	if (real_sem_trywait(s) == 0)
		return 0;
	if (errno != EAGAIN)
		return -1;
	errno = e;
	t0 = mono_ns();
	rc = real_sem_wait(s);
	add_blocked(K_SEM, t0);
	return rc;
}

int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	int64_t t0;
	int rc, e = errno;

	resolve();
	if (pin_n < 1)
		return real_sem_timedwait(s, abstime);
	if (real_sem_trywait(s) == 0)
		return 0;
	errno = e;
	t0 = mono_ns();
	rc = real_sem_timedwait(s, abstime);
	add_blocked(K_SEM, t0);
	return rc;
}

/* ---- the program sets affinities itself: said, not prevented ------ */

static void report_affinity(int tid, const cpu_set_t *set, size_t size)
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

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	long rc = syscall(SYS_sched_setaffinity, pid, size, set);

	if (rc == 0 && pin_n > 0)
		report_affinity(pid && pid != (pid_t)syscall(SYS_gettid) ?
				(int)pid : gettid_(), set, size);
	return rc ? -1 : 0;
}

int pthread_setaffinity_np(pthread_t th, size_t size, const cpu_set_t *set)
{
	struct pin_rec *r;
	int rc, tid = -1;

	resolve();
	if (!real_setaffinity_np)
		return ENOSYS;
	rc = real_setaffinity_np(th, size, set);
	if (rc || pin_n < 1)
		return rc;
	if (pthread_equal(th, pthread_self())) {
		tid = gettid_();
	} else {
		real_mutex_lock(&list_lock);
		for (r = pin_list; r; r = r->next)
			if (pthread_equal(r->self, th))
				tid = r->tid;
		real_mutex_unlock(&list_lock);
	}
	report_affinity(tid, set, size);
	return 0;
}
