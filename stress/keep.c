/*
 * keep.c - working sets kept from run to run.  Every run of a job
 * allocated its working sets and touched every page before it
 * measured, and a job runs once a round and again when its figure
 * spreads.  On a guest whose page faults are dear that was most of the
 * time: a 2-vCPU PVM guest touched 2 GiB in 8.7 s (0.25 GB/s) against
 * 0.1 s to write it again, and `pandia machine --quick` took 50 to 86
 * s, 41 of one run's 71 in the kernel.  So the working sets are kept, and
 * jobs that read memory bound to one NUMA node share that node's
 * arena: the DRAM per-core job's 2 GiB hold the aggregate's two
 * threads' 1 GiB each.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "stress/measure_internal.h"

/* Bytes touched at once by whoever claims them first. */
#define KEEP_CHUNK	(2UL << 20)

static int node_of(const struct job *j, int k)
{
	return j->nodes ? j->nodes[k] : j->node;
}

/* The shared arena of NODE in a[0..n), or -1. */
static int arena_of(const struct stress_arena *a, int n, int node)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i].node == node && node >= 0)
			return i;
	return -1;
}

/* Every arena P's jobs want, sized, into p->arenas (not mapped). */
static void size_arenas(struct plan *p)
{
	struct stress_arena *a = p->arenas;
	int i, k, l, n = 0;

	for (i = 0; i < p->n_jobs; i++) {
		const struct job *j = &p->jobs[i];

		if (stress_kind_is_core(j->kind))
			continue;
		for (k = 0; k < j->n; k++) {
			int node = node_of(j, k);
			size_t here = 0;

			if (node < 0) {
				a[n].node = -1;
				a[n++].bytes = stress_buf_size(j->ws);
				continue;
			}
			if (arena_of(a, n, node) >= 0)
				continue;
			/* the most any one job puts on this node */
			for (l = i; l < p->n_jobs; l++) {
				const struct job *o = &p->jobs[l];
				size_t sum = 0;
				int q;

				for (q = 0; !stress_kind_is_core(o->kind) &&
				     q < o->n; q++)
					if (node_of(o, q) == node)
						sum += stress_buf_size(o->ws);
				if (sum > here)
					here = sum;
			}
			a[n].node = node;
			a[n++].bytes = here;
		}
	}
	p->n_arenas = n;
}

/* Whether a thread of J reads memory local to it (no node's arena). */
static bool has_local(const struct job *j)
{
	int k;

	for (k = 0; k < j->n; k++)
		if (node_of(j, k) < 0)
			return true;
	return false;
}

/* P's arenas without the local ones (their jobs allocate each run). */
static void drop_local(struct plan *p)
{
	int i, n = 0;

	for (i = 0; i < p->n_arenas; i++)
		if (p->arenas[i].node >= 0)
			p->arenas[n++] = p->arenas[i];
	p->n_arenas = n;
}

/* The bytes of P's arenas. */
static unsigned long long arena_bytes(const struct plan *p)
{
	unsigned long long all = 0;
	int i;

	for (i = 0; i < p->n_arenas; i++)
		all += p->arenas[i].bytes;
	return all;
}

/*
 * Each thread's slice: its own arena, or the next part of its node's;
 * a job of local working sets without arenas (LOCAL false) is not
 * kept.
 */
static void cut_slices(struct plan *p, bool local)
{
	int i, k, mine = 0;

	for (i = 0; i < p->n_jobs; i++) {
		struct job *j = &p->jobs[i];
		size_t *used;

		if (stress_kind_is_core(j->kind) || (!local && has_local(j)))
			continue;
		used = xcalloc(p->n_arenas, sizeof(size_t));
		j->kept = xcalloc(j->n, sizeof(*j->kept));
		for (k = 0; k < j->n; k++) {
			int node = node_of(j, k), ai;

			if (node < 0) {
				/* the private arenas, in planning order */
				while (p->arenas[mine].node >= 0)
					mine++;
				j->kept[k].a = &p->arenas[mine++];
				continue;
			}
			ai = arena_of(p->arenas, p->n_arenas, node);
			j->kept[k].a = &p->arenas[ai];
			j->kept[k].off = used[ai];
			used[ai] += stress_buf_size(j->ws);
		}
		free(used);
	}
}

/*
 * All of them where they fit within CAP; else the nodes' arenas alone
 * (those whose first touch takes the time: one DRAM job's working set
 * is capped at half the memory available, and a machine of one node
 * holds that much once instead of in every run), the cache levels'
 * small working sets allocated each run; else nothing.
 */
void stress_plan_keep(struct plan *p, unsigned long long cap)
{
	bool local = true;
	int i, threads = 0;

	for (i = 0; i < p->n_jobs; i++)
		if (!stress_kind_is_core(p->jobs[i].kind))
			threads += p->jobs[i].n;
	if (!threads)
		return;
	/* at most one arena a thread */
	p->arenas = xcalloc(threads, sizeof(*p->arenas));
	size_arenas(p);
	if (arena_bytes(p) > cap) {
		drop_local(p);
		local = false;
	}
	if (!p->n_arenas || arena_bytes(p) > cap) {
		free(p->arenas);
		p->arenas = NULL;
		p->n_arenas = 0;
		return;
	}
	for (i = 0; i < p->n_arenas; i++)
		p->arenas[i].n_chunks = (p->arenas[i].bytes + KEEP_CHUNK - 1) /
			KEEP_CHUNK;
	cut_slices(p, local);
}

void stress_keep_release(struct plan *p)
{
	int i;

	for (i = 0; i < p->n_jobs; i++) {
		free(p->jobs[i].kept);
		p->jobs[i].kept = NULL;
	}
	for (i = 0; i < p->n_arenas; i++) {
		stress_buf_release(&p->arenas[i].buf);
		free(p->arenas[i].touched);
	}
	free(p->arenas);
	p->arenas = NULL;
	p->n_arenas = 0;
}

int stress_keep_map(const struct job *j, struct pandia_error *err)
{
	int k;

	for (k = 0; j->kept && k < j->n; k++) {
		struct stress_arena *a = j->kept[k].a;

		if (a->buf.mem)
			continue;
		if (stress_buf_map(&a->buf, a->bytes, a->node, err) < 0)
			return -1;
		a->touched = xcalloc(a->n_chunks, 1);
	}
	return 0;
}

void stress_keep_buf(const struct job *j, int k, struct stress_buf *out)
{
	struct stress_arena *a = j->kept[k].a;
	size_t off = j->kept[k].off, len = stress_buf_size(j->ws), c, end;
	char *mem = a->buf.mem;

	for (c = off / KEEP_CHUNK; c * KEEP_CHUNK < off + len; c++) {
		if (__atomic_exchange_n(&a->touched[c], 1, __ATOMIC_ACQ_REL))
			continue;
		end = (c + 1) * KEEP_CHUNK < a->bytes ? (c + 1) * KEEP_CHUNK :
			a->bytes;
		stress_buf_touch(mem + c * KEEP_CHUNK, end - c * KEEP_CHUNK);
	}
	out->mem = mem + off;
	out->bytes = len;
	out->numa_node = a->node;
}
