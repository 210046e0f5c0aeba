/*
 * validate_output.c - pandia validate: what the rows gave, written to
 * -o DIR as they come (validate.json, validate.csv, a figure drawn by
 * gnuplot) and reported on stdout at the end.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/validate.h"
#include "common/jsonout.h"
#include "common/util.h"
#include "predictor/validate.h"
#include "profiler/run.h"

/* Write validate.json and validate.csv as they stand now. */
int validate_save_files(struct vctx *x, const struct vsummary *s)
{
	struct pandia_error err;
	json_t *root;
	char *text;
	int ret = 0;

	if (!x->o->dir)
		return 0;
	read_loadavg(x->info.load_now);
	x->info.elapsed = now_seconds() - x->t0;
	root = vset_to_json(&x->vs, s, &x->info);
	text = json_to_text(root);
	json_decref(root);
	if (write_file_in(x->o->dir, "validate.json", text, &err) < 0)
		ret = -1;
	free(text);
	text = vset_to_csv(&x->vs, s);
	if (ret == 0 && write_file_in(x->o->dir, "validate.csv", text, &err) < 0)
		ret = -1;
	free(text);
	if (ret < 0)
		perr_print(&err, stderr);
	return ret;
}

int validate_save_now(struct vctx *x)
{
	struct vsummary s;
	int ret;

	vset_summarise(&x->vs, x->w->runs, x->w->n_runs, &s);
	ret = validate_save_files(x, &s);
	vsummary_release(&s);
	return ret;
}

/*
 * The command for a title: the program's base name and its arguments,
 * at most about 60 characters.  New string.
 */
static char *command_title(char *const *argv)
{
	const char *prog;
	char *t, *u;
	int i;

	if (!argv || !argv[0])
		return xstrdup("validate");
	prog = strrchr(argv[0], '/');
	t = xstrdup(prog ? prog + 1 : argv[0]);
	for (i = 1; argv[i]; i++) {
		if (strlen(t) + strlen(argv[i]) > 60) {
			u = xasprintf("%s ...", t);
			free(t);
			return u;
		}
		u = xasprintf("%s %s", t, argv[i]);
		free(t);
		t = u;
	}
	return t;
}

/* validate.gp, and validate.png by gnuplot when there is one. */
void validate_draw(struct vctx *x, const struct vsummary *s)
{
	char *title, *script, *base;

	if (!x->o->dir)
		return;
	base = command_title(x->o->argv);
	if (s->have_metrics)
		title = xasprintf("%s on %s: median error %.1f%%, offset error "
				  "%.1f%%, best-placement gap %.1f%% (%d "
				  "placements, -r %d)", base,
				  x->m->host ? x->m->host : "?",
				  100 * s->mt.median_error,
				  100 * s->mt.offset_error,
				  100 * s->mt.best_gap, s->mt.n,
				  x->o->reps);
	else
		title = xstrdup(base);
	free(base);
	script = vset_gnuplot_script(&x->vs, s, "validate.png", title);
	free(title);
	if (!script) {
		warning("nothing measured: no "
			"figure drawn");
		return;
	}
	draw_figure(x->o->dir, "validate", script);
	free(script);
}

static void print_pct(double v)
{
	if (isfinite(v))
		printf("%6.1f%%", 100 * v);
	else
		printf("%7s", "-");
}

/* How many measured times fell inside the ranges stated, when any. */
static void print_in_range(const struct vset *vs, const struct vsummary *s)
{
	if (!s->range_rows)
		return;
	printf("in range          %d of %d measured (%.0f%%) inside the 90%% "
	       "range predicted", s->range_in, s->range_rows,
	       100.0 * s->range_in / s->range_rows);
	if (isfinite(s->range_width))
		printf(" (median +-%.2g%%)", 100 * s->range_width);
	if (isfinite(s->mt.best_gap) && s->mt.best != vs->pick)
		printf("; the best measured %s", s->best_tied ?
		       "was among the placements predicted to tie with the "
		       "pick" : "was not predicted to tie with the pick");
	putchar('\n');
}

/*
 * The host's speed in each round: a move between rounds is the host's,
 * since every placement ran once in each.
 */
static void print_rounds(const struct vsummary *s)
{
	int r;

	if (!s->n_rounds)
		return;
	printf("rounds            %d; the host's speed in each (a run over "
	       "its placement's median, the median of %d):", s->n_rounds,
	       s->round_rows);
	for (r = 0; r < s->n_rounds && r < 12; r++)
		printf("%s %.3f", r ? "," : "", s->round_level[r]);
	printf("%s; it moved %.1f%%\n", r < s->n_rounds ? ", ..." : "",
	       100 * s->round_move);
	if (s->round_move > 0.1)
		printf("                  more than 10%%: gaps between two "
		       "placements' times below that may be the host's, not "
		       "theirs\n");
}

/*
 * When the one-thread placement missed its range: how the other ranges
 * fare with that move taken out.  Where more fall inside, the host runs
 * the program at another speed than when it was profiled; where none
 * more do, the others did not move with it and the ranges are narrower
 * than the host's noise (vsummary's move_explains).
 */
static void print_host_move(const struct vset *vs, const struct vsummary *s)
{
	const struct vrow *one;

	if (s->move_row < 0)
		return;
	one = &vs->rows[s->move_row];
	printf("%-17s one thread on %s measured %.4g s, %.0f%% %s the "
	       "%.4g s predicted, outside its range (%.4g to %.4g s)\n",
	       s->move_explains ? "host moved" : "t1 missed", one->cpus,
	       one->measured, 100 * fabs(s->move - 1),
	       s->move < 1 ? "below" : "above", one->predicted, one->lo,
	       one->hi);
	if (s->move_explains) {
		printf("                  this host runs the program at "
		       "another speed than when it was profiled: with that "
		       "move taken out, %d of %d other placements measured "
		       "inside their range (%d without)\n", s->move_in,
		       s->move_rows, s->range_in);
		printf("                  profile again, or refit with pandia "
		       "tune, to predict for the host as it is now\n");
	} else if (s->move_rows) {
		printf("                  the others did not move with it: "
		       "%d of %d measured inside their range as stated, %d "
		       "with that move taken out\n", s->range_in,
		       s->move_rows, s->move_in);
		printf("                  the ranges are narrower than this "
		       "host's noise; profile with more repetitions (-r) or "
		       "at a quieter time\n");
	} else {
		printf("                  no other placement with a range was "
		       "measured to tell a move of the host from a range too "
		       "narrow\n");
	}
}

/*
 * The paper's best gap, and where the best is another placement,
 * whether the gap is beyond the noise of the two's runs.
 */
static void print_best_gap(const struct vset *vs, const struct vsummary *s)
{
	printf("best gap         ");
	if (!isfinite(s->mt.best_gap)) {
		printf(" - (pandia's pick was not measured)\n");
		return;
	}
	printf(" %.1f%%: pandia's pick %s measured %.4g s, the best "
	       "measured %s %.4g s", 100 * s->mt.best_gap,
	       vs->rows[vs->pick].cpus, vs->rows[vs->pick].measured,
	       vs->rows[s->mt.best].cpus, vs->rows[s->mt.best].measured);
	if (s->mt.best != vs->pick && isfinite(s->best_gap_noise))
		printf("; %s the noise of their runs (spread %.1f%%)",
		       s->mt.best_gap > s->best_gap_noise ? "beyond" :
		       "within", 100 * s->best_gap_noise);
	putchar('\n');
}

/*
 * The pick against the best of everything measured, the unpinned rows
 * (the OS scheduler) included, which the best gap above (the paper's,
 * over the pinned placements) leaves out; and, when a run that does not
 * pin beat the pick beyond the noise, that pinning did not win here.
 */
static void print_best_of_all(const struct vset *vs,
			      const struct vsummary *s)
{
	const struct vrow *b;

	if (s->best_all < 0 || !isfinite(s->best_gap_all))
		return;
	b = &vs->rows[s->best_all];
	printf("best of all       %.1f%%: pandia's pick against the best of "
	       "everything measured, ", 100 * s->best_gap_all);
	if (s->best_all == vs->pick)
		printf("the pick itself, %s", b->cpus);
	else if (b->names)
		printf("%s on %s", b->names, b->cpus);
	else
		printf("%s%s", b->cpus, b->pinned ? "" : " unpinned");
	printf(" %.4g s\n", b->measured);
	if (s->unpinned_beats_pick)
		printf("                  the OS scheduler beat pandia's pick "
		       "here: unpinned %s was %.1f%% faster, beyond the "
		       "noise of the two runs\n", b->cpus,
		       100 * (1 - b->measured /
			      vs->rows[vs->pick].measured));
}


void validate_print_report(const struct vctx *x, const struct vsummary *s)
{
	const struct vset *vs = &x->vs;
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;
	double best = s->have_metrics ? vs->rows[s->mt.best].measured : NAN;

	vset_figure_order(vs, order);
	printf("%4s %7s %5s %10s %10s %7s %7s  %-30s %s\n", "x", "threads",
	       "cores", "predicted", "measured", "error", "vs best", "role",
	       "cpus");
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];
		char role[256];

		snprintf(role, sizeof(role), "%s%s%s%s",
			 order[i] == vs->pick ? "pick" : "",
			 order[i] == vs->pick && rw->names ? "; " : "",
			 rw->names ? rw->names : "",
			 rw->roles & (VROLE_PACKED | VROLE_SPREAD) &&
			 !rw->names && order[i] != vs->pick ?
			 (rw->roles & VROLE_PACKED ? (rw->roles &
			  VROLE_SPREAD ? "sweep" : "sweep packed") :
			  "sweep spread") : "");
		printf("%4d %7d %5d %9.4gs ", rw->x, rw->n, rw->cores,
		       rw->predicted);
		if (rw->state == VROW_OK) {
			printf("%9.4gs ", rw->measured);
			print_pct(rw->pinned ? validate_error(rw->predicted,
				rw->measured) : NAN);
			putchar(' ');
			print_pct(validate_gap(rw->measured, best));
		} else {
			printf("%10s %7s %7s", rw->state == VROW_FAILED ?
			       "failed" : "not run", "", "");
		}
		printf("  %-30s %s%s\n", role, rw->cpus,
		       rw->pinned ? "" : " (unpinned)");
	}
	free(order);

	if (x->o->dry_run) {
		printf("\n%d placements (dry run: nothing was run)\n",
		       s->rows);
		return;
	}
	printf("\n%d placement%s measured", s->measured,
	       s->measured == 1 ? "" : "s");
	if (s->failed)
		printf(", %d FAILED", s->failed);
	if (s->pending)
		printf(", %d not run", s->pending);
	printf(" (-r %d)\n", x->o->reps);
	if (!s->have_metrics) {
		printf("no metrics: no pinned placement was measured\n");
		return;
	}
	printf("error             median %.1f%%, mean %.1f%%, max %.1f%% "
	       "(over %d pinned placements)\n", 100 * s->mt.median_error,
	       100 * s->mt.mean_error, 100 * s->mt.max_error, s->mt.n);
	printf("offset error      median %.1f%%, mean %.1f%% (offset %+.3f "
	       "of the best time added to every prediction)\n",
	       100 * s->mt.offset_error, 100 * s->mt.offset_error_mean,
	       s->mt.offset);
	print_best_gap(vs, s);
	print_best_of_all(vs, s);
	print_in_range(vs, s);
	print_host_move(vs, s);
	print_rounds(s);
	printf("rank correlation ");
	if (isfinite(s->mt.spearman))
		printf(" %.3f (Spearman, predicted vs measured)\n",
		       s->mt.spearman);
	else
		printf(" - (needs two placements of different times)\n");
	printf("\nwithout pandia (gap to the best measured; pick vs it)\n");
	for (i = 0; i < s->n_heur; i++) {
		const struct vheur *h = &s->heur[i];
		const struct vrow *rw = &vs->rows[h->row];

		printf("  %-36s %-14s ", h->name, rw->cpus);
		if (rw->state != VROW_OK) {
			printf("%s\n", rw->state == VROW_FAILED ? "failed" :
			       "not run");
			continue;
		}
		print_pct(h->gap);
		printf("   pick ");
		print_pct(h->pick_vs);
		printf("%s\n", h->pick_worse ? "  (pick slower)" : "");
	}
	if (s->sweep) {
		printf("\nsweep (1 to %d threads, packed and spread): %d "
		       "placements, %d measured\n", x->m->n_pus,
		       s->sweep_rows, s->sweep_measured);
		if (s->profile_pass > 0)
			printf("  one pass: %.3g s against %.3g s for one "
			       "pass of the profiling runs: %.2f times as "
			       "long\n", s->sweep_pass, s->profile_pass,
			       s->sweep_pass / s->profile_pass);
		else
			printf("  one pass: %.3g s (the workload records no "
			       "profiling runs to compare with)\n",
			       s->sweep_pass);
		if (s->sweep_best >= 0)
			printf("  its best: %s, %.4g s: %s (%+.1f%% vs the "
			       "best measured)\n",
			       vs->rows[s->sweep_best].cpus,
			       vs->rows[s->sweep_best].measured,
			       s->sweep_found ? "the best placement found" :
			       "not the best placement",
			       100 * s->sweep_gap);
	}
}
