/*
 * pin.c - libpandia-pin.so, loaded with LD_PRELOAD by 'pandia run':
 * pins each thread of a program to its PU and accounts for its time.
 * This file holds the library's state and its setting up (at load, at
 * fork, at exit); profiler/shim/protocol.h says what the runner
 * (profiler/run/) tells it and what it reports.
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
 * /proc/self/task/TID/schedstat and reports.  Threads with the same
 * start routine in the report have the same role.
 *
 * Nothing here prints or allocates on the paths a signal or a fork
 * can interrupt; a malformed list disables the library.
 */
#include "profiler/shim/shim.h"

int *pin_cpus;
int pin_n;
unsigned char *pin_skip;	/* bitmap of indexes */
int pin_skip_max;
char *pin_helpers;	/* "\nPROG/LOCAL\n..." */
int pin_float;
char pin_prog[256];
size_t pin_setsize;
cpu_set_t *pin_union;
int pin_report = -1;
atomic_int pin_local_next = 1;	/* created by this process */
pthread_key_t pin_key;
pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
struct pin_rec *pin_list;
struct pin_rec main_rec;
__thread struct pin_rec *self_rec
	__attribute__((tls_model("initial-exec")));

create_fn real_create;
int (*real_mutex_lock)(pthread_mutex_t *);
int (*real_mutex_trylock)(pthread_mutex_t *);
int (*real_mutex_unlock)(pthread_mutex_t *);
int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
				  const struct timespec *);
int (*real_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *,
				  clockid_t, const struct timespec *);
int (*real_barrier_wait)(pthread_barrier_t *);
int (*real_join)(pthread_t, void **);
int (*real_sem_wait)(sem_t *);
int (*real_sem_trywait)(sem_t *);
int (*real_sem_timedwait)(sem_t *, const struct timespec *);
int (*real_setaffinity_np)(pthread_t, size_t, const cpu_set_t *);

void list_add(struct pin_rec *r)
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

void resolve(void)
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
	resolve_exec();
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
	for (k = 0; k < PIN_BLOCK_KINDS; k++)
		atomic_store(&r->blocked[k], 0);
	atomic_store(&r->done, 0);
	r->next = NULL;
	pin_list = r;
	self_rec = r;
	add_proc(r->tid, r);
	pin_to(slot_cpu(r->slot));
	report_start(r, PIN_FLAG_MAIN PIN_FLAG_FORKED);
}

__attribute__((constructor)) static void pin_init(void)
{
	const char *list = getenv(PIN_ENV_CPUS);
	const char *skip = getenv(PIN_ENV_SKIP);
	const char *helpers = getenv(PIN_ENV_HELPERS);
	const char *fl = getenv(PIN_ENV_FLOAT);
	const char *path = getenv(PIN_ENV_REPORT);
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
	if (!pin_union || map_shared(getenv(PIN_ENV_SHARED)) < 0 ||
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
	report_start(&main_rec, PIN_FLAG_MAIN);
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
