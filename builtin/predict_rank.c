/*
 * predict_rank.c - pandia predict: every canonical placement ranked,
 * the range of each time from the parameters' uncertainties, the
 * defaults users get without pandia, and the lines that pin the one
 * chosen.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "builtin/stated.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/util.h"
#include "predictor/defaults.h"
#include "predictor/rank.h"
#include "predictor/space.h"

/* TIME against BEST in percent, never "-0.0". */
static double vs_best(double time, double best)
{
	double v = 100 * (time / best - 1);

	return fabs(v) < 0.05 ? 0 : v;
}

/* ---- the uncertainty of a prediction (predict.h) ----------------- */

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The demands' part of urange_init(): U->md[8..13]. */
static void urange_demands(struct urange *u, const struct ctx *x,
			   const struct space *sp)
{
	static const int res[3] = { WR_L3, WR_DRAM, WR_INTERCONNECT };
	int k, s;

	for (k = 0; k < 3; k++) {
		const struct wl_param *d = model_demand(x->w, res[k]);

		if (!d->known || wl_param_is_bound(d) ||
		    !isfinite(d->uncertainty) || !(d->uncertainty > 0) ||
		    !(x->prm.d[res[k]] > 0))
			continue;
		for (s = 0; s < 2; s++) {
			struct model_params prm = x->prm;
			double v = prm.d[res[k]] + (s ? 1 : -1) *
				d->uncertainty;

			prm.d[res[k]] = v > 0 ? v : 0;
			model_init(&u->md[8 + 2 * k + s], sp, &prm);
			u->have[8 + 2 * k + s] = true;
			u->on = true;
		}
	}
}

void urange_init(struct urange *u, const struct ctx *x,
		 const struct space *sp)
{
	const struct wl_param *t1 = model_param(x->w, "t1");
	const struct wl_param *q[4] = {
		model_param(x->w, "p"), model_param(x->w, "o_s"),
		model_param(x->w, "l"), model_param(x->w, "b")
	};
	const double hi[4] = { 1, 1e9, 1, 1e9 };
	int k, s;

	memset(u, 0, sizeof(*u));
	if (x->state)		/* another model: no parameters of ours */
		return;
	if (t1->known && isfinite(t1->uncertainty) && t1->value > 0) {
		u->t1_rel = t1->uncertainty / t1->value;
		u->on = u->t1_rel > 0;
	}
	for (k = 0; k < 4; k++) {
		if (!q[k]->known || !isfinite(q[k]->uncertainty) ||
		    !(q[k]->uncertainty > 0))
			continue;
		for (s = 0; s < 2; s++) {
			struct model_params prm = x->prm;
			double *v = k == 0 ? &prm.p : k == 1 ? &prm.o_s :
				k == 2 ? &prm.l : &prm.b;

			*v = clampd(*v + (s ? 1 : -1) * q[k]->uncertainty, 0,
				    hi[k]);
			model_init(&u->md[2 * k + s], sp, &prm);
			u->have[2 * k + s] = true;
			u->on = true;
		}
	}
	urange_demands(u, x, sp);
}

void urange_release(struct urange *u)
{
	int i;

	for (i = 0; i < URANGE_N; i++)
		if (u->have[i])
			model_release(&u->md[i]);
}

void urange_of(struct urange *u, const int *pus, int n, double t, bool t1,
	       double *lo, double *hi)
{
	double up = 0, down = 0;
	int k, s;

	*lo = *hi = t;
	if (!u->on)
		return;
	for (k = 0; k < URANGE_N / 2; k++) {
		double dup = 0, ddown = 0;

		for (s = 0; s < 2; s++) {
			double d;

			if (!u->have[2 * k + s])
				continue;
			d = model_time_pus(&u->md[2 * k + s], pus, n) - t;
			if (d > dup)
				dup = d;
			if (-d > ddown)
				ddown = -d;
		}
		up += dup * dup;
		down += ddown * ddown;
	}
	if (t1) {
		up += (t * u->t1_rel) * (t * u->t1_rel);
		down += (t * u->t1_rel) * (t * u->t1_rel);
	}
	*hi = t + sqrt(up);
	*lo = t - sqrt(down);
	if (*lo < 0)
		*lo = 0;
}

void vset_stated_ranges(struct vset *vs, struct pandia_machine *m,
			struct pandia_workload *w,
			const struct model_def *model,
			const struct pandia_mempolicy *mem, void *state)
{
	struct cli o;
	struct ctx x;
	struct urange u;
	int i;

	ctx_borrow(&x, &o, m, w, model, mem,
		   model->model_section ? NULL : state);
	urange_init(&u, &x, vs->sp);
	for (i = 0; u.on && i < vs->n_rows; i++) {
		struct vrow *rw = &vs->rows[i];

		if (!rw->pinned || !(rw->predicted > 0))
			continue;
		urange_of(&u, rw->pus, rw->n, rw->predicted, true, &rw->lo,
			  &rw->hi);
		urange_of(&u, rw->pus, rw->n, rw->predicted, false,
			  &rw->tie_lo, &rw->tie_hi);
	}
	urange_release(&u);
}

/* ---- ranking ---------------------------------------------------- */

/* Entry i of the ranking, with the ranking's own prediction. */
static void canonical_info(const struct ctx *x, const struct ranking *r,
			   size_t i, struct placement_info *pi)
{
	const struct rank_entry *e = &r->e[i];

	memset(pi, 0, sizeof(*pi));
	pi->n = space_pus(r->sp, rank_state(r, i), &pi->pus);
	pi->os = os_of(x->m, pi->pus, pi->n);
	pi->list = cpulist_format_compact(pi->os, pi->n);
	pi->cores = e->cores;
	pi->sockets = e->sockets;
	pi->time = e->time;
	pi->speedup = e->speedup;
	pi->bottleneck = bottleneck_name(e->bott);
}

/* "0-17,36-53" or "0-35 (PUs shared)".  New string. */
static char *set_text(const struct placement_info *pi)
{
	char *set = cpuset_format(pi->os, pi->n), *out;
	int *sorted = xcalloc((size_t)pi->n + 1, sizeof(int)), i, j;

	memcpy(sorted, pi->os, sizeof(int) * (size_t)pi->n);
	for (i = 1; i < pi->n; i++) {
		int v = sorted[i];

		for (j = i; j > 0 && sorted[j - 1] > v; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = v;
	}
	out = xasprintf("%s%s", set, distinct(sorted, pi->n) < pi->n ?
			" (PUs shared)" : "");
	free(sorted);
	free(set);
	return out;
}

/* The ranking and what do_rank() works out of it to show. */
struct ranked {
	struct space *sp;
	struct ranking r;
	struct model md;	/* predicts the defaults */
	size_t bi;		/* the best's entry */
	struct placement_info best, within, defs[DEF_COUNT];
	char def_names[DEF_COUNT][64];
	int n_def;
	struct pins pins;	/* of the placement chosen */
	size_t *idx, ntop;	/* the entries shown */
	char cnt[64];		/* the canonical placements */
	/* each time's range, and the placements tied with the best */
	struct urange ur;
	double *lo, *hi, best_lo, best_hi;
	bool *tie;
	int ties, tie_threads;
	int equal;		/* shown, predicted as fast as the best */
	/* what the runs could not tell apart: each shown time's
	   difference under the competing explanation, its time */
	struct ambig amb;
	double *adiff, *alt, best_adiff, best_alt;
	const char **awhich, *best_which;
	int n_depend;
};

/*
 * What users get without pandia: the whole machine unpinned, and
 * OMP_PROC_BIND close and spread at the thread count asked or picked.
 */
static void rank_defaults(const struct ctx *x, struct ranked *k)
{
	int nt = x->o->threads ? x->o->threads : k->best.n;
	enum default_kind d;

	k->n_def = 0;
	for (d = DEF_UNPINNED; d < DEF_COUNT; d++) {
		int n = d == DEF_UNPINNED ? x->m->n_pus : nt;
		int *pus = xcalloc((size_t)n + 1, sizeof(int));

		defaults_placement(x->m, d, n, pus);
		defaults_name(d, n, x->m->n_pus, k->def_names[k->n_def],
			      sizeof(k->def_names[k->n_def]));
		predict_pus(x, &k->md, pus, n, &k->defs[k->n_def++]);
	}
}

/* Each shown time's range, and which of them tie with the best. */
static void rank_ranges(const struct ctx *x, struct ranked *k)
{
	const struct ranking *r = &k->r;
	double bhi;
	size_t i;

	k->lo = xcalloc(k->ntop + 1, sizeof(double));
	k->hi = xcalloc(k->ntop + 1, sizeof(double));
	k->tie = xcalloc(k->ntop + 1, sizeof(bool));
	k->adiff = xcalloc(k->ntop + 1, sizeof(double));
	k->alt = xcalloc(k->ntop + 1, sizeof(double));
	k->awhich = xcalloc(k->ntop + 1, sizeof(char *));
	ambig_init(&k->amb, x, k->sp);
	k->best_adiff = ambig_of(&k->amb, k->best.pus, k->best.n,
				 k->best.time, &k->best_alt, &k->best_which);
	urange_init(&k->ur, x, k->sp);
	urange_of(&k->ur, k->best.pus, k->best.n, k->best.time, false,
		  &k->best_lo, &k->best_hi);
	bhi = k->best_hi;
	urange_of(&k->ur, k->best.pus, k->best.n, k->best.time, true,
		  &k->best_lo, &k->best_hi);
	for (i = 0; i < k->ntop; i++) {
		const struct rank_entry *e = &r->e[k->idx[i]];
		int *pus, n = space_pus(k->sp, rank_state(r, k->idx[i]), &pus);
		double rlo, rhi;
		bool eq;

		urange_of(&k->ur, pus, n, e->time, false, &rlo, &rhi);
		urange_of(&k->ur, pus, n, e->time, true, &k->lo[i], &k->hi[i]);
		k->adiff[i] = ambig_of(&k->amb, pus, n, e->time, &k->alt[i],
				       &k->awhich[i]);
		k->n_depend += ambig_depends(k->adiff[i]);
		free(pus);
		/* equal times are equal, not uncertain */
		eq = rank_equal_times(e->time, r->e[k->bi].time);
		k->tie[i] = k->idx[i] != k->bi && k->ur.on && rlo <= bhi &&
			!eq;
		k->equal += k->idx[i] != k->bi && eq;
		if (k->tie[i]) {
			k->ties++;
			if (e->threads != k->best.n)
				k->tie_threads = e->threads;
		}
	}
}

/* Shown entry i as JSON. */
static json_t *entry_json(const struct ctx *x, const struct ranked *k,
			  size_t i)
{
	const struct rank_entry *e = &k->r.e[k->idx[i]];
	int *pus, n = space_pus(k->sp, rank_state(&k->r, k->idx[i]), &pus);
	int *os = os_of(x->m, pus, n);
	json_t *o = json_object();

	json_object_set_new(o, "rank", json_integer((json_int_t)i + 1));
	json_set_cpus(o, os, n);
	json_object_set_new(o, "threads", json_integer(e->threads));
	json_object_set_new(o, "cores", json_integer(e->cores));
	json_object_set_new(o, "sockets", json_integer(e->sockets));
	json_object_set_new(o, "time", json_real(e->time));
	json_object_set_new(o, "time_low", json_real(k->lo[i]));
	json_object_set_new(o, "time_high", json_real(k->hi[i]));
	json_object_set_new(o, "tie", json_boolean(k->tie[i]));
	json_object_set_new(o, "speedup", json_real(e->speedup));
	json_object_set_new(o, "bottleneck", json_string(
		bottleneck_name(e->bott)));
	if (k->amb.n) {
		bool dep = ambig_depends(k->adiff[i]);

		json_object_set_new(o, "ambiguous", json_boolean(dep));
		if (dep) {
			json_object_set_new(o, "alternative_time",
					    json_real(k->alt[i]));
			json_object_set_new(o, "ambiguity",
					    json_string(k->awhich[i]));
		}
	}
	free(os);
	free(pus);
	return o;
}

/*
 * The ranking, the best, within, the defaults and the runs tune
 * measured (TUNED, taken over) as JSON on stdout.
 */
static void rank_json(const struct ctx *x, const struct ranked *k,
		      json_t *tuned)
{
	const struct ranking *r = &k->r;
	json_t *root = json_object(), *a = json_array(), *o;
	char mem[32];
	size_t i;
	int d;

	json_object_set_new(root, "schema", json_string("pandia-predict/1"));
	json_object_set_new(root, "machine", json_string(x->o->machine_path));
	json_object_set_new(root, "workload",
			    json_string(x->o->workload_path));
	json_object_set_new(root, "model", json_string(x->o->model->name));
	json_object_set_new(root, "size", size_json(x));
	json_object_set_new(root, "memory", json_string(
		mempolicy_format(&x->mem, mem, sizeof(mem))));
	json_object_set_new(root, "oversubscribe", json_integer(x->o->k));
	json_object_set_new(root, "canonical_placements",
			    r->full.overflow || r->full.n >
			    (unsigned __int128)1 << 62 ?
			    json_string(k->cnt) :
			    json_integer((json_int_t)r->full.n));
	json_object_set_new(root, "ranked", json_integer((json_int_t)r->n));
	json_object_set_new(root, "reduced", r->max_layouts ?
			    json_integer(r->max_layouts) : json_false());
	json_object_set_new(root, "seconds", json_real(r->seconds));
	for (i = 0; i < k->ntop; i++)
		json_array_append_new(a, entry_json(x, k, i));
	json_object_set_new(root, "placements", a);
	o = info_json(&k->best);
	json_object_set_new(o, "time_low", json_real(k->best_lo));
	json_object_set_new(o, "time_high", json_real(k->best_hi));
	json_object_set_new(root, "best", o);
	json_object_set_new(root, "ties", json_integer(k->ties));
	if (k->amb.n)
		json_object_set_new(root, "ambiguous_placements",
				    json_integer(k->n_depend));
	json_object_set_new(root, "uncertain", json_boolean(
		k->tie_threads != 0));
	o = info_json(&k->within);
	json_object_set_new(o, "within_percent", json_real(x->o->within));
	json_object_set_new(root, "within", o);
	a = json_array();
	for (d = 0; d < k->n_def; d++) {
		o = info_json(&k->defs[d]);
		json_object_set_new(o, "name", json_string(k->def_names[d]));
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "defaults", a);
	json_object_set_new(root, "chosen", json_string(
		x->o->within_given ? "within" : "best"));
	json_object_set_new(root, "pin", pins_json(&k->pins));
	json_object_set_new(root, "tuned", tuned);
	json_print(root);
	json_decref(root);
}

/* The header lines and the table of the placements shown. */
static void print_table(const struct ctx *x, const struct ranked *k)
{
	const struct ranking *r = &k->r;
	size_t i;

	print_header(x);
	printf("placements %s canonical", k->cnt);
	if (x->o->k > 1)
		printf(" (up to %d threads per PU)", x->o->k);
	printf("; %zu ranked in %.3f s", r->n, r->seconds);
	if (r->max_layouts)
		printf(" (reduced space: the used sockets of a kind "
		       "in at most %d layout%s)", r->max_layouts,
		       r->max_layouts == 1 ? "" : "s");
	if (x->o->threads)
		printf(", %d thread%s only", x->o->threads,
		       x->o->threads == 1 ? "" : "s");
	printf("\n");
	if (k->sp->symmetry_note)
		printf("symmetry  %s\n", k->sp->symmetry_note);
	printf("\n%4s %7s %5s %7s %10s %-17s %8s  %-18s %s\n",
	       "rank", "threads", "cores", "sockets", "time (s)",
	       k->ur.on ? " range (s)" : "", "speedup", "bottleneck",
	       "cpus");
	for (i = 0; i < k->ntop; i++) {
		const struct rank_entry *e = &r->e[k->idx[i]];
		int *pus, n = space_pus(k->sp, rank_state(r, k->idx[i]), &pus);
		int *os = os_of(x->m, pus, n);
		char *set = cpuset_format(os, n);
		char range[48] = "";

		if (k->ur.on)
			snprintf(range, sizeof(range), " %#.4g-%#.4g%s",
				 k->lo[i], k->hi[i], k->tie[i] ? " =" : "");
		printf("%4zu %7d %5d %7d %#10.4g %-17s %#8.4g  %-18s "
		       "%s%s%s\n", i + 1, e->threads, e->cores,
		       e->sockets, e->time, range, e->speedup,
		       bottleneck_name(e->bott), set,
		       distinct(os, n) < n ? " (PUs shared)" : "",
		       ambig_depends(k->adiff[i]) ? " ~" : "");
		free(set);
		free(os);
		free(pus);
	}
}

/* The ambiguities the placements shown depend on (~ in the table). */
static void print_ambig(const struct ranked *k)
{
	int i;

	for (i = 0; i < k->amb.n; i++)
		printf("ambiguity   the runs do not tell %s apart: %d of "
		       "the %zu placements shown (~) are predicted more "
		       "than 5%% apart by the other explanation%s\n",
		       k->amb.between[i], k->n_depend, k->ntop,
		       i ? "" : "; a profile with check runs (not "
		       "--no-check) may settle it");
	if (k->amb.n && ambig_depends(k->best_adiff))
		printf("            the best depends on it: %#.4g s by the "
		       "other explanation (%s)\n", k->best_alt,
		       k->best_which);
}

/* The best placement, its range and ties, and the one within. */
static void print_best(const struct ctx *x, const struct ranked *k)
{
	const struct placement_info *best = &k->best, *within = &k->within;
	char *bs = set_text(best), *ws = set_text(within);

	printf("\nbest        %d thread%s on %s: %#.4g s, "
	       "speedup %#.4g\n", best->n, plural(best->n), bs,
	       best->time, best->speedup);
	if (k->ur.on && k->ties)
		printf("            %#.4g to %#.4g s from the "
		       "parameters' uncertainty; %d of the "
		       "placements shown tie%s with it (=: "
		       "their ranges overlap)\n", k->best_lo,
		       k->best_hi, k->ties, k->ties == 1 ? "s" : "");
	else if (k->ur.on && k->equal)
		printf("            %#.4g to %#.4g s from the "
		       "parameters' uncertainty; %d placement%s shown "
		       "predicted equal to it, no slower one's range "
		       "reaching it\n",
		       k->best_lo, k->best_hi, k->equal, plural(k->equal));
	else if (k->ur.on)
		printf("            %#.4g to %#.4g s from the "
		       "parameters' uncertainty; no other "
		       "placement shown ties with it\n", k->best_lo,
		       k->best_hi);
	else if (x->o->model && !x->o->model->model_section)
		printf("            no range: the %s model states no "
		       "uncertainty for its predictions\n",
		       x->o->model->name);
	else
		printf("            no range: the description "
		       "gives its parameters no uncertainty "
		       "(a profile of one repetition per "
		       "run, as --quick makes, cannot tell "
		       "how much the runs spread)\n");
	if (k->tie_threads)
		printf("            the parameters are too "
		       "uncertain to choose the thread "
		       "count: %d thread%s tie%s with %d; "
		       "profile with more repetitions (-r) "
		       "or on a quieter host\n",
		       k->tie_threads, plural(k->tie_threads),
		       k->tie_threads == 1 ? "s" : "", best->n);
	print_ambig(k);
	if (x->m->limits.cpu_quota > 0 &&
	    x->m->limits.cpu_quota < x->m->n_pus)
		printf("            a CPU quota of %g PUs' time per second "
		       "(%s): more threads than that share it and run no "
		       "faster (bottleneck \"cpu quota\"), so the fewest "
		       "that reach it rank first\n", x->m->limits.cpu_quota,
		       x->m->limits.source ? x->m->limits.source :
		       "the machine");
	printf("within %g%%  %d thread%s on %d core%s, %s: "
	       "%#.4g s, %+.1f%% vs best\n", x->o->within,
	       within->n, plural(within->n), within->cores,
	       plural(within->cores), ws, within->time,
	       vs_best(within->time, best->time));
	free(bs);
	free(ws);
}

/* The ranking as text on stdout; MD predicts the runs tune measured. */
static void rank_print(const struct ctx *x, const struct ranked *k,
		       struct model *md)
{
	int d;

	print_table(x, k);
	print_best(x, k);
	printf("\nwithout pandia\n");
	for (d = 0; d < k->n_def; d++) {
		const struct placement_info *def = &k->defs[d];
		char *ds = set_text(def);

		printf("  %-32s %3d thread%s: %#10.4g s, speedup "
		       "%#7.4g (%+.1f%% vs best)  %s\n", k->def_names[d],
		       def->n, plural(def->n), def->time, def->speedup,
		       vs_best(def->time, k->best.time), ds);
		free(ds);
	}
	tuned_print(x, md);
	printf("\nto run the %s placement:\n", x->o->within_given ?
	       "cheapest-within" : "best");
	pins_print(&k->pins);
}

int do_rank(struct ctx *x)
{
	struct pandia_error err;
	struct rank_opts ro = { x->o->threads, x->o->max_placements,
				x->o->jobs, x->o->model, x->state,
				x->o->size };
	struct ranked k;
	size_t ntop;
	int d;

	memset(&k, 0, sizeof(k));
	k.sp = space_new(x->m, x->o->k, &x->mem, &err);
	if (!k.sp) {
		perr_print(&err, stderr);
		return 1;
	}
	if (rank_all(k.sp, &x->prm, &ro, &k.r, &err) < 0) {
		perr_print(&err, stderr);
		space_free(k.sp);
		return 1;
	}
	if (k.r.warning)
		warning("%s", k.r.warning);
	model_init(&k.md, k.sp, &x->prm);
	k.bi = rank_best(&k.r);
	canonical_info(x, &k.r, k.bi, &k.best);
	canonical_info(x, &k.r, rank_within(&k.r, x->o->within), &k.within);
	rank_defaults(x, &k);
	pins_make(x, x->o->within_given ? &k.within : &k.best, &k.pins);
	/* room for what will be shown, not for what was asked */
	ntop = x->o->top > 0 && (size_t)x->o->top < k.r.n ?
		(size_t)x->o->top : k.r.n;
	k.idx = xcalloc(ntop + 1, sizeof(*k.idx));
	k.ntop = rank_top(&k.r, ntop, k.idx);
	space_count_format(k.r.full, k.cnt, sizeof(k.cnt));
	rank_ranges(x, &k);
	if (x->o->json)
		rank_json(x, &k, tuned_json(x, &k.md));
	else
		rank_print(x, &k, &k.md);
	urange_release(&k.ur);
	ambig_release(&k.amb);
	free(k.adiff);
	free(k.alt);
	free(k.awhich);
	free(k.lo);
	free(k.hi);
	free(k.tie);
	free(k.idx);
	pins_release(&k.pins);
	info_release(&k.best);
	info_release(&k.within);
	for (d = 0; d < k.n_def; d++)
		info_release(&k.defs[d]);
	model_release(&k.md);
	rank_release(&k.r);
	space_free(k.sp);
	return 0;
}
