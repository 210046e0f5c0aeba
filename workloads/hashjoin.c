/*
 * hashjoin.c - an analytics kernel with OpenMP: the equi-join of a
 * build relation R and a probe relation S through a shared hash table
 * (a no-partitioning hash join).
 *
 * R has --build-rows rows with distinct 32-bit keys; S has --probe-rows
 * rows whose keys hit R with probability --match.  Both are generated
 * from --seed by counter-based hashing, so the data (and the result:
 * matches and the sum of matched payloads, checked against what the
 * generator produced) do not depend on the thread count.  Build: every
 * thread inserts its static share of R into one open-addressing table
 * (linear probing, compare-and-swap on 64-bit slots).  Probe: every
 * thread looks up its static share of S.  The table (8 bytes per slot,
 * 2 to 4 slots per R row: 128 MiB by default) is far beyond the
 * last level cache, so both phases are dominated by dependent-free
 * random DRAM accesses: latency-bound per thread, bandwidth-bound when
 * many threads run.  Only the build and probe are timed.
 */
#include <omp.h>

#include "workloads/common.h"

#define EMPTY UINT64_MAX

static long long build_rows = 8000000;
static long long probe_rows = 20000000;
static double match = 0.5;
static long long seed = 42;

static const struct wl_opt opts[] = {
	{ "build-rows", WL_OPT_INT, &build_rows, "N", "rows of R" },
	{ "probe-rows", WL_OPT_INT, &probe_rows, "N", "rows of S (the work)" },
	{ "match", WL_OPT_DOUBLE, &match, "F",
	  "fraction of S rows that find a match" },
	{ "seed", WL_OPT_INT, &seed, "N", "seed of the generated data" },
	{ NULL, 0, NULL, NULL, NULL }
};

static const struct wl_prog prog = {
	"hashjoin",
	"An OpenMP hash join: build a shared hash table on R, probe it with\n"
	"every row of S; generated data, deterministic result.",
	"Expected: p near 1 (two parallel loops), random DRAM accesses into a\n"
	"table beyond the LLC: latency-bound per thread, bandwidth-bound with\n"
	"many threads; l = 0 (static OpenMP schedule).  Threads come from\n"
	"--threads, else PANDIA_THREADS, else OMP_NUM_THREADS, else 1.\n",
	opts,
};

/* A bijection on 32 bits: R's keys are perm32(0..R-1). */
static inline uint32_t perm32(uint32_t x)
{
	x *= 0x9e3779b1u;
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	return x;
}

static inline uint64_t slot_of(uint32_t key, uint64_t mask)
{
	return ((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 17) & mask;
}

/* The join's sizes, data, times and results, shared by the steps. */
struct join {
	uint64_t nbuild, nprobe, nslots, mask;
	uint32_t cut;		/* S row i matches when the low 32 bits
				   of its hash are below cut */
	uint64_t *table;
	uint32_t *probe;
	double t0, t1, t2;	/* start of build, of probe, end */
	uint64_t expect_n, expect_sum, got_n, got_sum;
};

/* Check the options and size and allocate the table and S. */
static void join_setup(struct join *jn, const struct wl_common *c)
{
	uint64_t nslots = 1;

	if (build_rows < 1 || build_rows > (1LL << 30) || probe_rows < 1 ||
	    !(match >= 0 && match <= 1))
		wl_usage_error("--build-rows must be 1 to 2^30, --probe-rows "
			       "at least 1, --match 0 to 1");
	jn->nbuild = build_rows;
	jn->nprobe = (uint64_t)(probe_rows * c->scale + 0.5);
	if (jn->nprobe < 1)
		jn->nprobe = 1;
	while (nslots < 2 * jn->nbuild)
		nslots <<= 1;
	jn->nslots = nslots;
	jn->mask = nslots - 1;
	jn->cut = match >= 1 ? UINT32_MAX :
		(uint32_t)(match * 4294967296.0);
	jn->table = wl_alloc(nslots * sizeof(*jn->table), 2 << 20);
	jn->probe = wl_alloc(jn->nprobe * sizeof(*jn->probe), 2 << 20);
}

/*
 * Generate S, build the table and probe it on c->threads threads; the
 * sizes and arrays are copied to locals (shared in the team) so that
 * the loops see them as the compiler saw main's.
 */
static void join_run(struct join *jn, const struct wl_common *c)
{
	const uint64_t nbuild = jn->nbuild, nprobe = jn->nprobe;
	const uint64_t nslots = jn->nslots, mask = jn->mask;
	const uint32_t cut = jn->cut;
	uint64_t *const table = jn->table;
	uint32_t *const probe = jn->probe;
	uint64_t expect_n = 0, expect_sum = 0, got_n = 0, got_sum = 0;
	double t0 = 0, t1 = 0, t2 = 0;
	int bad_team = 0;

	omp_set_dynamic(0);
	omp_set_num_threads(c->threads);
	wl_print_header(c);
	fflush(stdout);

#pragma omp parallel reduction(+ : expect_n, expect_sum, got_n, got_sum)
	{
		uint64_t i;

		if (omp_get_num_threads() != c->threads) {
#pragma omp atomic write
			bad_team = 1;
		}
		if (c->cpus)
			wl_pin_or_die(c->cpus[omp_get_thread_num()]);

		/* untimed: clear the table and generate S (first touch) */
#pragma omp for schedule(static)
		for (i = 0; i < nslots; i++)
			table[i] = EMPTY;
#pragma omp for schedule(static)
		for (i = 0; i < nprobe; i++) {
			uint64_t h = wl_mix64(i ^ ((uint64_t)seed << 40));
			uint32_t r = (uint32_t)((h >> 32) % nbuild);

			if ((uint32_t)h < cut) {
				probe[i] = perm32(r);
				expect_n++;
				expect_sum += r;
			} else {
				/* keys of rows nbuild.. are not in R */
				probe[i] = perm32((uint32_t)(nbuild + r));
			}
		}
#pragma omp barrier
#pragma omp master
		t0 = wl_now();

		/* build: payload = row number */
#pragma omp for schedule(static)
		for (i = 0; i < nbuild; i++) {
			uint32_t key = perm32((uint32_t)i);
			uint64_t v = (uint64_t)key << 32 | i;
			uint64_t j = slot_of(key, mask);
			uint64_t old = EMPTY;

			while (!__atomic_compare_exchange_n(&table[j], &old, v,
					false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED)) {
				j = (j + 1) & mask;
				old = EMPTY;
			}
		}
		/* the implicit barrier of the loop ends the build */
#pragma omp master
		t1 = wl_now();

#pragma omp for schedule(static)
		for (i = 0; i < nprobe; i++) {
			uint32_t key = probe[i];
			uint64_t j = slot_of(key, mask);
			uint64_t e;

			while ((e = table[j]) != EMPTY) {
				if ((uint32_t)(e >> 32) == key) {
					got_n++;
					got_sum += (uint32_t)e;
					break;
				}
				j = (j + 1) & mask;
			}
		}
#pragma omp master
		t2 = wl_now();
		if (c->verbose) {
			int cpu = sched_getcpu();
			double cpu_s = wl_thread_cpu_time();

#pragma omp critical
			fprintf(stderr, "%s: thread %d: PU %d, "
				"cpu time %.3f s\n", wl_name,
				omp_get_thread_num(), cpu, cpu_s);
		}
	}
	if (bad_team)
		wl_die("OpenMP gave a team of another size than %d threads",
		       c->threads);
	jn->t0 = t0;
	jn->t1 = t1;
	jn->t2 = t2;
	jn->expect_n = expect_n;
	jn->expect_sum = expect_sum;
	jn->got_n = got_n;
	jn->got_sum = got_sum;
}

/* Print the sizes, result and times; die when the result is wrong. */
static void join_report(const struct join *jn)
{
	printf("build rows: %llu\nprobe rows: %llu\n",
	       (unsigned long long)jn->nbuild, (unsigned long long)jn->nprobe);
	printf("table: %llu slots, %.1f MiB\n",
	       (unsigned long long)jn->nslots, jn->nslots * 8.0 / (1 << 20));
	printf("matches: %llu\npayload sum: %llu\n",
	       (unsigned long long)jn->got_n, (unsigned long long)jn->got_sum);
	printf("check: %s\n", jn->got_n == jn->expect_n &&
	       jn->got_sum == jn->expect_sum ? "ok" : "WRONG");
	printf("build: %.6f s\nprobe: %.6f s\n", jn->t1 - jn->t0,
	       jn->t2 - jn->t1);
	printf("rate: %.1f M probes/s\n",
	       jn->nprobe / (jn->t2 - jn->t1) / 1e6);
	free(jn->table);
	free(jn->probe);
	if (jn->got_n != jn->expect_n || jn->got_sum != jn->expect_sum)
		wl_die("wrong result: %llu matches (sum %llu), expected %llu "
		       "(sum %llu)", (unsigned long long)jn->got_n,
		       (unsigned long long)jn->got_sum,
		       (unsigned long long)jn->expect_n,
		       (unsigned long long)jn->expect_sum);
}

int main(int argc, char **argv)
{
	struct wl_common c;
	struct join jn = { 0 };

	wl_parse(argc, argv, &prog, &c);
	join_setup(&jn, &c);
	join_run(&jn, &c);
	join_report(&jn);
	return wl_finish(jn.t2 - jn.t0);
}
