/*
 * predict_placement.c - pandia predict --placement: one placement
 * explained, thread by thread and resource by resource, with --trace
 * every step of the model's iterations and with --explain its speedup
 * stack.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin.h"
#include "builtin/predict.h"
#include "common/jsonout.h"
#include "common/util.h"
#include "predictor/space.h"
#include "predictor/stacks.h"

/* "12.3 G" for a rate, with the unit of the resource. */
static void fmt_rate(char *buf, size_t size, double v, int kind)
{
	const char *unit = kind == RK_INSTR ? "ops/s" : kind == RK_PU ||
		kind == RK_QUOTA ? "PU" : "B/s";

	if (kind == RK_PU || kind == RK_QUOTA)
		snprintf(buf, size, "%.2f %s", v, unit);
	else if (v >= 1e9)
		snprintf(buf, size, "%.2f G%s", v / 1e9, unit);
	else if (v >= 1e6)
		snprintf(buf, size, "%.2f M%s", v / 1e6, unit);
	else
		snprintf(buf, size, "%.3g %s", v, unit);
}

static void print_row(const struct model *md, const char *label,
		      const double *v, bool per_thread)
{
	int i;

	printf("  %-22s", label);
	if (per_thread)
		for (i = 0; i < md->n_threads; i++)
			printf(" %6.2f", v[md->thread_class[i]]);
	else
		for (i = 0; i < md->n_classes; i++)
			printf(" %6.2f", v[i]);
	putchar('\n');
}

static void print_state_table(const struct model *md, bool per_thread)
{
	double *a = xcalloc((size_t)md->n_classes + 1, sizeof(double));
	double *b = xcalloc((size_t)md->n_classes + 1, sizeof(double));
	int c, i;

	printf("  %-22s", "thread");
	if (per_thread)
		for (i = 0; i < md->n_threads; i++)
			printf(" %6d", i);
	else
		for (i = 0; i < md->n_classes; i++)
			printf(" %5gx", md->cls[i].n);
	putchar('\n');
	printf("  %-22s", "PU");
	if (per_thread)
		for (i = 0; i < md->n_threads; i++)
			printf(" %6d", md->sp->m->pus[
			       md->thread_pu[i]].os_index);
	else
		for (i = 0; i < md->n_classes; i++)
			printf(" %6d", md->sp->m->pus[md->cls[i].pu].os_index);
	putchar('\n');
	print_row(md, "resource slowdown", md->sres, per_thread);
	print_row(md, "+ communication", md->comm, per_thread);
	print_row(md, "+ load balance", md->lb, per_thread);
	for (c = 0; c < md->n_classes; c++)
		a[c] = md->sres[c] + md->comm[c] + md->lb[c];
	print_row(md, "overall slowdown", a, per_thread);
	for (c = 0; c < md->n_classes; c++)
		b[c] = md->f[c];
	print_row(md, "utilisation", b, per_thread);
	free(a);
	free(b);
}

static void print_loads(const struct model *md)
{
	int r;

	for (r = 0; r < md->n_res; r++) {
		const struct mres *x = &md->res[r];
		char name[160], l[32], c[32];

		model_res_name(md, r, name, sizeof(name));
		fmt_rate(l, sizeof(l), md->load[r] * x->cap_eff, x->kind);
		fmt_rate(c, sizeof(c), x->cap, x->kind);
		printf("  %-34s %14s of %-14s %6.2f\n", name, l, c,
		       md->load[r] * x->cap_eff / x->cap);
	}
}

struct trace_arg {
	bool per_thread;
	json_t *json;		/* array of steps, or NULL */
};

static json_t *classes_json(const struct model *md, bool per_thread);

/* Each resource's load and capacity in md's last step. */
static json_t *resources_json(const struct model *md)
{
	json_t *a = json_array();
	int r;

	for (r = 0; r < md->n_res; r++) {
		json_t *o = json_object();
		char name[160];

		json_object_set_new(o, "resource", json_string(
			model_res_name(md, r, name, sizeof(name))));
		json_object_set_new(o, "load", json_real(
			md->load[r] * md->res[r].cap_eff));
		json_object_set_new(o, "capacity", json_real(md->res[r].cap));
		json_array_append_new(a, o);
	}
	return a;
}

static void on_trace(const struct model *md, int it, char step, void *arg)
{
	static const char *const titles[] = {
		"start of the iteration",
		"resource loads at these utilisations",
		"resource slowdown: the most oversubscribed resource on each "
		"thread's path, plus burstiness where threads share a core",
		"+ inter-socket communication penalty",
		"+ load-balance penalty",
	};
	struct trace_arg *ta = arg;

	if (ta->json) {
		json_t *o = json_object();

		json_object_set_new(o, "iteration", json_integer(it));
		json_object_set_new(o, "step", json_stringn(&step, 1));
		if (step == 'b')
			json_object_set_new(o, "resources",
					    resources_json(md));
		else
			json_object_set_new(o, "threads",
					    classes_json(md, ta->per_thread));
		json_array_append_new(ta->json, o);
		return;
	}
	if (step == 'a')
		printf("\niteration %d\n", it);
	printf(" (%c) %s\n", step, titles[step - 'a']);
	if (step == 'b')
		print_loads(md);
	else
		print_state_table(md, ta->per_thread);
}

static json_t *classes_json(const struct model *md, bool per_thread)
{
	const struct pandia_machine *m = md->sp->m;
	json_t *a = json_array();
	int i, n = per_thread ? md->n_threads : md->n_classes;

	for (i = 0; i < n; i++) {
		int c = per_thread ? md->thread_class[i] : i;
		json_t *o = json_object();
		char name[160];

		if (per_thread)
			json_object_set_new(o, "thread", json_integer(i));
		else
			json_object_set_new(o, "threads",
					    json_real(md->cls[c].n));
		json_object_set_new(o, "pu", json_integer(
			m->pus[per_thread ? md->thread_pu[i] :
			       md->cls[c].pu].os_index));
		json_object_set_new(o, "socket", json_integer(
			m->sockets[md->cls[c].socket].os_index));
		json_object_set_new(o, "resource_slowdown",
				    json_real(md->sres[c]));
		json_object_set_new(o, "communication", json_real(md->comm[c]));
		json_object_set_new(o, "load_balance", json_real(md->lb[c]));
		json_object_set_new(o, "slowdown", json_real(md->sres[c] +
			md->comm[c] + md->lb[c]));
		json_object_set_new(o, "utilisation", json_real(md->f[c]));
		json_object_set_new(o, "bottleneck", md->bott[c] >= 0 &&
				    md->rawmax[c] > 1 ? json_string(
					model_res_name(md, md->bott[c], name,
						       sizeof(name))) :
				    json_null());
		json_array_append_new(a, o);
	}
	return a;
}
static int parse_placement(const struct ctx *x, int **pus, int *n)
{
	return parse_placement_text(x, x->o->placement, pus, n);
}

/* --placement with another model than the Pandia model: its time. */
static int do_placement_model(struct ctx *x, int *pus, int n)
{
	struct placement_info pi;
	struct model md;
	struct pins pins;

	memset(&md, 0, sizeof(md));
	md.sp = NULL;
	predict_pus(x, &md, pus, n, &pi);
	pins_make(x, &pi, &pins);
	if (x->o->json) {
		json_t *root = json_object(), *a = json_array();

		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "model",
				    json_string(x->o->model->name));
		json_object_set_new(root, "size", size_json(x));
		json_array_append_new(a, info_json(&pi));
		json_object_set_new(root, "placements", a);
		json_object_set_new(root, "pin", pins_json(&pins));
		json_print(root);
		json_decref(root);
	} else {
		print_header(x);
		printf("\nmodel %s: %d thread%s on %s: %#.4g s, speedup "
		       "%#.4g\n\nto run it:\n", x->o->model->name, pi.n,
		       plural(pi.n), pi.list, pi.time, pi.speedup);
		pins_print(&pins);
	}
	pins_release(&pins);
	info_release(&pi);
	return 0;
}

/* --explain: the speedup stack of pi, or NULL after saying why. */
static struct stack *placement_stack(const struct model *md,
				     const struct placement_info *pi,
				     bool *failed)
{
	struct pandia_error err;
	struct stack *st;
	double sum;

	st = stack_predicted(md, pi->list, &err);
	if (!st) {
		error("placement %s: no speedup stack: %s", pi->list,
		      err.text);
		*failed = true;
		return NULL;
	}
	if (!stack_sums(st, 0.03, &sum))
		warning("the stack of %s adds up to %.4g, not N = %d "
			"within 3%%", pi->list, sum, st->threads);
	return st;
}

/* --placement --json: the placement, its threads, resources and pins. */
static void placement_json(const struct ctx *x,
			   const struct placement_info *pi,
			   const struct model *md, const struct stack *st,
			   const struct pins *pins, json_t *trace)
{
	json_t *root = json_object(), *p = info_json(pi), *a = json_array();

	json_object_set_new(root, "schema", json_string("pandia-predict/1"));
	json_object_set_new(root, "size", size_json(x));
	json_object_set_new(p, "amdahl", json_real(md->amdahl));
	json_object_set_new(p, "iterations", json_integer(md->iterations));
	json_object_set_new(p, "converged", json_boolean(md->converged));
	json_object_set_new(p, "threads_detail", classes_json(md, true));
	if (st)
		json_object_set_new(p, "stack", stack_to_json(st));
	json_array_append_new(a, p);
	json_object_set_new(root, "placements", a);
	json_object_set_new(root, "threads_detail", classes_json(md, true));
	json_object_set_new(root, "iterations", json_integer(md->iterations));
	json_object_set_new(root, "resources", resources_json(md));
	json_object_set_new(root, "pin", pins_json(pins));
	if (trace)
		json_object_set_new(root, "trace", trace);
	json_print(root);
	json_decref(root);
}

/* The bottleneck of each thread, or of each class of threads. */
static void print_bottlenecks(const struct model *md, int n, bool per_thread)
{
	int i, cnt = per_thread ? n : md->n_classes;

	printf("\nbottleneck of each %s\n", per_thread ? "thread" : "class");
	for (i = 0; i < cnt; i++) {
		int c = per_thread ? md->thread_class[i] : i;
		char name[160];

		printf("  %-6d %s\n", i, md->bott[c] >= 0 && md->rawmax[c] > 1 ?
		       model_res_name(md, md->bott[c], name, sizeof(name)) :
		       "- (no resource oversubscribed)");
	}
}

/* --placement as text: what the model says of it, step by step. */
static void placement_print(const struct ctx *x,
			    const struct placement_info *pi,
			    const struct model *md, const struct stack *st,
			    const struct pins *pins, bool per_thread)
{
	int n = pi->n;

	if (!x->o->trace)
		print_header(x);
	printf("\nplacement %s: %d thread%s on %d core%s of %d socket%s\n",
	       pi->list, n, n == 1 ? "" : "s", pi->cores,
	       pi->cores == 1 ? "" : "s", pi->sockets,
	       pi->sockets == 1 ? "" : "s");
	printf("predicted time %.4g s, speedup %.4g (Amdahl %.4g), "
	       "after %d iteration%s%s\n", pi->time, pi->speedup,
	       md->amdahl, md->iterations, md->iterations == 1 ? "" : "s",
	       md->converged ? "" : " (not converged: damped and stopped)");
	printf("\nfinal state of each %s\n", per_thread ?
	       "thread" : "class of threads (threads x count)");
	print_state_table(md, per_thread);
	print_bottlenecks(md, n, per_thread);
	printf("\nresources (load of capacity, ratio) in the last "
	       "iteration\n");
	print_loads(md);
	if (st) {
		char *t = stack_text(st, 2);

		printf("\nspeedup stack of N = %d: where the speedup goes "
		       "(docs/stacks.md)\n", n);
		fputs(t, stdout);
		free(t);
	}
	printf("\nto run it:\n");
	pins_print(pins);
}

int do_placement(struct ctx *x)
{
	struct pandia_error err;
	struct trace_arg ta = { false, NULL };
	struct placement_info pi;
	struct stack *st = NULL;
	struct space *sp;
	struct model md;
	struct pins pins;
	bool failed = false;
	int *pus, n;

	if (parse_placement(x, &pus, &n) < 0)
		return 1;
	if (x->state)
		return do_placement_model(x, pus, n);
	sp = space_new(x->m, 1, &x->mem, &err);
	if (!sp) {
		perr_print(&err, stderr);
		free(pus);
		return 1;
	}
	model_init(&md, sp, &x->prm);
	ta.per_thread = n <= 16;
	if (x->o->trace) {
		md.trace = on_trace;
		md.trace_arg = &ta;
		if (x->o->json)
			ta.json = json_array();
		else
			print_header(x);
	}
	predict_pus(x, &md, pus, n, &pi);
	if (x->o->explain)
		st = placement_stack(&md, &pi, &failed);
	if (failed)
		goto out;
	pins_make(x, &pi, &pins);
	if (x->o->json)
		placement_json(x, &pi, &md, st, &pins, ta.json);
	else
		placement_print(x, &pi, &md, st, &pins, ta.per_thread);
	stack_free(st);
	pins_release(&pins);
out:
	info_release(&pi);
	model_release(&md);
	space_free(sp);
	return failed ? 1 : 0;
}
