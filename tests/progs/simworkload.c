/*
 * simworkload.c - a simulated workload for profiling machines we do not
 * have: given a machine description, hidden true parameters (a
 * pandia-workload/1 file), a placement and co-run stressors, print
 * "time: SECONDS", the time the model (predictor/pandia/model.h) predicts for
 * them, times optional multiplicative noise.  Run it through
 * 'pandia profile --runner' (tests/cli/profile-sim.sh):
 *
 *   pandia profile -m M.json --time-from 'time: ([0-9.eE+-]+)' \
 *     --runner 'simworkload -m M.json -w HIDDEN.json --cpus {cpus} \
 *               --stress-cpus {stress_cpus} --stress-kind {stress_kind}'
 *
 * Co-runners, as 'pandia profile' reads runs 4 and 5
 * (docs/profiling.md, "Load balancing"):
 *   - a cpu stressor on a PU that runs workload threads leaves them
 *     1/F of the PU (F = --corun-pu, default 2: a fair share with one
 *     always-busy loop);
 *   - a cpu stressor on another PU of a core that runs workload threads
 *     leaves them 1/F of it (F = --corun-smt, default
 *     2 x peak_rate / smt_rate: the core's SMT rate shared evenly);
 *   both through model_corun(): the threads beside are slowed by F - 1
 *   more on their PU (the model's PU time, docs/model.md);
 *   - a cpu stressor on a core without workload threads does nothing;
 *   - a bandwidth stressor bw:LEVEL (one per PU) wants the level's
 *     per-core bandwidth; with the workload's threads (their demand at
 *     LEVEL times the model's speedup t1 / time, the load the model's
 *     utilisations give: bytes over the time the threads take, not
 *     every thread busy all along) they share the level's aggregate:
 *     when the sum T exceeds
 *     it, every one gets aggregate/T of what it wants, so the probes
 *     report per_core_bw x aggregate / T ("pandia-stress: I RATE" lines)
 *     and the workload's time grows by T / aggregate.
 * {stress_kind} names one kind per stressor spec, {stress_cpus} one PU
 * per stressor: one kind applies to every PU; as many kinds as PUs map
 * one to one; several kinds for fewer or more PUs are accepted only
 * when they are all the same.
 *
 * Noise: the time is multiplied by 1 + NOISE x N(0, 1), N drawn from a
 * generator seeded by --seed and, with --state FILE, a counter kept in
 * FILE (so that the repetitions of one profile differ, and the whole
 * profile is reproducible); without --state, by the clock and the pid.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/model.h"
#include "predictor/pandia/fit.h"
#include "predictor/space.h"
#include "tests/lib/rng.h"
#include "tests/lib/sim.h"

static const char usage[] =
"usage: simworkload -m MACHINE -w HIDDEN.json --cpus LIST\n"
"                   [--stress-cpus LIST|none] [--stress-kind KINDS|none]\n"
"                   [--noise SIGMA] [--seed N] [--state FILE]\n"
"                   [--corun-pu F] [--corun-smt F]\n"
"Print 'time: SECONDS', the model's time for HIDDEN's parameters at the\n"
"placement LIST with the co-run stressors given, times 1 + SIGMA x N(0,1).\n";

/* The kind of each of the N stressor PUs, from KINDS ("cpu,bw:dram"). */
static char **kinds_of(const char *kinds, int n)
{
	char **k = xcalloc((size_t)n + 1, sizeof(char *)), *copy, *tok, *sp;
	char *list[64];
	int nk = 0, i;

	if (!n)
		return k;
	copy = xstrdup(kinds ? kinds : "cpu");
	for (tok = strtok_r(copy, ",", &sp); tok && nk < 64;
	     tok = strtok_r(NULL, ",", &sp))
		list[nk++] = tok;
	if (!nk)
		tk_die("--stress-kind is empty");
	for (i = 0; i < n; i++) {
		if (nk == n)
			k[i] = xstrdup(list[i]);
		else if (nk == 1 || !strcmp(list[0], list[nk - 1]))
			k[i] = xstrdup(list[0]);
		else
			tk_die("cannot tell which of %d kinds runs on which "
			       "of %d PUs", nk, n);
	}
	free(copy);
	return k;
}

/*
 * The cpu co-runners among the NS stressors on SPUS: a thread with one
 * on its PU gets 1/FPU of it, one with one on another PU of its core
 * 1/FSMT of the core, both through model_corun().  Their RATE is NAN:
 * a cpu stressor reports none.
 */
static void cpu_coruns(struct model *md, const struct pandia_machine *m,
		       const int *pus, int n, const int *spus, char **kinds,
		       int ns, double fpu, double fsmt, double *rate)
{
	bool *on_pu = xcalloc((size_t)n, sizeof(bool));
	bool *on_core = xcalloc((size_t)n, sizeof(bool));
	int i, j;

	for (j = 0; j < ns; j++) {
		if (strcmp(kinds[j], "cpu"))
			continue;
		rate[j] = NAN;
		for (i = 0; i < n; i++) {
			if (pus[i] == spus[j])
				on_pu[i] = true;
			else if (m->pus[pus[i]].core == m->pus[spus[j]].core)
				on_core[i] = true;
		}
	}
	for (i = 0; i < n; i++)
		if (on_pu[i])
			on_core[i] = false;
	model_corun(md, on_pu, fpu > 1 ? fpu : 1);
	model_corun(md, on_core, fsmt > 1 ? fsmt : 1);
	free(on_pu);
	free(on_core);
}

/*
 * The bandwidth probes among the NS stressors share their level with
 * the workload's threads, SPEEDUP times one thread's demand: each
 * probe's RATE, and the factor by which the workload's time grows (1
 * when no level is over its aggregate).
 */
static double bw_coruns(const struct pandia_machine *m,
			const struct model_params *prm, double speedup,
			char **kinds, int ns, double *rate)
{
	double slow = 1;
	int i, j;

	for (j = 0; j < ns; j++) {
		int lvl;
		double want = 0, agg, per;
		char lname[16];

		if (strncmp(kinds[j], "bw:", 3))
			continue;
		snprintf(lname, sizeof(lname), "%s", kinds[j] + 3);
		lname[strcspn(lname, ":")] = 0;
		lvl = level_from_name(lname);
		if (lvl < 0 || lvl >= LVL_INTERCONNECT ||
		    !m->links[lvl].present)
			tk_die("unknown stressor kind '%s'", kinds[j]);
		per = m->links[lvl].per_core_bw;
		agg = m->links[lvl].aggregate_bw;
		for (i = 0; i < ns; i++)
			if (!strcmp(kinds[i], kinds[j]))
				want += per;
		want += speedup * prm->d[WR_L1 + lvl];
		rate[j] = want > agg ? per * agg / want : per;
		if (want / agg > slow)
			slow = want / agg;
	}
	return slow;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "stress-cpus", required_argument, NULL, 's' },
		{ "stress-kind", required_argument, NULL, 'k' },
		{ "noise", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "state", required_argument, NULL, 't' },
		{ "corun-pu", required_argument, NULL, 'P' },
		{ "corun-smt", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mfile = NULL, *wfile = NULL, *cpus = NULL;
	const char *scpus = NULL, *skind = NULL, *state = NULL;
	double noise = 0, fpu = 2, fsmt = NAN, time;
	unsigned long long seed = 1;
	struct pandia_error err;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	struct model_params prm = { 0 };
	struct space *sp;
	struct model md;
	int *pus, n, *spus, ns, *cnt, i, j, kmax = 1, c;
	char **kinds;
	double *rate;
	const char *why;

	models_install();
	while ((c = getopt_long(argc, argv, "m:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': mfile = optarg; break;
		case 'w': wfile = optarg; break;
		case 'c': cpus = optarg; break;
		case 's': scpus = optarg; break;
		case 'k': skind = optarg; break;
		case 'n': noise = atof(optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 't': state = optarg; break;
		case 'P': fpu = atof(optarg); break;
		case 'T': fsmt = atof(optarg); break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (!mfile || !wfile || !cpus) {
		fputs(usage, stderr);
		return 2;
	}
	m = machine_load(mfile, &err);
	if (!m)
		tk_die("%s", err.text);
	w = workload_load(wfile, &err);
	if (!w)
		tk_die("%s", err.text);
	model_params_of(w, &prm);
	if (isnan(fsmt))
		fsmt = m->smt_applicable && m->smt_rate > 0 ?
			2 * m->peak_rate / m->smt_rate : 1;

	pus = tk_pus_of(m, cpus, &n);
	if (n < 1)
		tk_die("--cpus is empty");
	spus = tk_pus_of(m, scpus, &ns);
	kinds = kinds_of(skind, ns);
	cnt = xcalloc((size_t)m->n_pus, sizeof(int));
	for (i = 0; i < n; i++)
		if (++cnt[pus[i]] > kmax)
			kmax = cnt[pus[i]];
	sp = space_new(m, kmax < 2 ? 2 : kmax > SPACE_MAX_K ? SPACE_MAX_K :
		       kmax, &mem, &err);
	if (!sp)
		tk_die("%s", err.text);
	model_init(&md, sp, &prm);
	model_build_pus(&md, pus, n);

	rate = xcalloc((size_t)ns + 1, sizeof(double));
	cpu_coruns(&md, m, pus, n, spus, kinds, ns, fpu, fsmt, rate);
	model_solve(&md);
	time = md.time;

	time *= bw_coruns(m, &prm, time > 0 ? prm.t1 / time : n, kinds, ns,
			  rate);

	if (tk_noisy_time(&time, noise, seed, state, &why) < 0)
		tk_die("cannot %s '%s'", why, state);
	for (j = 0; j < ns; j++)
		if (!isnan(rate[j]) && rate[j] > 0)
			printf("pandia-stress: %d %.6e\n", j, rate[j]);
	printf("time: %.9f\n", time);

	for (j = 0; j < ns; j++)
		free(kinds[j]);
	free(kinds);
	free(rate);
	free(cnt);
	free(pus);
	free(spus);
	model_release(&md);
	space_free(sp);
	workload_free(w);
	machine_free(m);
	return fflush(stdout) == 0 ? 0 : 1;
}
