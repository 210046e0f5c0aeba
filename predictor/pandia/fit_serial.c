/*
 * fit_serial.c - where the serial work runs (model.serial_form;
 * docs/model.md, "Where the serial work runs"), told by run 8.
 *
 * Run 8 is run 5 with its co-runner beside the first thread instead of
 * the last.  Spread over the threads (the paper), the serial work is
 * slowed alike whichever thread the co-runner slows, and run 8 takes
 * run 5's time; on the first thread alone (a fork-join program's main
 * thread) it is slowed only in run 8, which is longer by about the
 * serial part's share of run 2 times the co-runner's slowdown.  Both
 * forms are fitted to runs 1 to 7, each reproducing them (l takes up
 * in one what the other puts in the serial work), and the one whose
 * fit predicts run 8 nearer (in ratio) is kept.  When the two
 * predictions differ by less than run 8's noise (pl->run8_noise, at
 * least 0.5%), the runs cannot tell; when run 8 lies beyond the
 * "first" prediction by more than half the two forms' distance and
 * twice its noise (a disturbed repetition, or another mechanism), it
 * is no evidence for it; nor is one repetition of run 8 (its noise
 * unknown).  In each case the paper's form stays, and its status says
 * so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/pandia/fit.h"

/* Run 8's relative noise below which the forms are not told apart. */
#define SERIAL_NOISE_MIN 0.005

/* Solution S's prediction of run 8 (seconds), NAN without run 4's
   co-runner factor. */
static double run8_time(const struct fit_plan *pl,
			const struct model_params *base, const double *t,
			const struct fit_solution *s)
{
	struct model_params q;

	if (!(s->corun >= 1))
		return NAN;
	fit_params_of(s, base, t[PR1], &q);
	return fit_model_time(pl, &q, PR8, s->corun, NULL, NULL);
}

void fit_solve(const struct fit_plan *pl,
	       const struct model_params *base, const double *t,
	       enum fit_mode mode, struct fit_solution *s)
{
	struct model_params b = *base;
	struct fit_solution f;
	double e_spread, e_first, apart, noise;
	char *why = NULL;

	if (mode != FIT_MODEL || !pl->serial_auto) {
		fit_solve_as(pl, base, t, mode, s);
		return;
	}
	b.serial_first = false;
	fit_solve_as(pl, &b, t, mode, s);
	if (!pl->made[PR8] || !(t[PR8] > 0)) {
		s->serial_status = xasprintf("not tested: %s",
					     pl->made[PR8] ?
					     "run 8 has no time" :
					     pl->why_not[PR8]);
		return;
	}
	s->t8_spread = run8_time(pl, &b, t, s);
	b.serial_first = true;
	fit_solve_as(pl, &b, t, mode, &f);
	s->t8_first = run8_time(pl, &b, t, &f);
	if (!(s->t8_spread > 0) || !(s->t8_first > 0)) {
		s->serial_status = xstrdup("not tested: l was not fitted "
					   "(runs 4 and 5)");
		fit_solution_release(&f);
		return;
	}
	s->have_serial_form = true;
	e_spread = fabs(log(s->t8_spread / t[PR8]));
	e_first = fabs(log(s->t8_first / t[PR8]));
	apart = fabs(log(s->t8_first / s->t8_spread));
	noise = fmax(pl->run8_noise, SERIAL_NOISE_MIN);
	if (apart < noise)
		why = xasprintf("run 8 cannot tell: the two forms predict it "
				"within %.2g%% of each other, inside the runs' "
				"noise (%.2g%%): the paper's (spread)",
				100 * apart, 100 * noise);
	else if (e_first < e_spread && pl->run8_reps < 2)
		why = xasprintf("run 8, made once, came out nearer the serial "
				"work on the first thread (%.4g s, %.4g s "
				"spread, %.4g s measured): one repetition is "
				"too little to leave the paper's form (spread)",
				s->t8_first, s->t8_spread, t[PR8]);
	else if (e_first < e_spread && e_first > fmax(apart / 2, 2 * noise))
		why = xasprintf("run 8 matches neither form: it took %.4g s, "
				"%.2g%% beyond the %.4g s of the serial work on "
				"the first thread (%.4g s spread), more than "
				"its noise allows: the paper's (spread)",
				t[PR8], 100 * e_first, s->t8_first,
				s->t8_spread);
	else if (e_first < e_spread) {
		/* the first thread's: its fit, with both predictions */
		f.have_serial_form = true;
		f.t8_spread = s->t8_spread;
		f.t8_first = s->t8_first;
		fit_solution_release(s);
		*s = f;
		return;
	}
	s->serial_status = why;
	fit_solution_release(&f);
}
