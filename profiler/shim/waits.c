/*
 * waits.c - the waits of a thread, interposed and timed by kind
 * (protocol.h's enum pin_block): mutexes, condition variables,
 * barriers, joins and semaphores.
 */
#include "profiler/shim/shim.h"

/* a pause in a spin: lets the other hyper-thread and the bus breathe */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

#define MUTEX_SPINS	1	/* try-locks before a wait is timed */

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
	add_blocked(PIN_BLOCK_MUTEX, t0);
	return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_cond_wait(c, m);
	add_blocked(PIN_BLOCK_COND, t0);
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
	add_blocked(PIN_BLOCK_COND, t0);
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
	add_blocked(PIN_BLOCK_COND, t0);
	return rc;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_barrier_wait(b);
	add_blocked(PIN_BLOCK_BARRIER, t0);
	return rc;
}

int pthread_join(pthread_t th, void **ret)
{
	int64_t t0;
	int rc;

	resolve();
	t0 = mono_ns();
	rc = real_join(th, ret);
	add_blocked(PIN_BLOCK_JOIN, t0);
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
	add_blocked(PIN_BLOCK_SEM, t0);
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
	add_blocked(PIN_BLOCK_SEM, t0);
	return rc;
}
