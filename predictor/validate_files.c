/*
 * validate_files.c - the files of 'pandia validate': its JSON, its CSV
 * and its gnuplot script (see validate.h, docs/validation.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "predictor/validate.h"

/* ---- the files --------------------------------------------------- */

/* A real, or null when not a number. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *state_name(enum vrow_state st)
{
	return st == VROW_OK ? "ok" : st == VROW_FAILED ? "failed" :
		"not run";
}

/* "selected,pick,default,packed,spread" for the roles it has. */
static char *roles_text(unsigned roles)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ VROLE_SELECTED, "selected" }, { VROLE_PICK, "pick" },
		{ VROLE_DEFAULT, "default" }, { VROLE_PACKED, "packed" },
		{ VROLE_SPREAD, "spread" },
	};
	char buf[128] = "";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (roles & names[i].bit) {
			if (*buf)
				strcat(buf, " ");
			strcat(buf, names[i].name);
		}
	return xstrdup(buf);
}

/* A row's measured times, in the order they were made. */
static json_t *times_json(const struct vrow *rw)
{
	json_t *a = json_array();
	int j;

	for (j = 0; rw->times && j < rw->reps; j++)
		json_array_append_new(a, jnum(rw->times[j]));
	return a;
}

static json_t *row_json(const struct vset *vs, int i,
			const struct vsummary *s)
{
	const struct vrow *rw = &vs->rows[i];
	json_t *o = json_object();
	char *roles = roles_text(rw->roles);
	double best = s->have_metrics ? vs->rows[s->mt.best].measured : NAN;
	bool in;

	json_object_set_new(o, "x", json_integer(rw->x));
	json_set_cpus_text(o, rw->cpus);
	json_object_set_new(o, "threads", json_integer(rw->n));
	json_object_set_new(o, "cores", json_integer(rw->cores));
	json_object_set_new(o, "sockets", json_integer(rw->sockets));
	json_object_set_new(o, "per_pu", json_integer(rw->per_pu));
	json_object_set_new(o, "pinned", json_boolean(rw->pinned));
	json_object_set_new(o, "roles", json_string(roles));
	if (rw->names)
		json_object_set_new(o, "defaults", json_string(rw->names));
	json_object_set_new(o, "predicted", jnum(rw->predicted));
	if (vrow_range(rw, &in)) {
		json_object_set_new(o, "time_low", json_real(rw->lo));
		json_object_set_new(o, "time_high", json_real(rw->hi));
		if (rw->state == VROW_OK)
			json_object_set_new(o, "in_range", json_boolean(in));
	}
	json_object_set_new(o, "bottleneck", json_string(rw->bottleneck));
	json_object_set_new(o, "status", json_string(state_name(rw->state)));
	if (rw->state == VROW_OK) {
		json_object_set_new(o, "measured", jnum(rw->measured));
		json_object_set_new(o, "min", jnum(rw->min));
		json_object_set_new(o, "max", jnum(rw->max));
		json_object_set_new(o, "repetitions", json_integer(rw->reps));
		json_object_set_new(o, "times", times_json(rw));
		json_object_set_new(o, "disturbed", json_real(rw->disturbed));
		json_object_set_new(o, "error", jnum(validate_error(
			rw->predicted, rw->measured)));
		json_object_set_new(o, "normalised", jnum(rw->measured /
							  best));
	}
	if (rw->error)
		json_object_set_new(o, "message", json_string(rw->error));
	free(roles);
	return o;
}

/* What was run, where and when: the file's header fields. */
static void info_json(json_t *root, const struct vinfo *info)
{
	json_t *a;
	int i;

	json_object_set_new(root, "schema", json_string("pandia-validate/1"));
	json_object_set_new(root, "machine", json_string(info->machine_file));
	json_object_set_new(root, "workload",
			    json_string(info->workload_file));
	if (info->host)
		json_object_set_new(root, "host", json_string(info->host));
	a = json_array();
	for (i = 0; info->argv && info->argv[i]; i++)
		json_array_append_new(a, json_string(info->argv[i]));
	json_object_set_new(root, "command", a);
	json_object_set_new(root, "placements",
			    json_string(info->placements));
	json_object_set_new(root, "oversubscribe",
			    json_integer(info->oversubscribe));
	json_object_set_new(root, "canonical_placements",
			    info->space_size >= 0 ?
			    json_integer(info->space_size) : json_null());
	json_object_set_new(root, "reduced", json_boolean(info->reduced));
	json_object_set_new(root, "repetitions",
			    json_integer(info->repetitions));
	json_object_set_new(root, "warmup", json_boolean(info->warmup));
	json_object_set_new(root, "time_from", info->time_from ?
			    json_string(info->time_from) :
			    json_string("wall"));
	if (info->date)
		json_object_set_new(root, "date", json_string(info->date));
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, json_real(info->load_start[i]));
	json_object_set_new(root, "loadavg_start", a);
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, json_real(info->load_now[i]));
	json_object_set_new(root, "loadavg_end", a);
	json_object_set_new(root, "complete", json_boolean(info->complete));
	if (info->interrupted)
		json_object_set_new(root, "interrupted",
				    json_integer(info->interrupted));
	json_object_set_new(root, "seconds", json_real(info->elapsed));
}

/* The host's move since the profile (new object; s->move_row >= 0). */
static json_t *move_json(const struct vset *vs, const struct vsummary *s)
{
	json_t *o = json_object();

	json_set_cpus_text(o, vs->rows[s->move_row].cpus);
	json_object_set_new(o, "ratio", jnum(s->move));
	json_object_set_new(o, "explains", json_boolean(s->move_explains));
	json_object_set_new(o, "range_rows", json_integer(s->move_rows));
	if (s->move_rows)
		json_object_set_new(o, "range_coverage", json_real(
			(double)s->move_in / s->move_rows));
	return o;
}

/* The host's speed in each round (new object). */
static json_t *rounds_json(const struct vsummary *s)
{
	json_t *o = json_object(), *a = json_array();
	int r;

	for (r = 0; r < s->n_rounds; r++)
		json_array_append_new(a, jnum(s->round_level[r]));
	json_object_set_new(o, "levels", a);
	json_object_set_new(o, "placements", json_integer(s->round_rows));
	json_object_set_new(o, "move", jnum(s->round_move));
	return o;
}

/* The accuracy metrics (new object). */
static json_t *metrics_json(const struct vset *vs, const struct vsummary *s)
{
	const struct validate_metrics *mt = &s->mt;
	json_t *o = json_object();

	json_object_set_new(o, "placements", json_integer(mt->n));
	json_object_set_new(o, "failed", json_integer(s->failed));
	json_object_set_new(o, "not_run", json_integer(s->pending));
	if (s->have_metrics) {
		json_object_set_new(o, "median_error",
				    jnum(mt->median_error));
		json_object_set_new(o, "mean_error", jnum(mt->mean_error));
		json_object_set_new(o, "max_error", jnum(mt->max_error));
		json_object_set_new(o, "offset", jnum(mt->offset));
		json_object_set_new(o, "offset_error",
				    jnum(mt->offset_error));
		json_object_set_new(o, "offset_error_mean",
				    jnum(mt->offset_error_mean));
		json_object_set_new(o, "best_gap", jnum(mt->best_gap));
		json_object_set_new(o, "best_gap_noise",
				    jnum(s->best_gap_noise));
		json_object_set_new(o, "spearman", jnum(mt->spearman));
	}
	if (s->range_rows) {
		json_object_set_new(o, "range_rows",
				    json_integer(s->range_rows));
		json_object_set_new(o, "range_coverage", json_real(
			(double)s->range_in / s->range_rows));
		json_object_set_new(o, "range_width", jnum(s->range_width));
		if (s->have_metrics)
			json_object_set_new(o, "best_tied",
					    json_boolean(s->best_tied));
	}
	if (s->move_row >= 0)
		json_object_set_new(o, "host_move", move_json(vs, s));
	if (s->n_rounds)
		json_object_set_new(o, "rounds", rounds_json(s));
	return o;
}

/* The best measured placement and pandia's pick, when there are. */
static void best_pick_json(json_t *root, const struct vset *vs,
			   const struct vsummary *s)
{
	json_t *o;

	if (s->have_metrics) {
		const struct vrow *b = &vs->rows[s->mt.best];

		o = json_object();
		json_set_cpus_text(o, b->cpus);
		json_object_set_new(o, "threads", json_integer(b->n));
		json_object_set_new(o, "measured", jnum(b->measured));
		json_object_set_new(o, "predicted", jnum(b->predicted));
		json_object_set_new(root, "best", o);
	}
	if (s->best_all >= 0) {
		const struct vrow *b = &vs->rows[s->best_all];

		o = json_object();
		json_set_cpus_text(o, b->cpus);
		json_object_set_new(o, "threads", json_integer(b->n));
		json_object_set_new(o, "pinned", json_boolean(b->pinned));
		json_object_set_new(o, "defaults", b->names ?
				    json_string(b->names) : json_null());
		json_object_set_new(o, "measured", jnum(b->measured));
		json_object_set_new(o, "gap_of_pick", jnum(s->best_gap_all));
		json_object_set_new(o, "beats_pick",
				    json_boolean(s->unpinned_beats_pick));
		json_object_set_new(root, "best_of_all", o);
	}
	if (vs->pick >= 0) {
		const struct vrow *p = &vs->rows[vs->pick];

		o = json_object();
		json_set_cpus_text(o, p->cpus);
		json_object_set_new(o, "threads", json_integer(p->n));
		json_object_set_new(o, "predicted", jnum(p->predicted));
		json_object_set_new(o, "measured", p->state == VROW_OK ?
				    jnum(p->measured) : json_null());
		json_object_set_new(root, "pick", o);
	}
}

/* The defaults users get without pandia, against the pick (new array). */
static json_t *heuristics_json(const struct vset *vs,
			       const struct vsummary *s)
{
	json_t *a = json_array(), *o;
	int i;

	for (i = 0; i < s->n_heur; i++) {
		const struct vheur *h = &s->heur[i];
		const struct vrow *rw = &vs->rows[h->row];

		o = json_object();
		json_object_set_new(o, "name", json_string(h->name));
		json_set_cpus_text(o, rw->cpus);
		json_object_set_new(o, "threads", json_integer(rw->n));
		json_object_set_new(o, "pinned", json_boolean(rw->pinned));
		json_object_set_new(o, "predicted", jnum(rw->predicted));
		json_object_set_new(o, "measured", rw->state == VROW_OK ?
				    jnum(rw->measured) : json_null());
		json_object_set_new(o, "gap", jnum(h->gap));
		json_object_set_new(o, "pick_vs", jnum(h->pick_vs));
		json_object_set_new(o, "pick_worse",
				    json_boolean(h->pick_worse));
		json_array_append_new(a, o);
	}
	return a;
}

/* The sweep against the profile, for --placements sweep (new object). */
static json_t *sweep_json(const struct vset *vs, const struct vsummary *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "placements", json_integer(s->sweep_rows));
	json_object_set_new(o, "measured", json_integer(s->sweep_measured));
	json_object_set_new(o, "seconds", json_real(s->sweep_seconds));
	json_object_set_new(o, "pass_seconds", json_real(s->sweep_pass));
	json_object_set_new(o, "profile_seconds", s->profile_pass > 0 ?
			    json_real(s->profile_seconds) : json_null());
	json_object_set_new(o, "profile_pass_seconds",
			    s->profile_pass > 0 ?
			    json_real(s->profile_pass) : json_null());
	json_object_set_new(o, "pass_ratio", s->profile_pass > 0 ?
			    jnum(s->sweep_pass / s->profile_pass) :
			    json_null());
	json_object_set_new(o, "best", s->sweep_best >= 0 ?
			    json_string(vs->rows[s->sweep_best].cpus) :
			    json_null());
	json_object_set_new(o, "found_best", json_boolean(s->sweep_found));
	json_object_set_new(o, "gap", jnum(s->sweep_gap));
	return o;
}

json_t *vset_to_json(const struct vset *vs, const struct vsummary *s,
		     const struct vinfo *info)
{
	json_t *root = json_object(), *a;
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;

	info_json(root, info);
	json_object_set_new(root, "metrics", metrics_json(vs, s));
	best_pick_json(root, vs, s);
	json_object_set_new(root, "heuristics", heuristics_json(vs, s));
	if (s->sweep)
		json_object_set_new(root, "sweep", sweep_json(vs, s));
	a = json_array();
	vset_figure_order(vs, order);
	for (i = 0; i < vs->n_rows; i++)
		json_array_append_new(a, row_json(vs, order[i], s));
	json_object_set_new(root, "rows", a);
	free(order);
	return root;
}

/* A number for the CSV: empty when not known. */
static void sb_num(struct strbuf *b, double v, bool comma)
{
	if (isfinite(v))
		strbuf_printf(b, "%.6g", v);
	if (comma)
		strbuf_printf(b, ",");
}

/* A CSV field: quoted when it holds a comma, quote or newline. */
static void sb_field(struct strbuf *b, const char *s, bool comma)
{
	const char *p;

	if (!s[strcspn(s, ",\"\n\r")]) {
		strbuf_printf(b, "%s", s);
	} else {
		strbuf_printf(b, "\"");
		for (p = s; *p; p++) {
			if (*p == '"')
				strbuf_printf(b, "\"\"");
			else if (*p == '\n' || *p == '\r')
				strbuf_printf(b, " ");
			else
				strbuf_printf(b, "%c", *p);
		}
		strbuf_printf(b, "\"");
	}
	if (comma)
		strbuf_printf(b, ",");
}

char *vset_to_csv(const struct vset *vs, const struct vsummary *s)
{
	struct strbuf b = { NULL, 0, 0 };
	int *order = xcalloc((size_t)vs->n_rows + 1, sizeof(int)), i;
	double best = s->have_metrics ? vs->rows[s->mt.best].measured : NAN;
	double d = s->have_metrics ? s->mt.offset * best : NAN;

	strbuf_printf(&b, "x,threads,cores,sockets,per_pu,cpus,pinned,roles,"
		  "defaults,predicted_s,measured_s,min_s,max_s,reps,error,"
		  "offset_error,norm_measured,norm_predicted,status,"
		  "message\n");
	vset_figure_order(vs, order);
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];
		char *roles = roles_text(rw->roles);
		bool ok = rw->state == VROW_OK;

		strbuf_printf(&b, "%d,%d,%d,%d,%d,", rw->x, rw->n, rw->cores,
			  rw->sockets, rw->per_pu);
		sb_field(&b, rw->cpus, true);
		strbuf_printf(&b, "%s,", rw->pinned ? "yes" : "no");
		sb_field(&b, roles, true);
		sb_field(&b, rw->names ? rw->names : "", true);
		sb_num(&b, rw->predicted, true);
		sb_num(&b, ok ? rw->measured : NAN, true);
		sb_num(&b, ok ? rw->min : NAN, true);
		sb_num(&b, ok ? rw->max : NAN, true);
		if (ok)
			strbuf_printf(&b, "%d", rw->reps);
		strbuf_printf(&b, ",");
		sb_num(&b, ok ? validate_error(rw->predicted, rw->measured) :
		       NAN, true);
		sb_num(&b, ok && rw->pinned ?
		       validate_error(rw->predicted + d, rw->measured) : NAN,
		       true);
		sb_num(&b, ok ? rw->measured / best : NAN, true);
		sb_num(&b, rw->predicted / best, true);
		strbuf_printf(&b, "%s,", state_name(rw->state));
		sb_field(&b, rw->error ? rw->error : "", false);
		strbuf_printf(&b, "\n");
		free(roles);
	}
	free(order);
	return b.s;
}

/* S with the characters gnuplot's double quotes need escaped. */
static char *gp_quote(const char *s)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_gnuplot_string(&b, s);
	return b.s;
}

char *vset_gnuplot_script(const struct vset *vs, const struct vsummary *s,
			  const char *png, const char *title)
{
	struct strbuf b = { NULL, 0, 0 };
	int *order, i, last_t = -1, n = 0, n_unpinned = 0;
	double best, unpinned = NAN;
	char *qt, *qp;

	if (!s->have_metrics)
		return NULL;
	best = vs->rows[s->mt.best].measured;
	order = xcalloc((size_t)vs->n_rows + 1, sizeof(int));
	vset_figure_order(vs, order);
	qt = gp_quote(title);
	qp = gp_quote(png);
	strbuf_printf(&b, "# pandia validate: measured and predicted time of "
		  "each placement,\n# normalised to the best measured "
		  "(the Pandia paper's Figure 1).\n"
		  "# Draw it again: gnuplot validate.gp\n");
	strbuf_gnuplot_png(&b, 1000, 560, 10);
	strbuf_printf(&b, "set output %s\nset title %s noenhanced\n", qp, qt);
	strbuf_printf(&b, "set xlabel \"placement (by threads, then threads per "
		  "core); ticks: thread count\"\n"
		  "set ylabel \"time / best measured time\"\n"
		  "set key below horizontal\nset grid ytics\n"
		  "set yrange [0:*]\nset offsets 0.5, 0.5, 0, 0\n");
	/* one tick per thread count, at its first placement */
	strbuf_printf(&b, "set xtics (");
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];

		if (!rw->pinned || rw->state != VROW_OK ||
		    !(rw->predicted > 0))
			continue;
		n++;
		if (rw->n != last_t) {
			strbuf_printf(&b, "%s\"%d\" %d", last_t < 0 ? "" : ", ",
				  rw->n, n);
			last_t = rw->n;
		}
	}
	strbuf_printf(&b, ")\n");
	strbuf_printf(&b, "$data << EOD\n# x measured predicted threads cpus\n");
	n = 0;
	for (i = 0; i < vs->n_rows; i++) {
		const struct vrow *rw = &vs->rows[order[i]];

		if (rw->state != VROW_OK)
			continue;
		if (!rw->pinned) {
			/* the whole machine unpinned: the first default */
			if (vs->n_defaults && order[i] ==
			    vs->defaults[0].row) {
				unpinned = rw->measured / best;
				n_unpinned = rw->n;
			}
			continue;
		}
		if (!(rw->predicted > 0))
			continue;
		strbuf_printf(&b, "%d %.6g %.6g %d %s\n", ++n, rw->measured / best,
			  rw->predicted / best, rw->n, rw->cpus);
	}
	strbuf_printf(&b, "EOD\n");
	strbuf_printf(&b, "plot $data using 1:2 with linespoints pt 7 ps 0.8 "
		  "lw 1.5 lc rgb \"#1f4e9c\" title \"measured\", \\\n"
		  "     $data using 1:3 with linespoints pt 6 ps 0.8 lw 1.5 "
		  "dt 2 lc rgb \"#d9480f\" title \"predicted\"");
	if (isfinite(unpinned))
		strbuf_printf(&b, ", \\\n     %.6g with lines lw 1 dt 3 lc rgb "
			  "\"#555555\" title \"%d threads unpinned, the OS "
			  "scheduler (measured)\"", unpinned, n_unpinned);
	strbuf_printf(&b, "\n");
	free(qt);
	free(qp);
	free(order);
	return b.s;
}
