/*
 * kernels.c - the stress kernels.
 *
 * What counts as a byte.  The bandwidth kernels load every byte of every
 * cache line they touch, with full-width vector loads (AVX2 when the CPU
 * has it, SSE2 otherwise), and count the bytes of the array swept.  The
 * paper reads one value per cache line; at L1 that would count 64 bytes
 * for an 8-byte load, and on this host it reports 2.5 times what the load
 * ports can deliver (a number no workload could ever reach), while at L2
 * and beyond one load per line also leaves the hardware prefetchers less
 * to go on and reads DRAM about 25% slower than full lines.  Full-line
 * loads give one honest rule for every level: bytes loaded by the core
 * = bytes moved over the link (each line is moved whole), which is also
 * how likwid-bench's load_avx counts (8 bytes per element swept), so
 * the two can be compared directly (bench/10-bandwidth.sh).
 *
 * The loaded values are XORed into four accumulators (one dependency
 * chain per 32 bytes of a 128-byte step) whose sum is stored to a sink,
 * so the compiler cannot drop a load and the vector ALUs are far from
 * being the bottleneck (two loads and two XORs per cycle at most).
 *
 * load_store reads each 32-byte vector, XORs it with a constant and
 * writes it back: bytes counted = bytes loaded + bytes stored (twice the
 * array).
 *
 * The core-rate kernel (int_chains) runs ten independent chains of
 * 64-bit integer additions held in registers, unrolled four times, in
 * inline assembly on x86-64 so that the instruction count is exact: per
 * iteration 40 adds, one decrement and one branch, 42 instructions,
 * which is what a retired-instructions counter would see.  Elsewhere a
 * C version with compiler barriers counts only its additions.
 *
 * int_chain is one chain of the same additions, each waiting for the
 * last: one per cycle, whatever else the core runs.  Its rate is the
 * clock's.  Ten chains fill the core's integer units, so they also
 * slow where another hardware thread of the core (or a hypervisor's
 * vCPU on it) takes them; one chain slows only with the clock.
 * 'pandia machine' keeps a lower clock with every core busy only when
 * int_chain shows it too.
 */
#include "stress/kernels.h"

#include <errno.h>
#include <numa.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

/* Traffic of one pass of a bandwidth kernel: about 0.02 ms at L1,
 * 1 ms at 4 GB/s, so that *stop is seen promptly. */
#define PASS_BYTES	(4UL << 20)
/* Bytes of one step of the vector loops (two cache lines). */
#define STEP		128
/* Iterations of the core-rate loop per pass (~40 us at 4 IPC, 3 GHz). */
#define CPU_ITERS	(1L << 14)
#define CPU_OPS_PER_ITER_ASM	42
#define CPU_OPS_PER_ITER_C	40

static volatile uint64_t kernel_sink;

/* ---- bandwidth kernels ---------------------------------------------- */

#if HAVE_X86
__attribute__((target("avx2")))
static void load_avx2(const char *p, size_t bytes, long reps)
{
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	const char *end = p + bytes, *q;
	long r;

	for (r = 0; r < reps; r++) {
		for (q = p; q < end; q += STEP) {
			a0 = _mm256_xor_si256(a0,
				_mm256_load_si256((const __m256i *)q));
			a1 = _mm256_xor_si256(a1,
				_mm256_load_si256((const __m256i *)(q + 32)));
			a2 = _mm256_xor_si256(a2,
				_mm256_load_si256((const __m256i *)(q + 64)));
			a3 = _mm256_xor_si256(a3,
				_mm256_load_si256((const __m256i *)(q + 96)));
		}
	}
	a0 = _mm256_xor_si256(_mm256_xor_si256(a0, a1),
			      _mm256_xor_si256(a2, a3));
	kernel_sink = (uint64_t)_mm256_extract_epi64(a0, 0);
}

__attribute__((target("avx2")))
static void load_store_avx2(char *p, size_t bytes, long reps)
{
	const __m256i k = _mm256_set1_epi64x(0x5bd1e995);
	char *end = p + bytes, *q;
	long r;

	for (r = 0; r < reps; r++) {
		for (q = p; q < end; q += STEP) {
			__m256i *v = (__m256i *)q;

			_mm256_store_si256(v, _mm256_xor_si256(
				_mm256_load_si256(v), k));
			_mm256_store_si256(v + 1, _mm256_xor_si256(
				_mm256_load_si256(v + 1), k));
			_mm256_store_si256(v + 2, _mm256_xor_si256(
				_mm256_load_si256(v + 2), k));
			_mm256_store_si256(v + 3, _mm256_xor_si256(
				_mm256_load_si256(v + 3), k));
		}
	}
}

static void load_sse2(const char *p, size_t bytes, long reps)
{
	__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
	const char *end = p + bytes, *q;
	long r;

	for (r = 0; r < reps; r++) {
		for (q = p; q < end; q += 64) {
			a0 = _mm_xor_si128(a0,
				_mm_load_si128((const __m128i *)q));
			a1 = _mm_xor_si128(a1,
				_mm_load_si128((const __m128i *)(q + 16)));
			a2 = _mm_xor_si128(a2,
				_mm_load_si128((const __m128i *)(q + 32)));
			a3 = _mm_xor_si128(a3,
				_mm_load_si128((const __m128i *)(q + 48)));
		}
	}
	a0 = _mm_xor_si128(_mm_xor_si128(a0, a1), _mm_xor_si128(a2, a3));
	kernel_sink = (uint64_t)_mm_cvtsi128_si64(a0);
}

static void load_store_sse2(char *p, size_t bytes, long reps)
{
	const __m128i k = _mm_set1_epi64x(0x5bd1e995);
	char *end = p + bytes, *q;
	long r;

	for (r = 0; r < reps; r++) {
		for (q = p; q < end; q += 64) {
			__m128i *v = (__m128i *)q;
			int i;

			for (i = 0; i < 4; i++)
				_mm_store_si128(v + i, _mm_xor_si128(
					_mm_load_si128(v + i), k));
		}
	}
}
#endif

/* Portable versions: 64-bit words, every byte read. */
static void load_c(const char *p, size_t bytes, long reps)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t n = bytes / 8, i;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	long r;

	for (r = 0; r < reps; r++) {
		for (i = 0; i < n; i += 4) {
			a0 ^= w[i];
			a1 ^= w[i + 1];
			a2 ^= w[i + 2];
			a3 ^= w[i + 3];
		}
	}
	kernel_sink = a0 ^ a1 ^ a2 ^ a3;
}

static void load_store_c(char *p, size_t bytes, long reps)
{
	uint64_t *w = (uint64_t *)p;
	size_t n = bytes / 8, i;
	long r;

	for (r = 0; r < reps; r++)
		for (i = 0; i < n; i++)
			w[i] ^= 0x5bd1e995;
}

enum isa { ISA_C, ISA_SSE2, ISA_AVX2 };

static enum isa best_isa(void)
{
#if HAVE_X86
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		return ISA_AVX2;
	return ISA_SSE2;
#else
	return ISA_C;
#endif
}

static void sweep(enum stress_kind kind, char *p, size_t bytes, long reps)
{
	static int isa = -1;

	if (isa < 0)
		isa = best_isa();
	switch (isa) {
#if HAVE_X86
	case ISA_AVX2:
		if (kind == STRESS_LOAD)
			load_avx2(p, bytes, reps);
		else
			load_store_avx2(p, bytes, reps);
		return;
	case ISA_SSE2:
		if (kind == STRESS_LOAD)
			load_sse2(p, bytes, reps);
		else
			load_store_sse2(p, bytes, reps);
		return;
#endif
	default:
		if (kind == STRESS_LOAD)
			load_c(p, bytes, reps);
		else
			load_store_c(p, bytes, reps);
		return;
	}
}

/* ---- core-rate kernel ----------------------------------------------- */

#if defined(__x86_64__)
/* One add of the core kernels to the register operand R. */
#define CPU_ADD(r) "add $0x5bd1e995, %[" #r "]\n\t"
/* The core kernels' loop: BODY (ten adds) four times, then the count
 * down in operand n: 42 instructions an iteration. */
#define CPU_LOOP(body) \
	".p2align 5\n" "1:\n\t" body body body body \
	"dec %[n]\n\t" "jnz 1b\n\t"

/* ITERS iterations of 40 independent adds in 10 chains; returns the
 * instructions retired (42 per iteration). */
static double cpu_chains(long iters)
{
	uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5;
	uint64_t a5 = 6, a6 = 7, a7 = 8, a8 = 9, a9 = 10;
	long n = iters;

#define ADD10 \
	CPU_ADD(a0) CPU_ADD(a1) CPU_ADD(a2) CPU_ADD(a3) CPU_ADD(a4) \
	CPU_ADD(a5) CPU_ADD(a6) CPU_ADD(a7) CPU_ADD(a8) CPU_ADD(a9)
	__asm__ volatile(
		CPU_LOOP(ADD10)
		: [a0] "+r" (a0), [a1] "+r" (a1), [a2] "+r" (a2),
		  [a3] "+r" (a3), [a4] "+r" (a4), [a5] "+r" (a5),
		  [a6] "+r" (a6), [a7] "+r" (a7), [a8] "+r" (a8),
		  [a9] "+r" (a9), [n] "+r" (n)
		:
		: "cc");
#undef ADD10
	kernel_sink = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7 ^ a8 ^ a9;
	return (double)iters * CPU_OPS_PER_ITER_ASM;
}
#else
/* The barrier after each round keeps the compiler from folding the
 * additions; only the 40 additions per iteration are counted. */
static double cpu_chains(long iters)
{
	uint64_t a0 = 1, a1 = 2, a2 = 3, a3 = 4, a4 = 5;
	uint64_t a5 = 6, a6 = 7, a7 = 8, a8 = 9, a9 = 10;
	long i;
	int j;

	for (i = 0; i < iters; i++) {
		for (j = 0; j < 4; j++) {
			a0 += 0x5bd1e995; a1 += 0x5bd1e995;
			a2 += 0x5bd1e995; a3 += 0x5bd1e995;
			a4 += 0x5bd1e995; a5 += 0x5bd1e995;
			a6 += 0x5bd1e995; a7 += 0x5bd1e995;
			a8 += 0x5bd1e995; a9 += 0x5bd1e995;
			__asm__ volatile("" : "+r" (a0), "+r" (a1), "+r" (a2),
					 "+r" (a3), "+r" (a4), "+r" (a5),
					 "+r" (a6), "+r" (a7), "+r" (a8),
					 "+r" (a9));
		}
	}
	kernel_sink = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7 ^ a8 ^ a9;
	return (double)iters * CPU_OPS_PER_ITER_C;
}
#endif

#if defined(__x86_64__)
/* ITERS iterations of 40 dependent adds; returns the instructions
 * retired (42 per iteration). */
static double cpu_chain(long iters)
{
	uint64_t a = 1;
	long n = iters;

#define ADD10 \
	CPU_ADD(a) CPU_ADD(a) CPU_ADD(a) CPU_ADD(a) CPU_ADD(a) \
	CPU_ADD(a) CPU_ADD(a) CPU_ADD(a) CPU_ADD(a) CPU_ADD(a)
	__asm__ volatile(
		CPU_LOOP(ADD10)
		: [a] "+r" (a), [n] "+r" (n)
		:
		: "cc");
#undef ADD10
	kernel_sink = a;
	return (double)iters * CPU_OPS_PER_ITER_ASM;
}
#else
/* Only the 40 additions per iteration are counted. */
static double cpu_chain(long iters)
{
	uint64_t a = 1;
	long i;
	int j;

	for (i = 0; i < iters; i++)
		for (j = 0; j < 40; j++) {
			a += 0x5bd1e995;
			__asm__ volatile("" : "+r" (a));
		}
	kernel_sink = a;
	return (double)iters * CPU_OPS_PER_ITER_C;
}
#endif

/* ---- passes ---------------------------------------------------------- */

/*
 * One pass: about PASS_BYTES of traffic.  A buffer smaller than that is
 * swept whole several times; a larger one is swept in PASS_BYTES
 * segments starting at *off, so that consecutive passes continue one
 * linear stream through the whole buffer.
 */
double stress_pass(enum stress_kind kind, struct stress_buf *b, size_t *off)
{
	char *p = b->mem;
	size_t len;
	long reps;

	if (kind == STRESS_CPU)
		return cpu_chains(CPU_ITERS);
	if (kind == STRESS_CPU_CHAIN)
		return cpu_chain(CPU_ITERS / 4);
	if (b->bytes <= PASS_BYTES) {
		reps = (long)(PASS_BYTES / b->bytes);
		sweep(kind, p, b->bytes, reps);
		len = b->bytes * (size_t)reps;
	} else {
		len = b->bytes - *off;
		if (len > PASS_BYTES)
			len = PASS_BYTES;
		sweep(kind, p + *off, len, 1);
		*off += len;
		if (*off >= b->bytes)
			*off = 0;
	}
	return kind == STRESS_LOAD_STORE ? 2.0 * (double)len : (double)len;
}

double stress_run_until(enum stress_kind kind, struct stress_buf *b,
			volatile sig_atomic_t *stop)
{
	double work = 0;
	size_t off = 0;

	while (!*stop)
		work += stress_pass(kind, b, &off);
	return work;
}

double stress_run_for(enum stress_kind kind, struct stress_buf *b,
		      double seconds, double *elapsed)
{
	double work = 0, start, t;
	size_t off = 0;

	start = now_seconds();
	do {
		work += stress_pass(kind, b, &off);
		t = now_seconds() - start;
	} while (t < seconds);
	if (elapsed)
		*elapsed = t;
	return work;
}

const char *stress_kernel_name(enum stress_kind kind)
{
	static const char *const load[] = { "load_c", "load_sse2",
					    "load_avx2" };
	static const char *const ls[] = { "load_store_c", "load_store_sse2",
					  "load_store_avx2" };
	enum isa isa = best_isa();

	switch (kind) {
	case STRESS_CPU:
		return "int_chains";
	case STRESS_CPU_CHAIN:
		return "int_chain";
	case STRESS_LOAD:
		return load[isa];
	case STRESS_LOAD_STORE:
		return ls[isa];
	}
	return "unknown";
}

/* ---- buffers ---------------------------------------------------------- */

double stress_touch_seconds(size_t bytes)
{
	return (double)bytes / 0.7e9;
}

size_t stress_buf_size(size_t bytes)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t p = ps > 0 ? (size_t)ps : 4096;

	if (bytes == 0)
		bytes = p;
	return (bytes + p - 1) / p * p;
}

int stress_buf_map(struct stress_buf *b, size_t bytes, int node,
		   struct pandia_error *err)
{
	void *mem;

	b->mem = NULL;
	b->bytes = 0;
	b->numa_node = node;
	bytes = stress_buf_size(bytes);

	if (numa_available() >= 0) {
		if (node >= 0)
			mem = numa_alloc_onnode(bytes, node);
		else
			mem = numa_alloc_local(bytes);
		if (!mem)
			return perr_set(err, "cannot allocate %zu bytes on "
					"NUMA node %d", bytes, node);
	} else {
		/* No NUMA support in this kernel or container: one node,
		 * plain pages are local by definition. */
		mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			return perr_errno(err, "cannot allocate %zu bytes",
					  bytes);
	}
	b->mem = mem;
	b->bytes = bytes;
	return 0;
}

void stress_buf_touch(void *mem, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	/*
	 * The kernel's own fill of the page tables first (Linux 5.14;
	 * elsewhere it fails and the memset faults each page in): on a
	 * PVM guest 1 GiB took 1.5 s so against 4.0 s faulted page by
	 * page, the same pages either way.
	 */
	madvise(mem, bytes, MADV_POPULATE_WRITE);
#endif
	memset(mem, 0x5a, bytes);
}

int stress_buf_alloc(struct stress_buf *b, size_t bytes, int node,
		     struct pandia_error *err)
{
	if (stress_buf_map(b, bytes, node, err) < 0)
		return -1;
	/* Touch every page (now, by the thread that will use it, so the
	 * first-touch policy and the page faults stay out of the timed
	 * part). */
	stress_buf_touch(b->mem, b->bytes);
	return 0;
}

void stress_buf_release(struct stress_buf *b)
{
	if (!b || !b->mem)
		return;
	if (numa_available() >= 0)
		numa_free(b->mem, b->bytes);
	else
		munmap(b->mem, b->bytes);
	b->mem = NULL;
	b->bytes = 0;
}

/* ---- working sets ----------------------------------------------------- */

/* Size of the cache of LEVEL (1..3) seen by the first core; 0 if none. */
static unsigned long long cache_size(const struct pandia_machine *m,
				     int level)
{
	int idx;

	if (m->n_cores <= 0 || level < 1 || level > 3)
		return 0;
	idx = m->cores[0].cache[level - 1];
	if (idx < 0 || idx >= m->n_caches)
		return 0;
	return m->caches[idx].size;
}

/* The level (1..3) of the first core's last-level cache; 0 if none. */
static int llc_level(const struct pandia_machine *m)
{
	int level;

	for (level = 3; level >= 1 && !cache_size(m, level); level--)
		;
	return level;
}

unsigned long long stress_llc_size(const struct pandia_machine *m)
{
	return cache_size(m, llc_level(m));
}

unsigned long long stress_llc_reach(const struct pandia_machine *m)
{
	int level = llc_level(m);
	unsigned long long missed;

	if (!level)
		return 8ULL << 20;
	missed = machine_cache_missed(m, (enum pandia_level)(level - 1));
	return missed ? missed : cache_size(m, level);
}

/* Round down to a multiple of 4 KiB, at least 4 KiB. */
static size_t round_ws(unsigned long long bytes)
{
	bytes &= ~4095ULL;
	return bytes < 4096 ? 4096 : (size_t)bytes;
}

size_t stress_working_set(const struct pandia_machine *m,
			  enum pandia_level level, int threads_sharing)
{
	unsigned long long size, below = 0, llc;
	int t = threads_sharing > 0 ? threads_sharing : 1;
	int l;

	switch (level) {
	case LVL_L1:
	case LVL_L2:
	case LVL_L3:
		size = cache_size(m, level + 1);
		if (!size)
			return 0;
		for (l = level; l >= 1 && !below; l--)
			below = cache_size(m, l);
		/*
		 * Half the cache (per thread sharing it) leaves room for
		 * page tables, code and the other ways' conflicts; a
		 * quarter of the L3, which in a VM is shared with other
		 * tenants of the host (measured on a KVM guest: 16 of
		 * 32 MiB swung from 32 to 54 GB/s between runs, 8 MiB
		 * stayed within 3%).  When that would not clear the level
		 * below by a factor of two, take the middle between the
		 * two sizes instead.
		 */
		if (size / ((level == LVL_L3 ? 4ULL : 2ULL) * t) >= 2 * below)
			return round_ws(size / ((level == LVL_L3 ? 4ULL :
						 2ULL) * t));
		if (size / (2ULL * t) >= 2 * below)
			return round_ws(size / (2ULL * t));
		return round_ws((below + size / t) / 2);
	case LVL_DRAM:
	case LVL_INTERCONNECT:
		/* The paper's rule: at least 100 times the LLC in all. */
		llc = stress_llc_size(m);
		if (!llc)
			llc = 8ULL << 20;
		return round_ws(100 * llc / t);
	default:
		return 0;
	}
}
