/*
 * place.c - where a thread goes: the placement and skip lists, the
 * state every process of the command shares (the index counter, the
 * positions taken, the processes seen), and pinning itself.
 */
#include "profiler/shim/shim.h"

static struct pin_shared *sh;
static struct pin_shared *local_sh;	/* no shared file */

/* ---- the list, the skip list, the shared state -------------------- */

/* "1,0,3-5" into a new array; its length, or -1 when malformed */
int parse_list(const char *s, int **out, int max)
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

int skipped(int index, int local)
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

int take_index(void)
{
	return atomic_fetch_add(&sh->next_index, 1);
}

/*
 * The position for a new thread: the first with the fewest threads on
 * it; -1 for a helper.  *wrapped: every position was taken.
 */
int take_slot(int index, int local, int *wrapped)
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

void give_slot(int slot)
{
	if (slot >= 0 && slot < pin_n)
		atomic_fetch_sub(&sh->occ[slot], 1);
}

struct pin_proc *find_proc(int pid)
{
	int n = atomic_load(&sh->n_procs), i;

	if (n > PIN_MAX_PROCS)
		n = PIN_MAX_PROCS;
	for (i = n - 1; i >= 0; i--)
		if (atomic_load(&sh->procs[i].pid) == pid)
			return &sh->procs[i];
	return NULL;
}

void add_proc(int pid, const struct pin_rec *r)
{
	int i = atomic_fetch_add(&sh->n_procs, 1);

	if (i >= PIN_MAX_PROCS)
		return;
	sh->procs[i].index = r->index;
	sh->procs[i].slot = r->slot;
	sh->procs[i].start = r->start;
	atomic_store(&sh->procs[i].pid, pid);
}

int map_shared(const char *path)
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
void pin_to(int cpu)
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

int slot_cpu(int slot)
{
	return slot >= 0 ? pin_cpus[slot] : -1;
}
