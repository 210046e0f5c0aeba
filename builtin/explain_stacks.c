/*
 * explain_stacks.c - pandia explain: each placement's predicted and
 * measured speedup stacks, and showing them (text, JSON, or files
 * drawn by gnuplot).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/explain.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/shellword.h"
#include "common/util.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"
#include "predictor/stacks.h"
#include "profiler/stalls.h"

/* ---- the stacks --------------------------------------------------- */

/* The predicted stack of every placement (before anything runs). */
int explain_predict(struct xctx *x)
{
	struct pandia_error err;
	struct space *sp;
	int i, ret = -1;

	sp = space_new(x->m, 1, &x->mem, &err);
	if (!sp)
		return error_perr(&err);
	for (i = 0; i < x->n_pl; i++) {
		struct place *p = &x->pl[i];
		struct model md;

		model_init(&md, sp, &x->prm);
		model_time_pus(&md, p->pus, p->n);
		p->pred_time = md.time;
		p->pred = stack_predicted(&md, p->cpus, &err);
		model_release(&md);
		if (!p->pred) {
			error("placement %s: no predicted stack: %s", p->cpus,
			      err.text);
			goto out;
		}
	}
	ret = 0;
out:
	space_free(sp);
	return ret;
}

/* The events counted in every run: those split the rest. */
static void keep_events(struct xctx *x)
{
	int i, k, kept = 0;

	for (k = 0; k < x->n_hw; k++) {
		x->hw_kept[k] = true;
		for (i = 0; i < x->n_pl; i++)
			if (x->pl[i].ran && (!x->pl[i].stall ||
					     !isfinite(x->pl[i].stall[k])))
				x->hw_kept[k] = false;
		if (!x->hw_kept[k])
			warning("%s was not counted in every run: the rest is "
				"not split by it", x->hw_names[k]);
		kept += x->hw_kept[k];
	}
	if (x->hw && !kept) {
		x->hw = false;
		free(x->hw_note);
		x->hw_note = xstrdup("no stall event was counted");
	}
}

/* The measured stack of every placement that ran.  0, or -1 said. */
int explain_build_measured(struct xctx *x)
{
	struct stack_stall *st = xcalloc((size_t)x->n_hw + 1, sizeof(*st));
	char **labels = xcalloc((size_t)x->n_hw + 1, sizeof(char *));
	const struct place *one = x->t1_place >= 0 ? &x->pl[x->t1_place] :
		NULL;
	int i, k, n_st = 0, ret = 0;

	if (one) {
		if (!one->ran) {
			error("the 1-thread placement %s failed: no "
			      "single-thread time, no measured stack (--t1 "
			      "workload or --t1 SECONDS gives one)",
			      one->cpus);
			ret = -1;
			goto out;
		}
		x->t1 = one->tn;
	}
	if (!(x->t1 > 0)) {
		error("the single-thread time from %s is %g s: no measured "
		      "stack (--t1 SECONDS gives one)", x->t1_text, x->t1);
		ret = -1;
		goto out;
	}
	keep_events(x);
	for (i = 0; i < x->n_pl; i++) {
		struct place *p = &x->pl[i];
		struct pandia_error err;
		struct stack_run run;

		if (!p->ran)
			continue;
		n_st = 0;
		for (k = 0; x->hw && k < x->n_hw; k++) {
			if (!x->hw_kept[k])
				continue;
			if (!labels[k])
				labels[k] = xasprintf("%s stalls (perf)",
						      x->hw_ev[k].category);
			st[n_st].key = x->hw_ev[k].category;
			st[n_st].label = labels[k];
			st[n_st].seconds = p->stall[k];
			st[n_st].single = one ? one->stall[k] : 0;
			n_st++;
		}
		for (k = 0; k < p->n_thr; k++)
			if (p->thr[k].worker && !isfinite(p->thr[k].cpu_time))
				break;
		if (k < p->n_thr) {
			p->error = xstrdup("no measured stack: a worker "
					   "thread's CPU time is not known "
					   "(the runner did not see it: a run "
					   "too short?)");
			error("placement %s: %s", p->cpus, p->error);
			x->failed++;
			continue;
		}
		memset(&run, 0, sizeof(run));
		run.t1 = x->t1;
		run.tn = p->tn;
		run.threads = p->n;
		run.thr = p->thr;
		run.n_thr = p->n_thr;
		run.stalls = n_st ? st : NULL;
		run.n_stalls = n_st;
		run.cpus = p->cpus;
		p->meas = stack_measured(&run, &err);
		if (!p->meas) {
			p->error = xasprintf("no measured stack: %s",
					     err.text);
			error("placement %s: %s", p->cpus, p->error);
			x->failed++;
		}
	}
out:
	for (k = 0; k < x->n_hw; k++)
		free(labels[k]);
	free(labels);
	free(st);
	return ret;
}

/* Every stack adds up to N within 3%: warn about one that does not. */
void explain_check_sums(const struct xctx *x)
{
	int i, j;

	for (i = 0; i < x->n_pl; i++)
		for (j = 0; j < 2; j++) {
			const struct stack *s = j ? x->pl[i].pred :
				x->pl[i].meas;
			double sum;

			if (s && !stack_sums(s, SUM_TOLERANCE, &sum))
				warning("the %s stack of %s adds up to %.4g, "
					"not N = %d within %.0f%%",
					j ? "predicted" : "measured",
					x->pl[i].cpus, sum, s->threads,
					100 * SUM_TOLERANCE);
		}
}

/* ---- output ------------------------------------------------------- */

static json_t *stack_json(const struct stack *s, double time)
{
	json_t *j = stack_to_json(s);

	json_object_set_new(j, "sum", json_real(stack_total(s)));
	json_object_set_new(j, "time", isfinite(time) ? json_real(time) :
			    json_null());
	return j;
}

json_t *explain_to_json(const struct xctx *x)
{
	json_t *root = json_object(), *a = json_array(), *f = json_array();
	json_t *cmd = json_array();
	int i;

	json_object_set_new(root, "schema", json_string("pandia-explain/1"));
	json_object_set_new(root, "machine",
			    json_string(x->o->machine_path));
	json_object_set_new(root, "host", x->m->host ?
			    json_string(x->m->host) : json_null());
	json_object_set_new(root, "workload",
			    json_string(x->o->workload_path));
	for (i = 0; x->o->argv && x->o->argv[i]; i++)
		json_array_append_new(cmd, json_string(x->o->argv[i]));
	json_object_set_new(root, "command", cmd);
	json_object_set_new(root, "t1", x->t1 > 0 ? json_real(x->t1) :
			    json_null());
	json_object_set_new(root, "t1_source", json_string(
		x->t1_place >= 0 ? "run" : x->o->t1_source == T1_GIVEN ?
		"given" : "workload"));
	if (x->t1_place >= 0) {
		json_t *o = json_object();

		json_set_cpus(o, x->pl[x->t1_place].os, x->pl[x->t1_place].n);
		json_object_set_new(root, "t1_from", o);
	} else {
		json_object_set_new(root, "t1_from", json_null());
	}
	json_object_set_new(root, "repetitions", json_integer(x->o->reps));
	json_object_set_new(root, "counters", json_string(x->hw ? "perf" :
							  "none"));
	json_object_set_new(root, "counters_note", x->hw_note ?
			    json_string(x->hw_note) : json_null());
	for (i = 0; i < x->n_pl; i++) {
		const struct place *p = &x->pl[i];

		if (p->meas)
			json_array_append_new(a, stack_json(p->meas, p->tn));
		if (p->pred)
			json_array_append_new(a, stack_json(p->pred,
							    p->pred_time));
		if (p->error) {
			json_t *o = json_object();

			json_set_cpus(o, p->os, p->n);
			json_object_set_new(o, "threads", json_integer(p->n));
			json_object_set_new(o, "error", json_string(p->error));
			json_array_append_new(f, o);
		}
	}
	json_object_set_new(root, "stacks", a);
	json_object_set_new(root, "failed", f);
	return root;
}

void explain_print_text(const struct xctx *x)
{
	const struct stack **v = xcalloc(2 * (size_t)x->n_pl + 1,
					 sizeof(*v));
	char *t;
	int i, n = 0;

	printf("machine   %s\n", x->m->host ? x->m->host :
	       x->o->machine_path);
	/* quoted as the shell takes it: sh -c's script is one word */
	t = x->o->argv ? shell_join(x->o->argv) : xstrdup("");
	printf("command   %s", t);
	free(t);
	printf("\nt1        %.4g s, from %s", x->t1, x->t1_text);
	if (x->t1_place >= 0)
		printf(" at %s", x->pl[x->t1_place].cpus);
	if (x->hw)
		printf("\ncounters  perf: the rest split by the counted stall "
		       "events\n\n");
	else if (!x->hw_note || strncmp(x->hw_note, "perf counters "
					       "unavailable", 25) ||
		 said_in_full(SAID_NO_PERF))
		printf("\ncounters  none: the rest (contention and parallel "
		       "overhead) is not split%s%s\n\n", x->hw_note ?
		       ": " : "", x->hw_note ? x->hw_note : "");
	else
		printf("\ncounters  none: the rest (contention and parallel "
		       "overhead) is not split: perf counters unavailable (-v "
		       "says why)\n\n");
	for (i = 0; i < x->n_pl; i++) {
		if (x->pl[i].meas)
			v[n++] = x->pl[i].meas;
		if (x->pl[i].pred)
			v[n++] = x->pl[i].pred;
	}
	t = stacks_table(v, n);
	fputs(t, stdout);
	free(t);
	for (i = 0; i < x->n_pl; i++)
		if (x->pl[i].error)
			printf("%s: FAILED: %s\n", x->pl[i].cpus,
			       x->pl[i].error);
	free(v);
}

/* DIR/stacks.json, stacks.gp, and stacks.png by gnuplot.  0 or -1. */
int explain_save_files(const struct xctx *x, const char *json)
{
	const char *dir = x->o->dir;
	const struct stack **ms = xcalloc((size_t)x->n_pl + 1, sizeof(*ms));
	const struct stack **ps = xcalloc((size_t)x->n_pl + 1, sizeof(*ps));
	char *script, *title;
	struct pandia_error err;
	int i, ret = -1;

	if (write_file_in(dir, "stacks.json", json, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	for (i = 0; i < x->n_pl; i++) {
		ms[i] = x->pl[i].meas;
		ps[i] = x->pl[i].pred;
	}
	title = xasprintf("%s on %s: speedup stacks, measured (m) and "
			  "predicted (p); t1 %.3g s", x->o->argv &&
			  x->o->argv[0] ? (strrchr(x->o->argv[0], '/') ?
					   strrchr(x->o->argv[0], '/') + 1 :
					   x->o->argv[0]) : "?",
			  x->m->host ? x->m->host : "?", x->t1);
	script = stacks_gnuplot_script(ms, ps, x->n_pl, "stacks.png", title);
	free(title);
	if (!script) {
		warning("no stack: no figure drawn");
		ret = 0;
		goto out;
	}
	ret = draw_figure(dir, "stacks", script);
	free(script);
out:
	free(ms);
	free(ps);
	return ret;
}

/* mkdir DIR unless it is a directory already, and its files writable. */
int explain_check_dir(const char *dir)
{
	static const char *const files[] = {
		"stacks.json", "stacks.gp", "stacks.png",
	};
	struct pandia_error err;
	struct stat st;
	size_t i;

	if (mkdir(dir, 0777) < 0 && !(errno == EEXIST && stat(dir, &st) == 0 &&
				      S_ISDIR(st.st_mode))) {
		perr_errno(&err, "cannot create directory '%s'", dir);
		return error_perr(&err);
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);
		int rc = output_check(path, &err);

		free(path);
		if (rc < 0)
			return error_perr(&err);
	}
	return 0;
}
