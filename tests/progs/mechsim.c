/*
 * mechsim.c - a mechanistic simulator of a parallel workload on a
 * machine we do not have, for testing pandia's whole pipeline (profile
 * through the runner template, then validate) against something that
 * is not pandia's model (issue 15, docs/accuracy.md "Simulation").
 * It shares no formula with predictor/pandia/model.c: no utilisation
 * feedback, no "most oversubscribed resource", no o_s, l or b.
 * Instead:
 *
 *   - fluid sharing: every thread and co-runner is a flow with an
 *     execution speed x (1: as fast as alone); the speeds are the
 *     max-min fair allocation (progressive filling) under the
 *     capacities of every resource;
 *   - resources: each PU's time (sum of x at most 1), each core's
 *     instruction throughput (the machine's peak_rate with one PU busy,
 *     up to smt_aggregate_rate with all), each core's links to L1, L2,
 *     L3, DRAM and the other sockets (per-thread caps: per_core_bw),
 *     each L3 (per socket), each NUMA node's DRAM, each socket pair's
 *     link (both directions share it, as the description gives them
 *     added), and one lock;
 *   - a thread's work rate is r = x / (1 + lat x): it stalls LAT
 *     seconds per unit of work for remote communication (comm_lat per
 *     remote partner, or times the remote fraction of its partners)
 *     and for remote DRAM (numa_lat times its remote share); it uses
 *     the bandwidths at rate r, the PU and core at speed x;
 *   - a thread whose core runs another flow on another PU, or whose PU
 *     runs another, goes at most 1 / (1 + burst) of its PU's speed
 *     (collisions in the pipeline: "burstiness"; the speed is the
 *     clock, under turbo);
 *   - pages placed by policy: first_touch (each thread touched its
 *     share: a node holds the pages in proportion to the run's threads
 *     on it, and every thread reads all of them), local (each thread's
 *     own pages on its node), interleave (evenly over the nodes), node:N;
 *   - the lock: lock_hold seconds per unit of work, lock_xfer more
 *     (relative) when it comes from another socket, taken as the
 *     chance that two random holders are on different sockets;
 *   - the work: a serial part (thread 0 alone, the others wait), then
 *     the parallel part, static (an equal share per thread: a thread
 *     that finishes waits, and the others speed up), dynamic (a pool)
 *     or a mix, simulated event by event.
 *
 * It answers the profiler as the runner template expects: co-run
 * stressors on --stress-cpus of the kinds --stress-kind (cpu: a
 * busy loop, a flow at full speed on its PU; bw:LEVEL: a flow that
 * wants the level's per-core bandwidth on its core and shared
 * structure), "pandia-stress: I RATE" for each bandwidth stressor
 * (bytes/s, averaged over the run) and "pandia-stress-alone: I RATE"
 * (its bandwidth with the workload not running), and "time: SECONDS".
 * With --numa-maps FILE it writes where its pages are, as
 * /proc/PID/numa_maps shows them.
 *
 * The workload is a file of "key value" lines ('#' comments):
 *   work 10           seconds one thread alone takes (t1)
 *   serial 0.01       serial fraction (1 - p)
 *   instructions 3e9  ops/s, l1 l2 l3 dram bytes/s, alone
 *   comm 1e9          bytes/s exchanged with the other threads
 *   comm_per total    total: comm spread over the partners (a fixed
 *                     share); pair: comm with each partner
 *   comm_lat 0.001    stall per unit of work per remote partner
 *                     (pair) or with all partners remote (total)
 *   numa_lat 0.05     stall per unit of work with all DRAM remote
 *   burst 0.3         slowdown of sharing a core, at most
 *   dynamic 0.5       share of the parallel work in a pool
 *   memory first_touch | local | interleave | node:N
 *   lock_hold 0.001   lock_xfer 1    data_mib 1024
 *
 *   mechsim -m MACHINE -w WORKLOAD --cpus LIST [--stress-cpus LIST]
 *           [--stress-kind KINDS] [--numa-maps FILE] [--noise SIGMA]
 *           [--seed N] [--state FILE] [--variant KEY=VALUE,...]
 *   mechsim -m MACHINE -w WORKLOAD --cpus-file FILE [--variant ...]
 *
 * --cpus-file simulates every placement of FILE (one LIST a line, "-":
 * stdin), each alone and noise-free, in one process, and prints "LIST
 * SECONDS" a line in the file's order (scripts/tune-sim's search for
 * the true best over every canonical placement of a machine).
 *
 * --variant changes a mechanism that pandia's model assumes, for any
 * workload and machine (scripts/sim-mismatch runs the grid of them);
 * the first value of each key is the default, the rules above:
 *   bw=fair|equal|heavy   DRAM arbitration.  fair: the filling raises
 *                   every flow's speed alike, so flows held at a full
 *                   node get bytes in proportion to what they ask;
 *                   equal: bytes max-min fair (a flow's speed rises
 *                   as 1 / its DRAM demand: the flows held at a full
 *                   node get the same bytes, a light one all it asks
 *                   when that is less);
 *                   heavy: the heaviest streams first, as FR-FCFS
 *                   controllers serve row hits (speed rises with the
 *                   demand: bytes in proportion to its square).  The
 *                   workloads' threads all ask alike, so it shows
 *                   where the profiler's probes meet them
 *   comm=workload|pair|fraction|saturating
 *                   the remote-communication stall: the workload's
 *                   comm_per; per remote partner; by the remote
 *                   fraction of the partners; saturating (ALL x
 *                   (1 - e^-4q) / (1 - e^-4), q the remote fraction).
 *                   ALL, the stall with every partner remote, is
 *                   comm_lat (comm_per total) or comm_lat x (PUs - 1)
 *                   (pair), so the forms agree on a full machine
 *   pages=threads|even    first-touch pages in proportion to each
 *                   node's threads, or evenly over the nodes in use
 *   smt=all|core    a thread sharing a core: its whole speed capped at
 *                   1 / (1 + burst), or only its demand on the core's
 *                   throughput raised by 1 + burst (a thread bound
 *                   elsewhere loses nothing)
 *   turbo=0         a socket's clock with one core busy over all busy,
 *                   less 1 (0.15: 15% faster alone); the PUs' time and
 *                   the cores' throughput shrink linearly with the
 *                   busy cores of the socket
 *   turbo_exp=1     the shape of that: the boost over all busy is
 *                   TURBO x ((ALL - BUSY) / (ALL - 1))^turbo_exp, so
 *                   2 loses most of it with the first few busy cores
 *   waits=block|spin  a thread waiting for the others (a lock-step
 *                   barrier, the serial part, work done): its core
 *                   idle for the clock, or busy (a spinning wait keeps
 *                   the clock of all busy cores)
 *   drift=0         a slow drift of the times, 1 + DRIFT sin(2 pi
 *                   RUN / drift_runs), RUN the count in --state
 *   drift_runs=24   its period, in runs (a default profile makes 24;
 *                   without --state: no drift)
 *   probe_noise=0   each bandwidth stressor's reported rate times its
 *                   own 1 + PROBE_NOISE x N(0, 1) (a probe measures
 *                   its bandwidth as the run its time; --noise is on
 *                   the time only)
 *   host_noise=0    the host's rate moving between windows, as a
 *                   guest's does: the stressors' rates alone before
 *                   the command, beside it and alone after it each
 *                   times a draw 1 + HOST_NOISE x N(0, 1) shared by
 *                   every stressor (their sum moves by as much as
 *                   each), the rate after reported on a line
 *                   "pandia-stress-after: I RATE"
 *   host_after=1    0: that line left out (a runner that measures
 *                   the rate alone before the command only)
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/machine.h"
#include "common/util.h"
#include "tests/lib/rng.h"
#include "tests/lib/sim.h"
#include "tests/progs/mechsim.h"

static const char usage[] =
"usage: mechsim -m MACHINE -w WORKLOAD --cpus LIST\n"
"               [--stress-cpus LIST|none] [--stress-kind KINDS|none]\n"
"               [--numa-maps FILE] [--noise SIGMA] [--seed N]\n"
"               [--state FILE] [--variant KEY=VALUE,...]\n"
"       mechsim -m MACHINE -w WORKLOAD --cpus-file FILE [--variant ...]\n"
"Simulate WORKLOAD's threads on MACHINE at the placement LIST with the\n"
"co-run stressors given; print 'pandia-stress: I RATE' per bandwidth\n"
"stressor and 'time: SECONDS'.  With --cpus-file, every placement of\n"
"FILE (one LIST a line, '-': stdin) alone and noise-free: 'LIST SECONDS'.\n";

/* ---- the workload ------------------------------------------------ */

static void wl_load(const char *path, struct wl *w)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int no = 0;

	if (!f)
		tk_die("cannot open '%s'", path);
	memset(w, 0, sizeof(*w));
	w->work = 10;
	w->data_mib = 1024;
	while (fgets(line, sizeof(line), f)) {
		char key[64], val[128];
		double v;

		no++;
		line[strcspn(line, "#\n")] = 0;
		if (sscanf(line, "%63s %127s", key, val) != 2)
			continue;
		v = atof(val);
		if (!strcmp(key, "work"))
			w->work = v;
		else if (!strcmp(key, "serial"))
			w->serial = v;
		else if (!strcmp(key, "instructions"))
			w->instr = v;
		else if (!strcmp(key, "l1"))
			w->demand[LVL_L1] = v;
		else if (!strcmp(key, "l2"))
			w->demand[LVL_L2] = v;
		else if (!strcmp(key, "l3"))
			w->demand[LVL_L3] = v;
		else if (!strcmp(key, "dram"))
			w->demand[LVL_DRAM] = v;
		else if (!strcmp(key, "comm"))
			w->comm = v;
		else if (!strcmp(key, "comm_per"))
			w->comm_pair = !strcmp(val, "pair");
		else if (!strcmp(key, "comm_lat"))
			w->comm_lat = v;
		else if (!strcmp(key, "numa_lat"))
			w->numa_lat = v;
		else if (!strcmp(key, "burst"))
			w->burst = v;
		else if (!strcmp(key, "dynamic"))
			w->dynamic = v;
		else if (!strcmp(key, "lock_hold"))
			w->lock_hold = v;
		else if (!strcmp(key, "lock_xfer"))
			w->lock_xfer = v;
		else if (!strcmp(key, "data_mib"))
			w->data_mib = v;
		else if (!strcmp(key, "memory")) {
			if (!strcmp(val, "first_touch"))
				w->mem = M_FIRST_TOUCH;
			else if (!strcmp(val, "local"))
				w->mem = M_LOCAL;
			else if (!strcmp(val, "interleave"))
				w->mem = M_INTERLEAVE;
			else if (!strncmp(val, "node:", 5)) {
				w->mem = M_NODE;
				w->mem_node = atoi(val + 5);
			} else {
				tk_die("%s:%d: unknown memory '%s'", path,
				       no, val);
			}
		} else {
			tk_die("%s:%d: unknown key '%s'", path, no, key);
		}
	}
	fclose(f);
}

/* ---- variants and drift ------------------------------------------- */

/* VAL's index in the '|'-separated NAMES; dies when none. */
static int pick(const char *key, const char *val, const char *names)
{
	const char *p = names;
	size_t len = strlen(val);
	int i = 0;

	while (*p) {
		size_t n = strcspn(p, "|");

		if (n == len && !strncmp(p, val, len))
			return i;
		p += n + (p[n] == '|');
		i++;
	}
	tk_die("--variant %s: '%s' is not one of %s", key, val, names);
	return -1;
}

/* The variant of SPEC ("KEY=VALUE,..."; NULL: the default) into V. */
static void variant_parse(const char *spec, struct variant *v)
{
	char *copy, *tok, *sv;

	memset(v, 0, sizeof(*v));
	v->drift_runs = 24;
	v->turbo_exp = 1;
	v->host_after = true;
	if (!spec)
		return;
	copy = xstrdup(spec);
	for (tok = strtok_r(copy, ",", &sv); tok;
	     tok = strtok_r(NULL, ",", &sv)) {
		char *val = strchr(tok, '=');
		double d;

		if (!val)
			tk_die("--variant: '%s' is not KEY=VALUE", tok);
		*val++ = 0;
		d = atof(val);
		if (!strcmp(tok, "bw"))
			v->bw = pick(tok, val, "fair|equal|heavy");
		else if (!strcmp(tok, "comm"))
			v->comm = pick(tok, val,
				       "workload|pair|fraction|saturating");
		else if (!strcmp(tok, "pages"))
			v->pages = pick(tok, val, "threads|even");
		else if (!strcmp(tok, "smt"))
			v->smt = pick(tok, val, "all|core");
		else if (!strcmp(tok, "turbo") && d >= 0)
			v->turbo = d;
		else if (!strcmp(tok, "turbo_exp") && d > 0)
			v->turbo_exp = d;
		else if (!strcmp(tok, "waits"))
			v->waits = pick(tok, val, "block|spin");
		else if (!strcmp(tok, "drift") && d >= 0 && d < 1)
			v->drift = d;
		else if (!strcmp(tok, "drift_runs") && d >= 1)
			v->drift_runs = d;
		else if (!strcmp(tok, "probe_noise") && d >= 0 && d < 1)
			v->probe_noise = d;
		else if (!strcmp(tok, "host_noise") && d >= 0 && d < 1)
			v->host_noise = d;
		else if (!strcmp(tok, "host_after"))
			v->host_after = pick(tok, val, "0|1");
		else
			tk_die("--variant: unknown key or bad value '%s=%s'",
			       tok, val);
	}
	free(copy);
}

/* The number of the run just counted in STATE (which holds the next). */
static unsigned long long run_number(const char *state)
{
	unsigned long long next = 0;
	FILE *f = fopen(state, "r");

	if (!f || fscanf(f, "%llu", &next) != 1 || next < 1)
		tk_die("cannot read the run count in '%s'", state);
	fclose(f);
	return next - 1;
}

/*
 * The run's drift and the probes' noise: its TIME times the drift
 * (1 without --state), each of the NS stressors' RATE times its own
 * draw of probe_noise, seeded by SEED and the run's number (or, without
 * --state, the pid).
 */
static void drift_and_probes(const struct variant *v, const char *state,
			     uint64_t seed, double *time, double *rate,
			     int ns)
{
	uint64_t st;
	int i;

	if (state && (v->drift > 0 || v->probe_noise > 0)) {
		unsigned long long run = run_number(state);

		*time *= 1 + v->drift * sin(2 * M_PI * (double)run /
					    v->drift_runs);
		st = seed ^ 0x9e3779b97f4a7c15ULL ^
			((uint64_t)(run + 1) * 0xbf58476d1ce4e5b9ULL);
	} else {
		st = seed ^ ((uint64_t)getpid() << 20);
	}
	if (v->probe_noise > 0)
		for (i = 0; i < ns; i++)
			rate[i] *= 1 + v->probe_noise * tk_rng_normal(&st);
}

/*
 * The host's rate in the three windows of a run with stressors (alone
 * before, beside the command, alone after): each a draw 1 + host_noise
 * x N(0, 1) into G, from a stream of its own (the other draws stay as
 * they are without it), seeded by SEED and the run's number.
 */
static void host_windows(const struct variant *v, const char *state,
			 uint64_t seed, double g[3])
{
	uint64_t st;
	int i;

	if (state)
		st = seed ^ 0xd1b54a32d192ed03ULL ^
			((run_number(state) + 1) * 0x94d049bb133111ebULL);
	else
		st = seed ^ ((uint64_t)getpid() << 24) ^ 0x5851f42d4c957f2dULL;
	for (i = 0; i < 3; i++)
		g[i] = 1 + v->host_noise * tk_rng_normal(&st);
}

/* ---- arguments -------------------------------------------------- */

/* The level of stressor kind K ("cpu": -1). */
static int level_of(const char *k)
{
	char name[16];
	int lvl;

	if (!strcmp(k, "cpu"))
		return -1;
	if (strncmp(k, "bw:", 3))
		tk_die("unknown stressor kind '%s'", k);
	snprintf(name, sizeof(name), "%s", k + 3);
	name[strcspn(name, ":")] = 0;
	lvl = level_from_name(name);
	if (lvl < 0 || lvl >= LVL_INTERCONNECT)
		tk_die("unknown stressor kind '%s'", k);
	return lvl;
}

/*
 * S's flows: its N threads on PUS, then its stressors on SPUS, of the
 * NK KINDS (one each, or one for all).
 */
static void place_flows(struct sim *s, const int *pus, const int *spus,
			char **kinds, int nk)
{
	const struct pandia_machine *m = s->m;
	int i, n = s->n, ns = s->nf - s->n;

	for (i = 0; i < s->nf; i++) {
		struct flow *f = &s->f[i];

		f->pu = i < n ? pus[i] : spus[i - n];
		f->core = m->pus[f->pu].core;
		f->socket = m->cores[f->core].socket;
		f->node = m->cores[f->core].numa;
		f->stress = i < n ? -1 : i - n;
		f->level = -1;
		if (i >= n) {
			const char *k = nk == ns ? kinds[i - n] :
				kinds[0];

			if (nk != ns && nk != 1 && strcmp(kinds[0],
							  kinds[nk - 1]))
				tk_die("cannot tell which of %d kinds runs "
				       "on which of %d PUs", nk, ns);
			f->level = level_of(k);
		} else {
			s->tsock[f->socket]++;
		}
	}
}

/*
 * Each stressor's bandwidth with the workload not running (into
 * ALONE), as a runner reports it on a line 'pandia-stress-alone'.
 */
static void alone_rates(struct sim *s, double *alone)
{
	int i, n = s->n;

	for (i = 0; i < s->nf; i++)
		s->f[i].active = i >= n;
	ms_solve(s);
	for (i = n; i < s->nf; i++)
		alone[i - n] = s->f[i].level < 0 ? 0 : s->f[i].x *
			s->m->links[s->f[i].level].per_core_bw;
}

/*
 * The time of W's N threads on PUS with NS stressors on SPUS of the
 * NK KINDS on M (noise-free); each bandwidth stressor's rate into
 * RATE and its rate alone into ALONE; the pages into MAPS unless
 * NULL.
 */
static double simulate(const struct pandia_machine *m, const struct wl *w,
		       const struct variant *v, const int *pus, int n,
		       const int *spus, int ns, char **kinds, int nk,
		       const char *maps, double *rate, double *alone)
{
	struct sim s;
	double time;

	memset(&s, 0, sizeof(s));
	s.m = m;
	s.w = w;
	s.v = v;
	s.n = n;
	s.nf = n + ns;
	s.f = xcalloc((size_t)s.nf, sizeof(*s.f));
	s.tsock = xcalloc((size_t)m->n_sockets, sizeof(double));
	place_flows(&s, pus, spus, kinds, nk);
	ms_number_resources(&s);
	s.share = xcalloc((size_t)(n * (m->n_numa + 1)), sizeof(double));
	ms_place_pages(&s);
	if (maps)
		ms_write_numa_maps(&s, maps);
	if (ns)
		alone_rates(&s, alone);
	time = ms_run(&s, rate);

	free(s.share);
	free(s.cap);
	free(s.use);
	free(s.d);
	free(s.f);
	free(s.tsock);
	return time;
}

/*
 * --cpus-file: one placement per line of PATH ("-": stdin), each
 * simulated alone and noise-free in this one process; prints "LIST
 * SECONDS" per line, in the file's order.  A search over every
 * placement of a large machine (scripts/tune-sim) would otherwise
 * start one process per placement.
 */
static int run_batch(const struct pandia_machine *m, const struct wl *w,
		     const struct variant *v, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, *kinds[1] = { (char *)"cpu" };
	size_t cap = 0;
	ssize_t len;
	int *pus, n;

	if (!f)
		tk_die("cannot open '%s'", path);
	while ((len = getline(&line, &cap, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' ||
				   line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len)
			continue;
		pus = tk_pus_of(m, line, &n);
		if (n < 1)
			tk_die("an empty placement in '%s'", path);
		printf("%s %.9f\n", line, simulate(m, w, v, pus, n, NULL, 0,
						   kinds, 1, NULL, NULL,
						   NULL));
		free(pus);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "cpus-file", required_argument, NULL, 'F' },
		{ "stress-cpus", required_argument, NULL, 's' },
		{ "stress-kind", required_argument, NULL, 'k' },
		{ "numa-maps", required_argument, NULL, 'M' },
		{ "noise", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "state", required_argument, NULL, 't' },
		{ "variant", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mfile = NULL, *wfile = NULL, *cpus = NULL, *maps = NULL;
	const char *scpus = NULL, *skind = NULL, *state = NULL;
	const char *vspec = NULL, *batch = NULL;
	double noise = 0, time, *rate, *alone, g[3] = { 1, 1, 1 };
	unsigned long long seed = 1;
	struct pandia_error err;
	struct pandia_machine *m;
	struct wl w;
	struct variant v;
	int *pus, n, *spus, ns, i, c, nk = 0;
	char *kinds[256], *copy, *tok, *sv;
	const char *why;

	while ((c = getopt_long(argc, argv, "m:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': mfile = optarg; break;
		case 'w': wfile = optarg; break;
		case 'c': cpus = optarg; break;
		case 'F': batch = optarg; break;
		case 's': scpus = optarg; break;
		case 'k': skind = optarg; break;
		case 'M': maps = optarg; break;
		case 'n': noise = atof(optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 't': state = optarg; break;
		case 'V': vspec = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!mfile || !wfile || !cpus == !batch) {
		fputs(usage, stderr);
		return 2;
	}
	if (batch && (scpus || skind || maps || noise || state))
		tk_die("--cpus-file simulates each placement alone and "
		       "noise-free: no --stress-cpus, --stress-kind, "
		       "--numa-maps, --noise or --state");
	m = machine_load(mfile, &err);
	if (!m)
		tk_die("%s", err.text);
	wl_load(wfile, &w);
	variant_parse(vspec, &v);
	if (batch) {
		c = run_batch(m, &w, &v, batch);
		machine_free(m);
		return c;
	}
	pus = tk_pus_of(m, cpus, &n);
	if (n < 1)
		tk_die("--cpus is empty");
	spus = tk_pus_of(m, scpus, &ns);
	copy = xstrdup(skind && strcmp(skind, "none") ? skind : "cpu");
	for (tok = strtok_r(copy, ",", &sv); tok && nk < 256;
	     tok = strtok_r(NULL, ",", &sv))
		kinds[nk++] = tok;

	rate = xcalloc((size_t)ns + 1, sizeof(double));
	alone = xcalloc((size_t)ns + 1, sizeof(double));
	if (maps && (!*maps || !strcmp(maps, "{numa_maps}")))
		maps = NULL;
	time = simulate(m, &w, &v, pus, n, spus, ns, kinds, nk, maps, rate,
			alone);
	if (tk_noisy_time(&time, noise, seed, state, &why) < 0)
		tk_die("cannot %s '%s'", why, state);
	drift_and_probes(&v, state, seed, &time, rate, ns);
	if (v.host_noise > 0)
		host_windows(&v, state, seed, g);
	for (i = 0; i < ns; i++) {
		if (level_of(nk == ns ? kinds[i] : kinds[0]) < 0)
			continue;
		printf("pandia-stress: %d %.6e\n"
		       "pandia-stress-alone: %d %.6e\n", i, rate[i] * g[1],
		       i, alone[i] * g[0]);
		if (v.host_noise > 0 && v.host_after)
			printf("pandia-stress-after: %d %.6e\n", i,
			       alone[i] * g[2]);
	}
	printf("time: %.9f\n", time);

	free(rate);
	free(alone);
	free(copy);
	free(pus);
	free(spus);
	machine_free(m);
	return fflush(stdout) == 0 ? 0 : 1;
}
