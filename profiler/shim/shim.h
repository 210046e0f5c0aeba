/*
 * shim.h - what the pieces of libpandia-pin.so share (pin.c: state and
 * setting up, place.c: positions and pinning, report.c: the report,
 * threads.c and waits.c: the interposed calls).  Everything declared
 * here is hidden: the library is preloaded into any program, and a
 * name of ours must never stand in for one of the program's.
 */
#ifndef PANDIA_SHIM_SHIM_H
#define PANDIA_SHIM_SHIM_H

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

#include "profiler/shim/protocol.h"

#pragma GCC visibility push(hidden)

#define PIN_MAX_CPUS	4096
#define PIN_MAX_LIST	65536
#define PIN_MAX_INDEX	(1 << 20)	/* skip lists end here */
#define PIN_MAX_PROCS	4096


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
	_Atomic uint64_t blocked[PIN_BLOCK_KINDS];
	atomic_int done;
	struct pin_rec *next;
};

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
			 void *(*)(void *), void *);

/* ---- the library's state (pin.c) ---------------------------------- */

extern int *pin_cpus;
extern int pin_n;
extern unsigned char *pin_skip;	/* bitmap of indexes */
extern int pin_skip_max;
extern char *pin_helpers;	/* "\nPROG/LOCAL\n..." */
extern int pin_float;
extern char pin_prog[256];
extern size_t pin_setsize;
extern cpu_set_t *pin_union;
extern int pin_report;
extern atomic_int pin_local_next;	/* created by this process */
extern pthread_key_t pin_key;
extern pthread_mutex_t list_lock;
extern struct pin_rec *pin_list;
extern struct pin_rec main_rec;
extern __thread struct pin_rec *self_rec
	__attribute__((tls_model("initial-exec")));

extern create_fn real_create;
extern int (*real_mutex_lock)(pthread_mutex_t *);
extern int (*real_mutex_trylock)(pthread_mutex_t *);
extern int (*real_mutex_unlock)(pthread_mutex_t *);
extern int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
extern int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
				  const struct timespec *);
extern int (*real_cond_clockwait)(pthread_cond_t *, pthread_mutex_t *,
				  clockid_t, const struct timespec *);
extern int (*real_barrier_wait)(pthread_barrier_t *);
extern int (*real_join)(pthread_t, void **);
extern int (*real_sem_wait)(sem_t *);
extern int (*real_sem_trywait)(sem_t *);
extern int (*real_sem_timedwait)(sem_t *, const struct timespec *);
extern int (*real_setaffinity_np)(pthread_t, size_t, const cpu_set_t *);

/* the real functions found (dlsym RTLD_NEXT), once */
void resolve(void);
/* R onto the list of this process's threads */
void list_add(struct pin_rec *r);

/* ---- the report (report.c) ---------------------------------------- */

/* a line of the report, built in place */
struct line {
	char s[PIN_LINE];
	size_t len;
};

int getpid_(void);
int gettid_(void);
void find_ns(void);
int64_t mono_ns(void);
void put_str(struct line *l, const char *s);
void put_int(struct line *l, int64_t v);
void put_set(struct line *l, const cpu_set_t *set, size_t size);
void emit(struct line *l);
void report_start(const struct pin_rec *r, const char *flags);
void rec_end(struct pin_rec *r);
void report_affinity(int tid, const cpu_set_t *set, size_t size);

/* ---- positions (place.c) ------------------------------------------ */

int parse_list(const char *s, int **out, int max);
int skipped(int index, int local);
int take_index(void);
int take_slot(int index, int local, int *wrapped);
void give_slot(int slot);
struct pin_proc *find_proc(int pid);
void add_proc(int pid, const struct pin_rec *r);
int map_shared(const char *path);
void pin_to(int cpu);
int slot_cpu(int slot);

/* ---- programs started (exec.c) ------------------------------------ */

/* the real exec and spawn functions found, once (by resolve()) */
void resolve_exec(void);

#pragma GCC visibility pop

#endif
