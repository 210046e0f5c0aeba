/*
 * probe.c - the "probe" counter backend (profiler/probe.h).
 */
#include "profiler/probe.h"
#include "common/workload.h"
#include "profiler/run.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/util.h"

/* ---- CPU use ----------------------------------------------------- */

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static double self_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return tv_seconds(&ru.ru_utime) + tv_seconds(&ru.ru_stime);
}

static double children_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return tv_seconds(&ru.ru_utime) + tv_seconds(&ru.ru_stime);
}

void probe_cpu_begin(struct probe_cpu *pc)
{
	struct perf_event_attr a;

	memset(pc, 0, sizeof(*pc));
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	/* this thread and every process and thread started after now */
	pc->fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
			      PERF_FLAG_FD_CLOEXEC);
	pc->method = pc->fd >= 0 ? "task-clock" : "rusage";
	pc->self0 = self_seconds();
	pc->child0 = children_seconds();
	pc->wall0 = now_seconds();
}

void probe_cpu_end(struct probe_cpu *pc, double *cpu, double *wall)
{
	double self = self_seconds() - pc->self0;
	uint64_t ns;

	*wall = now_seconds() - pc->wall0;
	if (pc->fd >= 0 && read(pc->fd, &ns, sizeof(ns)) == sizeof(ns)) {
		*cpu = (double)ns / 1e9 - self;
	} else {
		pc->method = "rusage";
		*cpu = children_seconds() - pc->child0;
	}
	if (*cpu < 0)
		*cpu = 0;
	if (pc->fd >= 0)
		close(pc->fd);
	pc->fd = -1;
}

int probe_stat_busy(double *busy, int max)
{
	return probe_stat_read(busy, NULL, max);
}

int probe_stat_read(double *busy, double *steal, int max)
{
	FILE *f = fopen("/proc/stat", "re");
	double tick = (double)sysconf(_SC_CLK_TCK);
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	if (!(tick > 0))
		tick = 100;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu "
			   "%llu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5], &v[6], &v[7]) < 9 || cpu < 0)
			continue;
		if (cpu < max) {
			/* user nice system [idle iowait] irq softirq steal */
			busy[cpu] = (double)(v[0] + v[1] + v[2] + v[5] + v[6] +
					     v[7]) / tick;
			if (steal)
				steal[cpu] = (double)v[7] / tick;
			n++;
		}
	}
	fclose(f);
	return n;
}

/* ---- disturbance ------------------------------------------------- */

void probe_disturb_begin(struct probe_disturb *d)
{
	memset(d, 0, sizeof(*d));
	d->busy0 = xcalloc(PROBE_STAT_PUS, sizeof(double));
	d->steal0 = xcalloc(PROBE_STAT_PUS, sizeof(double));
	d->ok = probe_stat_read(d->busy0, d->steal0, PROBE_STAT_PUS) > 0;
	probe_cpu_begin(&d->cpu);
}

/*
 * The most a worker waited for a CPU, as a share of its life.  The
 * most, not the mean: a run lasts as long as its slowest thread, and
 * another tenant on one of two PUs halves the mean of what it does to
 * the thread there.  A worker that lived less than a tenth of the
 * longest life is left out: one scheduling delay is a large share of
 * a short life.  The command's own helpers share the listed PUs with
 * the workers (a pipeline's 'head' beside its compressor): a wait up
 * to their CPU time in all may be theirs, and is not counted.
 */
static double runqueue_share(const struct run_result *r)
{
	double most = 0, longest = 0, helpers = 0;
	int i;

	for (i = 0; r && i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];

		if (t->worker && t->end - t->start > longest)
			longest = t->end - t->start;
		if (!t->worker && isfinite(t->cpu_time))
			helpers += t->cpu_time;
	}
	for (i = 0; r && i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		double life = t->end - t->start;

		if (!t->worker || !(life > 0) || life < 0.1 * longest ||
		    !isfinite(t->runqueue_wait))
			continue;
		if ((t->runqueue_wait - helpers) / life > most)
			most = (t->runqueue_wait - helpers) / life;
	}
	return most;
}

double probe_disturb_end(struct probe_disturb *d, const int *pus, int n,
			 const struct run_result *r, bool alone,
			 struct probe_disturbance *out)
{
	double *busy1 = xcalloc(PROBE_STAT_PUS, sizeof(double));
	double *steal1 = xcalloc(PROBE_STAT_PUS, sizeof(double));
	bool *used = xcalloc(PROBE_STAT_PUS, sizeof(bool));
	double cpu = 0, wall = 0, busy = 0, steal = 0;
	int i, k = 0;

	memset(out, 0, sizeof(*out));
	probe_cpu_end(&d->cpu, &cpu, &wall);
	d->cpu_seconds = cpu;
	d->wall_seconds = wall;
	if (d->ok && probe_stat_read(busy1, steal1, PROBE_STAT_PUS) > 0) {
		for (i = 0; i < n; i++)
			if (pus[i] >= 0 && pus[i] < PROBE_STAT_PUS)
				used[pus[i]] = true;
		for (i = 0; i < PROBE_STAT_PUS; i++)
			if (used[i]) {
				busy += busy1[i] - d->busy0[i];
				steal += steal1[i] - d->steal0[i];
				k++;
			}
	}
	if (k && wall > 0) {
		/*
		 * /proc/stat counts in clock ticks: each PU's reading may
		 * be a tick off at either end, and the CPU time too, so a
		 * share below that margin says nothing (a short run's
		 * margin is large).
		 */
		double tick = (double)sysconf(_SC_CLK_TCK);
		double margin = 3 / ((tick > 0 ? tick : 100) * wall);

		out->steal = steal / (wall * k) - margin;
		/*
		 * Others took time the command would have had only if
		 * the PUs were full: time they used while it slept
		 * harmed nobody.
		 */
		if (busy >= 0.9 * wall * k)
			out->foreign = (busy - cpu) / (wall * k) - margin;
		if (out->steal < 0)
			out->steal = 0;
		if (out->foreign < out->steal)
			out->foreign = out->steal;
		if (out->foreign < 0)
			out->foreign = 0;
		if (out->foreign > 1)
			out->foreign = 1;
	}
	if (alone)
		out->runqueue = runqueue_share(r);
	out->share = out->foreign > out->runqueue ? out->foreign :
		out->runqueue;
	free(busy1);
	free(steal1);
	free(used);
	free(d->busy0);
	free(d->steal0);
	d->busy0 = d->steal0 = NULL;
	return out->share;
}

const char *probe_disturbance_text(const struct probe_disturbance *dd,
				   char *buf, size_t size)
{
	int n = snprintf(buf, size, "others took %.0f%% of its PUs' time",
			 100 * dd->foreign);

	if (dd->steal >= 0.005 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " (the hypervisor "
			      "%.0f%%)", 100 * dd->steal);
	if (dd->runqueue >= 0.005 && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", a worker thread "
			 "waited %.0f%% of its time for a CPU",
			 100 * dd->runqueue);
	return buf;
}

/* ---- bandwidth demand from co-run probes -------------------------- */

static const char *gbs(double v, char *buf, size_t size)
{
	snprintf(buf, size, "%.3g GB/s", v / 1e9);
	return buf;
}

double probe_amplification(double X, double Pc)
{
	if (!(X > Pc))
		return INFINITY;
	return X / (X - Pc);
}

double probe_rel_uncertainty(double X, double Pc, double noise_x,
			     double noise_pc, double noise_sigma)
{
	double ax = probe_amplification(X, Pc), apc = ax - 1;

	return sqrt(ax * noise_x * ax * noise_x + apc * noise_pc * apc *
		    noise_pc + noise_sigma * noise_sigma);
}

/*
 * "; noise amplification 2.1" or, above PROBE_AMP_HIGH, what it
 * means, into buf (returned).
 */
static const char *amp_text(double amp, const char *of, char *buf,
			    size_t size)
{
	if (amp > PROBE_AMP_HIGH)
		snprintf(buf, size, "; noise amplification %.3g, POORLY "
			 "CONDITIONED: a 1%% error in %s is %.3g%% here", amp,
			 of, amp);
	else
		snprintf(buf, size, "; noise amplification %.3g", amp);
	return buf;
}

/*
 * "it ran 1.2x slower" (run 1 beside the probes) or "its 12 threads
 * took 0.11x run 1's time", into buf (returned).
 */
static const char *ran_text(const struct probe_input *in, double sigma,
			    char *buf, size_t size)
{
	if (in->threads > 1)
		snprintf(buf, size, "its %d threads took %.3gx run 1's time",
			 in->threads, sigma);
	else
		snprintf(buf, size, "it ran %.3gx slower", sigma);
	return buf;
}

/*
 * The estimate of a saturated level: the probes' loss when their rate
 * alone was measured, else what they left of the described capacity;
 * the other one, where there is one, as a cross-check in the status.
 */
static void saturated_estimate(const struct probe_input *in, double sigma,
			       struct probe_estimate *out)
{
	const char *lv = level_name(in->level);
	double C = in->aggregate_bw, P = in->alone, Pc = in->corun;
	double eC = in->capacity_noise > 0 ? in->capacity_noise :
		PROBE_C_NOISE, ePc = in->corun_noise;
	double cap = (C - Pc) * sigma, X, est, rel;
	bool loss = !in->alone_described && P > Pc;
	char a[32], b[32], c[32], d[32], e[32], am[160], x[200] = "";
	char r[96];

	X = loss ? P : C;
	est = (X - Pc) * sigma;
	out->known = true;
	out->value = est < in->per_core_bw ? est : in->per_core_bw;
	out->amplification = probe_amplification(X, Pc);
	rel = probe_rel_uncertainty(X, Pc, loss ? in->alone_noise : eC, ePc,
				    in->slowdown_noise);
	/* no noise seen (one repetition): none stated, not "+- 0" */
	out->uncertainty = rel > 0 ? rel * out->value : NAN;
	if (loss && C > Pc)
		snprintf(x, sizeof(x), "; the described %s would give (%s - "
			 "%s) x %.4g = %s, amplification %.3g", gbs(C, a,
			 sizeof(a)), gbs(C, b, sizeof(b)), gbs(Pc, c,
			 sizeof(c)), sigma, gbs(cap, d, sizeof(d)),
			 probe_amplification(C, Pc));
	amp_text(out->amplification, loss ? "the probes' rates" :
		 "the described capacity or the probes' rate", am,
		 sizeof(am));
	out->status = xasprintf(
		"estimate from %d co-run probe(s) that nearly saturate %s "
		"(%s alone%s, of %s described): they %s %s beside it and %s: "
		"(%s - %s) x %.4g%s%s%s",
		in->n_probes, lv, gbs(P, a, sizeof(a)),
		in->alone_described ? " as described" : ", measured",
		gbs(C, b, sizeof(b)), loss ? "lost" : "left",
		gbs(loss ? P - Pc : C - Pc, c, sizeof(c)),
		ran_text(in, sigma, r, sizeof(r)), gbs(X, d, sizeof(d)),
		gbs(Pc, e, sizeof(e)), sigma,
		loss ? " (their loss)" : " (the described capacity)", am, x);
}

/*
 * Whether the probes' loss beside the workload is no more than their
 * rate alone moved between before and after the command
 * (PROBE_DRIFT_SIGMAS x alone_drift): it may be the host's, not the
 * workload's.
 */
static bool unresolved_loss(const struct probe_input *in)
{
	return in->alone_drift > 0 && !in->alone_described &&
		in->alone - in->corun <=
		PROBE_DRIFT_SIGMAS * in->alone_drift * in->alone;
}

/*
 * The bound of a loss the drift hides: what the probes could have lost
 * (their loss and the drift's reach), scaled by SIGMA, or one core's
 * link.
 */
static void drift_bound(const struct probe_input *in, double sigma,
			struct probe_estimate *out)
{
	double P = in->alone, Pc = in->corun, lost = P - Pc, took, est;
	char a[32], b[32], c[32], r[96];

	took = (lost > 0 ? lost : 0) +
		PROBE_DRIFT_SIGMAS * in->alone_drift * P;
	est = took * sigma;
	out->known = out->bound = true;
	out->value = est < in->per_core_bw ? est : in->per_core_bw;
	out->status = xasprintf(
		"upper bound: below %s: the %d probe(s) went from %s alone "
		"to %s beside it (%+.1f%%) and %s, but their rate alone "
		"moved +-%.1f%% between before and after it: "
		WL_DRIFT_BOUND ", not a measure of what it took",
		gbs(out->value, a, sizeof(a)), in->n_probes,
		gbs(P, b, sizeof(b)), gbs(Pc, c, sizeof(c)),
		-100 * lost / P, ran_text(in, sigma, r, sizeof(r)),
		100 * in->alone_drift);
}

void probe_estimate_demand(const struct probe_input *in,
			   struct probe_estimate *out)
{
	const char *lv = level_name(in->level);
	double C = in->aggregate_bw, P = in->alone, Pc = in->corun;
	/* run 1 is never faster beside the probes: below 1 is noise */
	double sigma = in->threads > 1 ? in->slowdown :
		in->slowdown > 1 ? in->slowdown : 1, took, est;
	/* what the probes can take: measured alone, or as described */
	double X = in->alone_described ? C : fmax(C, P);
	bool saturating, slowed;
	char a[32], b[32], c[32], d[32], r[96];

	memset(out, 0, sizeof(*out));
	out->uncertainty = NAN;
	out->amplification = NAN;
	if (in->n_probes < 1 || !(C > 0) || !(in->per_core_bw > 0) ||
	    !isfinite(P) || !isfinite(Pc) || !(P > 0) ||
	    !(sigma > 0) || !isfinite(sigma)) {
		out->status = xasprintf("not measured: no probe rate at %s",
					lv);
		return;
	}
	saturating = P >= PROBE_SATURATE * C;
	/*
	 * Beside probes that nearly saturate the level, either side
	 * losing speed shows the level saturated: then what the
	 * workload took is what the probes left.  (Many probes lose
	 * little to one thread, which itself slows a lot.)
	 */
	slowed = (Pc < P * (1 - PROBE_SLOWED) ||
		  (in->threads <= 1 && sigma > 1 + PROBE_SLOWED)) &&
		(in->alone_described ? C : P) - Pc > 0;
	/*
	 * What the workload took while beside the probes, not below the
	 * resolution of the measurement (probes that lose less than
	 * PROBE_SLOWED of their rate count as not slowed).
	 */
	took = C - Pc;
	if (took < PROBE_SLOWED * P)
		took = PROBE_SLOWED * P;
	est = took * sigma;
	if (Pc > X * (1 + PROBE_SLOWED)) {
		/* the level's aggregate is below what was reached */
		out->known = out->bound = true;
		out->value = in->per_core_bw;
		out->status = xasprintf(
			"upper bound: below %s (one core's %s link); the %d "
			"probe(s) reached %s beside it, more than the %s the "
			"description gives %s in all",
			gbs(out->value, a, sizeof(a)), lv, in->n_probes,
			gbs(Pc, b, sizeof(b)), gbs(C, c, sizeof(c)), lv);
		return;
	}
	if (saturating && slowed && unresolved_loss(in)) {
		drift_bound(in, sigma, out);
		return;
	}
	if (saturating && slowed) {
		saturated_estimate(in, sigma, out);
		return;
	}
	out->known = out->bound = true;
	out->value = est < in->per_core_bw ? est : in->per_core_bw;
	if (saturating)
		out->status = xasprintf(
			"upper bound: below %s: %d co-run probe(s) that nearly "
			"saturate %s (%s alone of %s) kept %s beside it",
			gbs(out->value, a, sizeof(a)), in->n_probes, lv,
			gbs(P, b, sizeof(b)), gbs(C, c, sizeof(c)),
			gbs(Pc, d, sizeof(d)));
	else
		out->status = xasprintf(
			"upper bound: below %s: %d probe thread(s) reach only "
			"%s of the %s that %s sustains (too few cores to "
			"saturate it); beside it they got %s and %s",
			gbs(out->value, a, sizeof(a)), in->n_probes,
			gbs(P, b, sizeof(b)), gbs(C, c, sizeof(c)), lv,
			gbs(Pc, d, sizeof(d)), ran_text(in, sigma, r,
							sizeof(r)));
}

/* The cache instance of LEVEL (1..3) of core CORE, or -1. */
static int cache_of(const struct pandia_machine *m, int core, int level)
{
	return m->cores[core].cache[level - 1];
}

int probe_pus(const struct pandia_machine *m, int pu, int level, int **out,
	      const char **why)
{
	int core = m->pus[pu].core, n = 0, c;
	int *v;

	*out = NULL;
	*why = NULL;
	if (level < 0 || level >= LVL_INTERCONNECT ||
	    !m->links[level].present) {
		*why = "the machine description has no such level";
		return 0;
	}
	v = xcalloc((size_t)m->n_cores + 1, sizeof(int));
	for (c = 0; c < m->n_cores; c++) {
		const struct pandia_core *co = &m->cores[c];
		bool shares;

		if (c == core || co->n_pus < 1)
			continue;
		if (level == LVL_DRAM) {
			shares = co->numa >= 0 ?
				co->numa == m->cores[core].numa :
				co->socket == m->cores[core].socket;
		} else {
			int mine = cache_of(m, core, level + 1);

			shares = mine >= 0 &&
				cache_of(m, c, level + 1) == mine;
		}
		if (shares)
			v[n++] = co->pus[0];
	}
	if (!n) {
		free(v);
		*why = level == LVL_DRAM ?
			"no other core shares its memory node" :
			"private to a core: a probe could only time-share "
			"its PU";
		return 0;
	}
	*out = v;
	return n;
}
