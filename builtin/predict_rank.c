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


/* ---- the uncertainty of a prediction ----------------------------- */

/*
 * A placement's time range from the parameters' uncertainties (their
 * "+-" in the workload description): p, o_s, l and b each moved by its
 * uncertainty down and up alone, the placement predicted again, the
 * changes each way added in quadrature, and t1's relative uncertainty
 * (which moves every time alike) added the same way.  docs/model.md,
 * "The uncertainty of a prediction".
 */
#define URANGE_N 8

struct urange {
	bool on;		/* some parameter states an uncertainty */
	bool have[URANGE_N];
	struct model md[URANGE_N];	/* p-, p+, o_s-, o_s+, l-, l+, b-, b+ */
	double t1_rel;
};

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void urange_init(struct urange *u, const struct ctx *x,
			const struct space *sp)
{
	const struct wl_param *q[4] = { &x->w->p, &x->w->o_s, &x->w->l,
					&x->w->b };
	const double hi[4] = { 1, 1e9, 1, 1e9 };
	int k, s;

	memset(u, 0, sizeof(*u));
	if (x->state)		/* another model: no parameters of ours */
		return;
	if (x->w->t1.known && isfinite(x->w->t1.uncertainty) &&
	    x->w->t1.value > 0) {
		u->t1_rel = x->w->t1.uncertainty / x->w->t1.value;
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
}

static void urange_release(struct urange *u)
{
	int i;

	for (i = 0; i < URANGE_N; i++)
		if (u->have[i])
			model_release(&u->md[i]);
}

/*
 * The range [*lo, *hi] of placement PUS (m->pus indexes) of time T;
 * with T1 false, without t1's part, which moves every placement alike
 * and so never changes their order (ties are decided without it).
 */
static void urange_of(struct urange *u, const int *pus, int n, double t,
		      bool t1, double *lo, double *hi)
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

int do_rank(struct ctx *x)
{
	struct pandia_error err;
	struct rank_opts ro = { x->o->threads, x->o->max_placements,
				x->o->jobs, x->o->model, x->state,
				x->o->size };
	struct placement_info best, within, defs[DEF_COUNT];
	char def_names[DEF_COUNT][64];
	struct ranking r;
	struct space *sp;
	struct model md;
	struct pins pins;
	struct urange ur;
	size_t *idx, ntop, i, bi, wi;
	double *lo, *hi, best_lo, best_hi;
	int ret = 1, d, n_def, ties = 0, tie_threads = 0;
	bool *tie;
	char cnt[64];
	const struct placement_info *chosen;

	sp = space_new(x->m, x->o->k, &x->mem, &err);
	if (!sp) {
		perr_print(&err, stderr);
		return 1;
	}
	if (rank_all(sp, &x->prm, &ro, &r, &err) < 0) {
		perr_print(&err, stderr);
		space_free(sp);
		return 1;
	}
	if (r.warning)
		warning("%s", r.warning);
	model_init(&md, sp, &x->prm);
	bi = rank_best(&r);
	wi = rank_within(&r, x->o->within);
	canonical_info(x, &r, bi, &best);
	canonical_info(x, &r, wi, &within);
	/* what users get without pandia: the whole machine unpinned, and
	   OMP_PROC_BIND close and spread at the thread count asked or
	   picked */
	n_def = 0;
	{
		int nt = x->o->threads ? x->o->threads : best.n;
		enum default_kind k;

		for (k = DEF_UNPINNED; k < DEF_COUNT; k++) {
			int n = k == DEF_UNPINNED ? x->m->n_pus : nt;
			int *pus = xcalloc((size_t)n + 1, sizeof(int));

			defaults_placement(x->m, k, n, pus);
			defaults_name(k, n, x->m->n_pus, def_names[n_def],
				      sizeof(def_names[n_def]));
			predict_pus(x, &md, pus, n, &defs[n_def++]);
		}
	}
	chosen = x->o->within_given ? &within : &best;
	pins_make(x, chosen, &pins);
	/* room for what will be shown, not for what was asked */
	ntop = x->o->top > 0 && (size_t)x->o->top < r.n ? (size_t)x->o->top :
		r.n;
	idx = xcalloc(ntop + 1, sizeof(*idx));
	ntop = rank_top(&r, ntop, idx);
	space_count_format(r.full, cnt, sizeof(cnt));

	/* each time's range, and the placements tied with the best */
	lo = xcalloc(ntop + 1, sizeof(double));
	hi = xcalloc(ntop + 1, sizeof(double));
	tie = xcalloc(ntop + 1, sizeof(bool));
	urange_init(&ur, x, sp);
	urange_of(&ur, best.pus, best.n, best.time, false, &best_lo,
		  &best_hi);
	{
		double bhi = best_hi;

		urange_of(&ur, best.pus, best.n, best.time, true, &best_lo,
			  &best_hi);
		for (i = 0; i < ntop; i++) {
			const struct rank_entry *e = &r.e[idx[i]];
			int *pus, n = space_pus(sp, rank_state(&r, idx[i]),
						&pus);
			double rlo, rhi;

			urange_of(&ur, pus, n, e->time, false, &rlo, &rhi);
			urange_of(&ur, pus, n, e->time, true, &lo[i], &hi[i]);
			free(pus);
			/* equal times are equal, not uncertain */
			tie[i] = idx[i] != bi && ur.on && rlo <= bhi &&
				e->tq != r.e[bi].tq;
			if (tie[i]) {
				ties++;
				if (e->threads != best.n)
					tie_threads = e->threads;
			}
		}
	}

	if (x->o->json) {
		json_t *root = json_object(), *a = json_array(), *o;
		char *s;

		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "machine",
				    json_string(x->o->machine_path));
		json_object_set_new(root, "workload",
				    json_string(x->o->workload_path));
		json_object_set_new(root, "model",
				    json_string(x->o->model->name));
		json_object_set_new(root, "size", size_json(x));
		{
			char mem[32];

			json_object_set_new(root, "memory", json_string(
				mempolicy_format(&x->mem, mem, sizeof(mem))));
		}
		json_object_set_new(root, "oversubscribe",
				    json_integer(x->o->k));
		json_object_set_new(root, "canonical_placements",
				    r.full.overflow || r.full.n >
				    (unsigned __int128)1 << 62 ?
				    json_string(cnt) :
				    json_integer((json_int_t)r.full.n));
		json_object_set_new(root, "ranked", json_integer(
			(json_int_t)r.n));
		json_object_set_new(root, "reduced", r.max_layouts ?
				    json_integer(r.max_layouts) :
				    json_false());
		json_object_set_new(root, "seconds", json_real(r.seconds));
		for (i = 0; i < ntop; i++) {
			const struct rank_entry *e = &r.e[idx[i]];
			int *pus, n = space_pus(sp, rank_state(&r, idx[i]),
						&pus);
			int *os = os_of(x->m, pus, n);
			char *list = cpulist_format_compact(os, n);

			o = json_object();
			json_object_set_new(o, "rank", json_integer(
				(json_int_t)i + 1));
			json_set_cpus(o, os, n);
			json_object_set_new(o, "threads",
					    json_integer(e->threads));
			json_object_set_new(o, "cores", json_integer(e->cores));
			json_object_set_new(o, "sockets",
					    json_integer(e->sockets));
			json_object_set_new(o, "time", json_real(e->time));
			json_object_set_new(o, "time_low", json_real(lo[i]));
			json_object_set_new(o, "time_high", json_real(hi[i]));
			json_object_set_new(o, "tie", json_boolean(tie[i]));
			json_object_set_new(o, "speedup",
					    json_real(e->speedup));
			json_object_set_new(o, "bottleneck", json_string(
				bottleneck_name(e->bott)));
			json_array_append_new(a, o);
			free(list);
			free(os);
			free(pus);
		}
		json_object_set_new(root, "placements", a);
		o = info_json(&best);
		json_object_set_new(o, "time_low", json_real(best_lo));
		json_object_set_new(o, "time_high", json_real(best_hi));
		json_object_set_new(root, "best", o);
		json_object_set_new(root, "ties", json_integer(ties));
		json_object_set_new(root, "uncertain", json_boolean(
			tie_threads != 0));
		o = info_json(&within);
		json_object_set_new(o, "within_percent",
				    json_real(x->o->within));
		json_object_set_new(root, "within", o);
		a = json_array();
		for (d = 0; d < n_def; d++) {
			o = info_json(&defs[d]);
			json_object_set_new(o, "name",
					    json_string(def_names[d]));
			json_array_append_new(a, o);
		}
		json_object_set_new(root, "defaults", a);
		json_object_set_new(root, "chosen", json_string(
			x->o->within_given ? "within" : "best"));
		json_object_set_new(root, "pin", pins_json(&pins));
		s = json_to_text(root);
		fputs(s, stdout);
		free(s);
		json_decref(root);
	} else {
		print_header(x);
		printf("placements %s canonical", cnt);
		if (x->o->k > 1)
			printf(" (up to %d threads per PU)", x->o->k);
		printf("; %zu ranked in %.3f s", r.n, r.seconds);
		if (r.max_layouts)
			printf(" (reduced space: the used sockets of a kind "
			       "in at most %d layout%s)", r.max_layouts,
			       r.max_layouts == 1 ? "" : "s");
		if (x->o->threads)
			printf(", %d threads only", x->o->threads);
		printf("\n");
		if (sp->symmetry_note)
			printf("symmetry  %s\n", sp->symmetry_note);
		printf("\n%4s %7s %5s %7s %10s %-17s %8s  %-18s %s\n",
		       "rank", "threads", "cores", "sockets", "time (s)",
		       ur.on ? " range (s)" : "", "speedup", "bottleneck",
		       "cpus");
		for (i = 0; i < ntop; i++) {
			const struct rank_entry *e = &r.e[idx[i]];
			int *pus, n = space_pus(sp, rank_state(&r, idx[i]),
						&pus);
			int *os = os_of(x->m, pus, n);
			char *list = cpulist_format_compact(os, n);

			char *set = cpuset_format(os, n);

			char range[48] = "";

			if (ur.on)
				snprintf(range, sizeof(range), " %#.4g-%#.4g%s",
					 lo[i], hi[i], tie[i] ? " =" : "");
			printf("%4zu %7d %5d %7d %#10.4g %-17s %#8.4g  %-18s "
			       "%s%s\n", i + 1, e->threads, e->cores,
			       e->sockets, e->time, range, e->speedup,
			       bottleneck_name(e->bott), set,
			       distinct(os, n) < n ? " (PUs shared)" : "");
			free(set);
			free(list);
			free(os);
			free(pus);
		}
		{
			char *bs = set_text(&best), *ws = set_text(&within);

			printf("\nbest        %d thread%s on %s: %#.4g s, "
			       "speedup %#.4g\n", best.n, plural(best.n), bs,
			       best.time, best.speedup);
			if (ur.on)
				printf("            %#.4g to %#.4g s from the "
				       "parameters' uncertainty; %d of the "
				       "placements shown tie with it (=: "
				       "their ranges overlap)\n", best_lo,
				       best_hi, ties);
			else
				printf("            no range: the description "
				       "gives its parameters no uncertainty "
				       "(a profile of one repetition per "
				       "run, as --quick makes, cannot tell "
				       "how much the runs spread)\n");
			if (tie_threads)
				printf("            the parameters are too "
				       "uncertain to choose the thread "
				       "count: %d threads tie with %d; "
				       "profile with more repetitions (-r) "
				       "or on a quieter host\n",
				       tie_threads, best.n);
			printf("within %g%%  %d thread%s on %d core%s, %s: "
			       "%#.4g s, %+.1f%% vs best\n", x->o->within,
			       within.n, plural(within.n), within.cores,
			       plural(within.cores), ws, within.time,
			       vs_best(within.time, best.time));
			free(bs);
			free(ws);
		}
		printf("\nwithout pandia\n");
		for (d = 0; d < n_def; d++) {
			char *ds = set_text(&defs[d]);

			printf("  %-32s %3d thread%s: %#10.4g s, speedup "
			       "%#7.4g (%+.1f%% vs best)  %s\n", def_names[d],
			       defs[d].n, plural(defs[d].n), defs[d].time,
			       defs[d].speedup, vs_best(defs[d].time,
							best.time), ds);
			free(ds);
		}
		printf("\nto run the %s placement:\n", x->o->within_given ?
		       "cheapest-within" : "best");
		pins_print(&pins);
	}
	ret = 0;
	urange_release(&ur);
	free(lo);
	free(hi);
	free(tie);
	free(idx);
	pins_release(&pins);
	info_release(&best);
	info_release(&within);
	for (d = 0; d < n_def; d++)
		info_release(&defs[d]);
	model_release(&md);
	rank_release(&r);
	space_free(sp);
	return ret;
}
