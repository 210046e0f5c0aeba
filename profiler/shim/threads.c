/*
 * threads.c - the threads a program creates, interposed: each takes an
 * index and a position before it starts, and an affinity the program
 * sets itself is reported (said, not prevented).
 */
#include "profiler/shim/shim.h"

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
