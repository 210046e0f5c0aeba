/*
 * profile_checks.c - what the description rests on, checked: whether
 * the command honoured the thread count, how much the repetitions
 * spread, and parameters too uncertain (or measured too disturbed) to
 * rank placements with, which fail the profile rather than guess.
 */
#include "profiler/profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"
#include "profiler/probe.h"
#include "profiler/profile_internal.h"

void prof_check_threads(struct prof *P, const struct prun *R1,
			       const struct prun *R2)
{
	double r2 = median_known(R2->times, R2->n_times) /
		    median_known(R1->times, R1->n_times);

	if (R2->unpinned) {
		/* its threads seen in /proc only: the checks below count
		   them, not the library's (none, where they are its) */
		char *u = run_unpinned_text(R2->unpinned, R2->unpinned_name);

		prof_warn(P->res, "run 2: %s ran %s, not one by one", u,
			  R2->unpinned_narrow ? "where the program that "
			  "started them was pinned" : "on each run's PUs as a "
			  "set (as --pin set does)");
		free(u);
	}
	if (R2->threads_created == 0 && R2->processes <= 1 && !R2->unpinned)
		prof_warn(P->res, "run 2 asked the command for %d threads but "
			  "it created none: put {threads} in its arguments or "
			  "make it honour OMP_NUM_THREADS (pandia sets both, "
			  "and PANDIA_THREADS)", R2->n_cpus);
	else if (R2->threads_created == 0 && !R2->unpinned && R2->count_cpu &&
		 R2->cpu_wall > 0 && R2->cpu < 1.15 * R2->cpu_wall &&
		 r2 > 0.9)
		/* processes alive at once, but run one after the other */
		prof_warn(P->res, "run 2 asked the command for %d threads; it "
			  "created none, and its %d processes kept %.2f PUs "
			  "busy and took %.0f%% of the time of run 1: the "
			  "command may ignore the thread count; put {threads} "
			  "in its arguments or make it honour OMP_NUM_THREADS",
			  R2->n_cpus, R2->processes, R2->cpu / R2->cpu_wall,
			  100 * r2);
	else if (R2->threads_created >= 0 &&
		 (R2->most_workers <= 1 || !(R2->busiest[0] >= RUN_BUSY_SHARE *
			median_known(R2->times, R2->n_times))))
		/* the accounting saw it: one busy thread at a time, or none */
		prof_warn(P->res, "run 2 asked the command for %d threads; of "
			  "the %d it ran, %s was busy (%.3g s of CPU; the next "
			  "busiest %.3g s) and it took %.0f%% of the time of "
			  "run 1: the command may ignore the thread count; put "
			  "{threads} in its arguments or make it honour "
			  "OMP_NUM_THREADS", R2->n_cpus, R2->threads,
			  R2->most_workers <= 1 ? "one at a time" : "none",
			  R2->busiest[0], R2->busiest[1], 100 * r2);
	else if (R2->threads_created < 0 && r2 > 0.9)
		prof_warn(P->res, "run 2 (%d threads) took %.0f%% of the time "
			  "of run 1 (one thread): the command may ignore the "
			  "thread count; put {threads} in its arguments or "
			  "make it honour OMP_NUM_THREADS", R2->n_cpus,
			  100 * r2);
}

void prof_check_spread(struct prof *P)
{
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double mdn = median_known(R->times, R->n_times);
		double sp = 2 * half_range_of(R->times, R->n_times) / mdn;

		if (R->disturbed)
			prof_warn(P->res, "%s: %d of its %d repetitions ran "
				  "while other processes took up to %.0f%% of "
				  "its PUs' time (%d made again already): its "
				  "time may be theirs as much as the "
				  "command's; profile on a quieter machine",
				  R->id, R->disturbed, R->n_times,
				  100 * R->foreign, R->redone);
		else if (sp > 0.2)
			prof_warn(P->res, "%s: its repetitions spread %.0f%% "
				  "of their median: the machine may be busy; "
				  "more repetitions (-r) help", R->id,
				  100 * sp);
	}
}

/* The run of P with the largest spread among those named in SOURCE. */
static const struct prun *worst_run(struct prof *P, const char *source)
{
	const struct prun *worst = NULL;
	double wsp = -1;
	int i;

	for (i = 0; i < P->n_runs; i++) {
		const struct prun *R = &P->runs[i];
		double sp;

		if (!source || !strstr(source, R->id) || R->n_times < 1)
			continue;
		sp = R->n_times > 1 ? 2 * half_range_of(R->times,
			R->n_times) / median_known(R->times, R->n_times) : 0;
		sp += R->worst.share;
		if (sp > wsp) {
			wsp = sp;
			worst = R;
		}
	}
	return worst;
}

/*
 * Refuse rather than guess: a parameter the model checks (fit_checks:
 * the Pandia model's p, l and t1) whose uncertainty is too large to
 * rank placements with fails the profile,
 * naming the run behind it, how disturbed it was and what to do.
 * Returns 0, or -1 with err.
 */
int prof_unreliable(struct prof *P, const struct model_def *model,
		    const struct model_env *env,
		    const struct pandia_workload *w,
		    struct pandia_error *err)
{
	struct model_check checks[MODEL_MAX_CHECKS];
	const struct prun *R;
	char times[256], dist[192];
	int i, k, len, n;

	n = model->fit_checks ? model->fit_checks(env, w, checks) : 0;
	for (k = 0; k < n; k++) {
		const struct wl_param *q = checks[k].param;
		const char *kept = checks[k].kept;
		const double tested = checks[k].unc ? *checks[k].unc :
			q->uncertainty;
		double u = tested;
		bool ranked = !kept;

		if (!q->known)
			continue;
		/* a repetition kept although disturbed: its time is
		   the others' as much as the command's */
		for (i = 0; i < P->n_runs; i++) {
			R = &P->runs[i];
			if (!R->disturbed || !q->source ||
			    !strstr(q->source, R->id))
				continue;
			probe_disturbance_text(&R->worst, dist, sizeof(dist));
			if (!ranked) {
				prof_warn(P->res, "%s = %.3g: %d of the %d "
					  "repetitions of %s ran disturbed "
					  "(%s): %s", checks[k].name, q->value,
					  R->disturbed, R->n_times, R->id, dist,
					  kept);
				u = NAN;	/* said once */
				break;
			}
			return perr_set(err, "%s = %.3g is not reliable: %d of "
					"the %d repetitions of %s (%s) ran "
					"disturbed (%s) and the budget of %g x "
					"t1 left none to make again; profile "
					"again at a quieter time, with a larger "
					"--budget, at a higher priority (--nice "
					"-5), or with the other tenants kept off "
					"the PUs it uses (taskset); "
					"--keep-unreliable writes it anyway, "
					"marked", checks[k].name, q->value,
					R->disturbed, R->n_times, R->id,
					R->purpose, dist, P->o->budget);
		}
		if (!isfinite(u))
			continue;
		if (checks[k].relative)
			u /= q->value;
		if (!(u > checks[k].max))
			continue;
		if (!ranked) {
			prof_warn(P->res, "%s = %.3g +- %.2g (the "
				  "repetitions' spread) is uncertain "
				  "(more than %g): %s", checks[k].name,
				  q->value, u, checks[k].max, kept);
			continue;
		}
		R = worst_run(P, q->source);
		times[0] = '\0';
		for (i = 0, len = 0; R && i < R->n_times && len < 200; i++)
			len += snprintf(times + len, sizeof(times) -
					(size_t)len, "%s%.3g", i ? ", " : "",
					R->times[i]);
		probe_disturbance_text(R ? &R->worst : &(struct
				       probe_disturbance){ 0, 0, 0, 0 },
				       dist, sizeof(dist));
		return perr_set(err, "%s = %.3g +- %.2g (the repetitions' "
				"spread) is too uncertain to "
				"rank placements with (more than %g%s): %s "
				"(%s) took %s s%s%s; profile again at a quieter "
				"time, with more repetitions (-r %d), at a "
				"higher priority (--nice -5), or with the "
				"other tenants kept off the PUs it uses "
				"(taskset); --keep-unreliable writes it "
				"anyway, marked", checks[k].name, q->value,
				tested, checks[k].max,
				checks[k].relative ? " of itself" : "",
				R ? R->id : "a run", R ? R->purpose : "?",
				times, R && R->worst.share > 0.01 ?
				"; at worst " : "", R && R->worst.share >
				0.01 ? dist : "", P->o->repetitions + 2);
	}
	return 0;
}
