/*
 * cmd_predict.c - pandia predict: rank every placement, or explain one.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/elfdeps.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/shellword.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/defaults.h"
#include "predictor/models.h"
#include "predictor/pandia/fit.h"
#include "predictor/pandia/model.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "predictor/stacks.h"

const char usage_predict[] =
"usage: pandia predict [-m MACHINE] -w WORKLOAD [options]\n"
"       pandia predict [-m MACHINE] -w WORKLOAD [-w WORKLOAD...]\n"
"                      [--copies N[,N...] | --placement LIST...] [options]\n"
"\n"
"Predict the run time of WORKLOAD's thread placements on MACHINE with\n"
"the Pandia model, rank every canonical placement (up to swapping\n"
"identical cores and sockets) and print the lines that pin the best.\n"
"With several -w, the workloads run together: each one's time at the\n"
"placements given (one --placement per workload, in the order of -w),\n"
"or the ways of dividing the machine's PUs between them ranked by the\n"
"time of the slowest.  --copies predicts copies of single-threaded\n"
"jobs running unpinned (--model mva).\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME machine description (pandia-machine/1): a\n"
"                          file or a name looked up where 'pandia\n"
"                          machine' writes, then the installed ones\n"
"                          (default: this host's, when there is one)\n"
"  -w, --workload FILE     workload description (pandia-workload/1);\n"
"                          again for each workload of a co-run\n"
"  -p, --placement LIST    predict this placement only (OS PU indexes,\n"
"                          one per thread, a PU may repeat, or a CPU\n"
"                          expression: see pandia help cpus) and\n"
"                          show each thread and each resource; in a\n"
"                          co-run, one per workload\n"
"      --copies N[,N...]   N concurrent copies of each workload, each a\n"
"                          single-threaded job, unpinned on the whole\n"
"                          machine (one N for all, or one per -w)\n"
"      --objective OBJ     co-run divisions ranked by max (the slowest\n"
"                          workload's time, the default) or sum\n"
"      --trace             with --placement: every step of every\n"
"                          iteration, as in the paper's Figures 7 and 9\n"
"      --explain           with --placement: the predicted speedup stack,\n"
"                          where the speedup goes (docs/stacks.md)\n"
"  -t, --threads N         rank only placements with N threads\n"
"      --top N             show the N best placements (default 10; 0:\n"
"                          all of them)\n"
"      --within PCT        pin the placement with the fewest cores whose\n"
"                          time is within PCT% of the best (without it:\n"
"                          the best; the 5% one is shown either way)\n"
"  -k, --oversubscribe K   up to K threads per PU (default 1)\n"
"      --memory POLICY     where the workload's memory lives: local,\n"
"                          interleave, spread (first touch by the threads\n"
"                          on the sockets in use) or node:N (default: the\n"
"                          workload's \"memory\" field, else local)\n"
"      --max-placements N  above N canonical placements rank the reduced\n"
"                          space (see pandia-predict(1); default 5000000)\n"
"  -j, --jobs N            worker threads (default: one per CPU, <= 16)\n"
"      --force             predict a workload profiled on another machine\n"
"      --model NAME        the model that predicts (default pandia; see\n"
"                          pandia-predict(1) for the others)\n"
"      --size X            for input size X: the black-box model's\n"
"                          T_seq(X) scales the Pandia model's t1, or,\n"
"                          with --model blackbox, T_p(X) itself\n"
"      --json              the result as JSON on stdout\n"
"  -q, --quiet             no progress lines (which machine is used)\n"
"\n"
"exit status: 0 success, 1 failure, 2 usage.  See pandia-predict(1).\n";

#define DEFAULT_WITHIN 5.0
#define MAX_EXPLICIT_PER_PU 64

#define MAX_CORUN 8

struct cli {
	const char *machine_path, *workload_path, *placement;
	const char *workload_paths[MAX_CORUN], *placements[MAX_CORUN];
	int n_workloads, n_placements, n_copies;
	int copies[MAX_CORUN];
	bool sum;			/* --objective sum */
	bool trace, json, force, within_given, explain, quiet;
	int threads, top, k, jobs;
	double within;
	long max_placements;
	bool has_memory;
	struct pandia_mempolicy memory;
	const struct model_def *model;
	double size;		/* --size; NAN: as profiled */
};

struct ctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct model_params prm;
	struct pandia_mempolicy mem;
	void *state;		/* the model's, when not the Pandia model */
};

/* ---- small helpers ---------------------------------------------- */

/* OS indexes of m->pus indexes: a new array. */
static int *os_of(const struct pandia_machine *m, const int *pus, int n)
{
	int *os = xcalloc((size_t)(n ? n : 1), sizeof(int)), i;

	for (i = 0; i < n; i++)
		os[i] = m->pus[pus[i]].os_index;
	return os;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* TIME against BEST in percent, never "-0.0". */
static double vs_best(double time, double best)
{
	double v = 100 * (time / best - 1);

	return fabs(v) < 0.05 ? 0 : v;
}

/* How many different values sorted V holds. */
static int distinct(const int *v, int n)
{
	int i, d = n > 0;

	for (i = 1; i < n; i++)
		d += v[i] != v[i - 1];
	return d;
}

/*
 * The workload's command with {threads}, {cpus} and, when SIZE is a
 * number, {size} filled in and quoted: what 'pandia run' runs at the
 * placement (common/shellword.h).  New string.
 */
static char *command_line(const struct pandia_workload *w, int threads,
			  const char *cpus, double size)
{
	struct shell_vars v = { cpus, threads, "none", "none", NULL, NULL,
				NULL };
	char **words, sz[32], *out;
	int i;

	if (!w->n_command)
		return xstrdup("CMD");
	if (!isnan(size))
		v.size = shell_size(size, sz, sizeof(sz));
	words = xcalloc((size_t)w->n_command + 1, sizeof(*words));
	for (i = 0; i < w->n_command; i++)
		words[i] = shell_subst(w->command[i], &v);
	out = shell_join(words);
	for (i = 0; i < w->n_command; i++)
		free(words[i]);
	free(words);
	return out;
}

/* The workload's command as profiled, words joined.  New string. */
static char *raw_command(const struct pandia_workload *w)
{
	size_t len = 1;
	char *out;
	int i;

	for (i = 0; i < w->n_command; i++)
		len += strlen(w->command[i]) + 1;
	out = xmalloc(len);
	len = 0;
	for (i = 0; i < w->n_command; i++) {
		size_t n = strlen(w->command[i]);

		if (i)
			out[len++] = ' ';
		memcpy(out + len, w->command[i], n);
		len += n;
	}
	out[len] = '\0';
	return out;
}

/* ---- one placement, explained ----------------------------------- */

struct placement_info {
	int n;			/* threads */
	int *pus;		/* m->pus indexes */
	int *os;		/* OS indexes */
	char *list;		/* cpulist_format_compact() */
	int cores, sockets;
	double time, speedup;
	const char *bottleneck;
};

static void info_release(struct placement_info *pi)
{
	free(pi->pus);
	free(pi->os);
	free(pi->list);
}

static void usage_of(const struct pandia_machine *m, const int *pus, int n,
		     int *cores, int *sockets)
{
	char *cu = xcalloc((size_t)m->n_cores, 1);
	char *su = xcalloc((size_t)m->n_sockets, 1);
	int i;

	*cores = *sockets = 0;
	for (i = 0; i < n; i++) {
		int c = m->pus[pus[i]].core;

		if (!cu[c]++)
			(*cores)++;
		if (!su[m->cores[c].socket]++)
			(*sockets)++;
	}
	free(cu);
	free(su);
}

/*
 * Predict PUS (taken over) with md, or with the model chosen when it
 * is not the Pandia model; fills pi.
 */
static void predict_pus(const struct ctx *x, struct model *md, int *pus,
			int n, struct placement_info *pi)
{
	const struct pandia_machine *m = x->m;

	memset(pi, 0, sizeof(*pi));
	pi->n = n;
	pi->pus = pus;
	pi->os = os_of(m, pus, n);
	pi->list = cpulist_format_compact(pi->os, n);
	usage_of(m, pus, n, &pi->cores, &pi->sockets);
	if (x->state) {
		struct model_prediction pr = { NAN, NAN, NULL, NULL, NAN };
		struct pandia_error err;

		if (x->o->model->predict(x->state, pus, n, x->o->size, &pr,
					 &err) < 0)
			perr_print(&err, stderr);
		pi->time = pr.time;
		pi->speedup = pr.speedup;
		pi->bottleneck = pr.bottleneck ? pr.bottleneck : "-";
		return;
	}
	model_time_pus(md, pus, n);
	pi->time = md->time;
	pi->speedup = md->speedup;
	pi->bottleneck = model_bottleneck(md);
}

/* "12.3 G" for a rate, with the unit of the resource. */
static void fmt_rate(char *buf, size_t size, double v, int kind)
{
	const char *unit = kind == RK_INSTR ? "ops/s" : kind == RK_PU ?
		"PU" : "B/s";

	if (kind == RK_PU)
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
		if (step == 'b') {
			json_t *a = json_array();
			int r;

			for (r = 0; r < md->n_res; r++) {
				json_t *x = json_object();
				char name[160];

				json_object_set_new(x, "resource", json_string(
					model_res_name(md, r, name,
						       sizeof(name))));
				json_object_set_new(x, "load", json_real(
					md->load[r] * md->res[r].cap_eff));
				json_object_set_new(x, "capacity",
						    json_real(md->res[r].cap));
				json_array_append_new(a, x);
			}
			json_object_set_new(o, "resources", a);
		} else {
			json_object_set_new(o, "threads",
					    classes_json(md, ta->per_thread));
		}
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

/* ---- pin lines -------------------------------------------------- */

struct pins {
	char *taskset, *numactl, *omp, *run;
	char *loses;		/* what taskset and numactl cannot say;
				   NULL when nothing */
	const char *omp_why;	/* why there is no OMP line */
};

/* OMP_PLACES in thread order, runs as "{a}:len[:stride]".  New. */
static char *omp_places(const int *os, int n)
{
	size_t cap = 32 * (size_t)n + 8, len = 0;
	char *out = xmalloc(cap);
	int i, j;

	out[0] = '\0';
	for (i = 0; i < n; i = j) {
		int st = i + 1 < n ? os[i + 1] - os[i] : 0;

		for (j = i + 1; j < n && st > 0 && os[j] - os[j - 1] == st;
		     j++)
			;
		if (j - i < 3) {
			j = i + 1;
			len += (size_t)snprintf(out + len, cap - len, "%s{%d}",
						i ? "," : "", os[i]);
		} else if (st == 1) {
			len += (size_t)snprintf(out + len, cap - len,
						"%s{%d}:%d", i ? "," : "",
						os[i], j - i);
		} else {
			len += (size_t)snprintf(out + len, cap - len,
						"%s{%d}:%d:%d", i ? "," : "",
						os[i], j - i, st);
		}
	}
	return out;
}

/* What a set of PUs loses of placement OS: NULL when nothing. */
static char *set_loses(const int *os, int n)
{
	bool ordered = false, shared;
	int *s = xcalloc((size_t)n + 1, sizeof(int)), i, j;
	char *out = NULL;

	for (i = 1; i < n; i++)
		ordered |= os[i] < os[i - 1];
	memcpy(s, os, sizeof(int) * (size_t)n);
	for (i = 1; i < n; i++) {
		int v = s[i];

		for (j = i; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
	shared = distinct(s, n) < n;
	if (ordered || shared)
		out = xasprintf("# a set: loses %s%s%s; the pandia run line "
				"keeps %s", ordered ? "the thread order" : "",
				ordered && shared ? " and " : "", shared ?
				"which threads share a PU" : "",
				ordered && shared ? "both" : "it");
	free(s);
	return out;
}

static void pins_make(const struct ctx *x, const struct placement_info *pi,
		      struct pins *p)
{
	char *set = cpuset_format(pi->os, pi->n);
	char *cmd = command_line(x->w, pi->n, pi->list,
				 isnan(x->o->size) && x->w->has_size ?
				 x->w->size : x->o->size);
	char *places, mem[48];

	memset(p, 0, sizeof(*p));
	switch (x->mem.kind) {
	case MEM_INTERLEAVE:
		snprintf(mem, sizeof(mem), "--interleave=all");
		break;
	case MEM_NODE:
		snprintf(mem, sizeof(mem), "--membind=%d", x->mem.node);
		break;
	default:
		snprintf(mem, sizeof(mem), "--localalloc");
		break;
	}
	p->loses = set_loses(pi->os, pi->n);
	p->taskset = xasprintf("taskset -c %s %s", set, cmd);
	p->numactl = xasprintf("numactl --physcpubind=%s %s %s", set, mem,
			       cmd);
	/* OMP_PLACES only binds OpenMP threads: for other programs the
	   line would pin nothing */
	if (!x->w->n_command)
		p->omp_why = "the workload's command is not known";
	else if (!elf_is_openmp(x->w->command[0]))
		p->omp_why = "the command is not an OpenMP program (its ELF "
			"needs neither libgomp nor libomp)";
	if (!p->omp_why) {
		places = omp_places(pi->os, pi->n);
		p->omp = xasprintf("OMP_NUM_THREADS=%d OMP_PLACES='%s' "
				   "OMP_PROC_BIND=close %s", pi->n, places,
				   cmd);
		free(places);
	}
	p->run = xasprintf("pandia run --cpus %s -- %s", pi->list, cmd);
	free(set);
	free(cmd);
}

static void pins_release(struct pins *p)
{
	free(p->taskset);
	free(p->numactl);
	free(p->omp);
	free(p->run);
	free(p->loses);
}

static json_t *pins_json(const struct pins *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "taskset", json_string(p->taskset));
	json_object_set_new(o, "numactl", json_string(p->numactl));
	json_object_set_new(o, "omp", p->omp ? json_string(p->omp) :
			    json_null());
	json_object_set_new(o, "pandia_run", json_string(p->run));
	/* what each line cannot express, by line */
	if (p->loses || p->omp_why) {
		json_t *n = json_object();

		if (p->loses) {
			json_object_set_new(n, "taskset",
					    json_string(p->loses + 2));
			json_object_set_new(n, "numactl",
					    json_string(p->loses + 2));
		}
		if (p->omp_why)
			json_object_set_new(n, "omp",
					    json_string(p->omp_why));
		json_object_set_new(o, "notes", n);
	}
	return o;
}

static void pins_print(const struct pins *p)
{
	if (p->loses)
		printf("  %s  %s\n  %s  %s\n", p->taskset, p->loses,
		       p->numactl, p->loses);
	else
		printf("  %s\n  %s\n", p->taskset, p->numactl);
	if (p->omp)
		printf("  %s\n", p->omp);
	printf("  %s\n", p->run);
}

static json_t *info_json(const struct placement_info *pi)
{
	json_t *o = json_object();

	json_set_cpus(o, pi->os, pi->n);
	json_object_set_new(o, "threads", json_integer(pi->n));
	json_object_set_new(o, "cores", json_integer(pi->cores));
	json_object_set_new(o, "sockets", json_integer(pi->sockets));
	json_object_set_new(o, "time", json_real(pi->time));
	json_object_set_new(o, "speedup", json_real(pi->speedup));
	json_object_set_new(o, "bottleneck", json_string(pi->bottleneck));
	return o;
}

/* The input size asked for, or null. */
static json_t *size_json(const struct ctx *x)
{
	return isnan(x->o->size) ? json_null() : json_real(x->o->size);
}

static void print_header(const struct ctx *x)
{
	const struct pandia_machine *m = x->m;
	char mem[32], *cmd = raw_command(x->w), host[SHORT_BUF];

	printf("machine   %s: %d socket%s, %d cores, %d PUs\n",
	       shorten(m->host ? m->host : x->o->machine_path, host,
		       sizeof(host)), m->n_sockets,
	       m->n_sockets == 1 ? "" : "s", m->n_cores, m->n_pus);
	if (x->o->model != &model_pandia)
		printf("workload  %s: model %s, memory %s\n",
		       x->w->n_command ? cmd : x->o->workload_path,
		       x->o->model->name,
		       mempolicy_format(&x->mem, mem, sizeof(mem)));
	else
		printf("workload  %s: t1 %.4g s, p %.3g, o_s %.3g, l %.3g, "
		       "b %.3g, memory %s\n", x->w->n_command ? cmd :
		       x->o->workload_path, x->prm.t1, x->prm.p, x->prm.o_s,
		       x->prm.l, x->prm.b,
		       mempolicy_format(&x->mem, mem, sizeof(mem)));
	if (!isnan(x->o->size))
		printf("size      %.10g%s\n", x->o->size,
		       x->o->model == &model_pandia ?
		       " (t1 from the black-box model's T_seq)" : "");
	free(cmd);
}

/* ---- --placement ------------------------------------------------ */

static int parse_placement_text(const struct ctx *x, const char *text,
				int **pus, int *n)
{
	struct pandia_error err;
	int *os, i, *cnt, ret = -1;

	if (cpuexpr_parse(x->m, text, &os, n, &err) < 0)
		usage_error("predict", "--placement: %s", err.text);
	*pus = xcalloc((size_t)*n, sizeof(int));
	cnt = xcalloc((size_t)x->m->n_pus, sizeof(int));
	for (i = 0; i < *n; i++) {
		int p = machine_pu_index(x->m, os[i]);

		if (p < 0) {
			int *all, j;
			char *set;

			all = xcalloc((size_t)x->m->n_pus, sizeof(int));
			for (j = 0; j < x->m->n_pus; j++)
				all[j] = x->m->pus[j].os_index;
			set = cpuset_format(all, x->m->n_pus);
			error("placement '%s': PU %d is not "
				"in machine '%s' (its PUs are %s)",
				text, os[i], x->o->machine_path,
				set);
			free(set);
			free(all);
			goto out;
		}
		if (++cnt[p] > MAX_EXPLICIT_PER_PU) {
			error("placement '%s': more than %d "
				"threads on PU %d", text,
				MAX_EXPLICIT_PER_PU, os[i]);
			goto out;
		}
		(*pus)[i] = p;
	}
	ret = 0;
out:
	if (ret < 0) {
		free(*pus);
		*pus = NULL;
	}
	free(cnt);
	free(os);
	return ret;
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
		char *s;

		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "model",
				    json_string(x->o->model->name));
		json_object_set_new(root, "size", size_json(x));
		json_array_append_new(a, info_json(&pi));
		json_object_set_new(root, "placements", a);
		json_object_set_new(root, "pin", pins_json(&pins));
		s = json_to_text(root);
		fputs(s, stdout);
		free(s);
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

static int do_placement(struct ctx *x)
{
	struct pandia_error err;
	struct trace_arg ta = { false, NULL };
	struct placement_info pi;
	struct stack *st = NULL;
	struct space *sp;
	struct model md;
	struct pins pins;
	double sum;
	int *pus, n, ret = 1;
	json_t *root = NULL;

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
	if (x->o->explain) {
		st = stack_predicted(&md, pi.list, &err);
		if (!st) {
			error("placement %s: no speedup stack: %s", pi.list,
			      err.text);
			info_release(&pi);
			model_release(&md);
			space_free(sp);
			return 1;
		}
		if (!stack_sums(st, 0.03, &sum))
			warning("the stack of %s adds up to %.4g, not N = %d "
				"within 3%%", pi.list, sum, st->threads);
	}
	pins_make(x, &pi, &pins);
	if (x->o->json) {
		json_t *p = info_json(&pi), *a = json_array(), *res;
		int r;

		root = json_object();
		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "size", size_json(x));
		json_object_set_new(p, "amdahl", json_real(md.amdahl));
		json_object_set_new(p, "iterations",
				    json_integer(md.iterations));
		json_object_set_new(p, "converged",
				    json_boolean(md.converged));
		json_object_set_new(p, "threads_detail",
				    classes_json(&md, true));
		if (st)
			json_object_set_new(p, "stack", stack_to_json(st));
		json_array_append_new(a, p);
		json_object_set_new(root, "placements", a);
		json_object_set_new(root, "threads_detail",
				    classes_json(&md, true));
		json_object_set_new(root, "iterations",
				    json_integer(md.iterations));
		res = json_array();
		for (r = 0; r < md.n_res; r++) {
			json_t *o = json_object();
			char name[160];

			json_object_set_new(o, "resource", json_string(
				model_res_name(&md, r, name, sizeof(name))));
			json_object_set_new(o, "load", json_real(
				md.load[r] * md.res[r].cap_eff));
			json_object_set_new(o, "capacity",
					    json_real(md.res[r].cap));
			json_array_append_new(res, o);
		}
		json_object_set_new(root, "resources", res);
		json_object_set_new(root, "pin", pins_json(&pins));
		if (ta.json)
			json_object_set_new(root, "trace", ta.json);
		{
			char *s = json_to_text(root);

			fputs(s, stdout);
			free(s);
		}
		json_decref(root);
	} else {
		if (!x->o->trace)
			print_header(x);
		printf("\nplacement %s: %d thread%s on %d core%s of %d "
		       "socket%s\n", pi.list, n, n == 1 ? "" : "s", pi.cores,
		       pi.cores == 1 ? "" : "s", pi.sockets,
		       pi.sockets == 1 ? "" : "s");
		printf("predicted time %.4g s, speedup %.4g (Amdahl %.4g), "
		       "after %d iteration%s%s\n", pi.time, pi.speedup,
		       md.amdahl, md.iterations, md.iterations == 1 ? "" :
		       "s", md.converged ? "" : " (not converged: damped "
		       "and stopped)");
		printf("\nfinal state of each %s\n", ta.per_thread ?
		       "thread" : "class of threads (threads x count)");
		print_state_table(&md, ta.per_thread);
		printf("\nbottleneck of each %s\n", ta.per_thread ? "thread" :
		       "class");
		{
			int i, cnt = ta.per_thread ? n : md.n_classes;

			for (i = 0; i < cnt; i++) {
				int c = ta.per_thread ? md.thread_class[i] : i;
				char name[160];

				printf("  %-6d %s\n", i, md.bott[c] >= 0 &&
				       md.rawmax[c] > 1 ? model_res_name(&md,
				       md.bott[c], name, sizeof(name)) :
				       "- (no resource oversubscribed)");
			}
		}
		printf("\nresources (load of capacity, ratio) in the last "
		       "iteration\n");
		print_loads(&md);
		if (st) {
			char *t = stack_text(st, 2);

			printf("\nspeedup stack of N = %d: where the speedup "
			       "goes (docs/stacks.md)\n", n);
			fputs(t, stdout);
			free(t);
		}
		printf("\nto run it:\n");
		pins_print(&pins);
	}
	ret = 0;
	stack_free(st);
	pins_release(&pins);
	info_release(&pi);
	model_release(&md);
	space_free(sp);
	return ret;
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

static int do_rank(struct ctx *x)
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

/* ---- co-runs: several workloads, or copies ---------------------- */

struct corun_wl {
	const char *path;
	struct pandia_workload *w;
	void *state;
};

struct division {
	int k[MAX_CORUN];		/* PUs of each workload */
	double time[MAX_CORUN];
	double score;			/* the objective */
	double total;			/* the sum of the times */
	int pus;			/* PUs used */
	size_t order;			/* in counting order */
};

static double objective(const struct cli *o,
			const struct model_prediction *pr, int nw)
{
	double v = 0;
	int i;

	for (i = 0; i < nw; i++)
		v = o->sum ? v + pr[i].time : pr[i].time > v ? pr[i].time : v;
	return v;
}

/*
 * The order in which divisions hand out PUs: the first PU of every
 * core (socket by socket), then the second of every core, and so on.
 * A new array of m->pus indexes.
 */
static int *pu_order(const struct pandia_machine *m)
{
	int *ord = xcalloc((size_t)m->n_pus + 1, sizeof(int));
	int k = 0, p, c, maxp = 0;

	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].n_pus > maxp)
			maxp = m->cores[c].n_pus;
	for (p = 0; p < maxp; p++)
		for (c = 0; c < m->n_cores; c++)
			if (p < m->cores[c].n_pus)
				ord[k++] = m->cores[c].pus[p];
	return ord;
}

/* The next k (each >= 1, sum <= total) in counting order, or false. */
static bool next_division(int *k, int nw, int total)
{
	int i, j, sum;

	for (i = nw - 1; i >= 0; i--) {
		k[i]++;
		for (sum = 0, j = 0; j < nw; j++)
			sum += k[j];
		if (sum <= total)
			return true;
		k[i] = 1;
	}
	return false;
}

static int division_cmp(const void *a, const void *b)
{
	const struct division *x = a, *y = b;

	/* the objective to the models' precision, then fewer PUs, then
	   the other workloads' times */
	if (fabs(x->score - y->score) > 1e-9 * (x->score + y->score))
		return x->score < y->score ? -1 : 1;
	if (x->pus != y->pus)
		return x->pus < y->pus ? -1 : 1;
	if (fabs(x->total - y->total) > 1e-9 * (x->total + y->total))
		return x->total < y->total ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Parts of division K over the PU order ORD (pointers into ORD). */
static void division_parts(const int *ord, const int *k, int nw,
			   const struct corun_wl *wl,
			   struct model_corun_part *parts)
{
	int i, off = 0;

	for (i = 0; i < nw; i++) {
		parts[i].state = wl[i].state;
		parts[i].pus = ord + off;
		parts[i].n = k[i];
		off += k[i];
	}
}

static json_t *corun_wl_json(const struct ctx *x, const struct corun_wl *wl,
			     const struct model_corun_part *part,
			     const struct model_prediction *pr, int copies)
{
	json_t *o = json_object();

	json_object_set_new(o, "workload", json_string(wl->path));
	if (copies) {
		json_object_set_new(o, "copies", json_integer(copies));
	} else {
		struct ctx y = *x;
		struct placement_info pi;
		struct pins pins;

		memset(&pi, 0, sizeof(pi));
		pi.n = part->n;
		pi.os = os_of(x->m, part->pus, part->n);
		pi.list = cpulist_format_compact(pi.os, pi.n);
		y.w = wl->w;
		pins_make(&y, &pi, &pins);
		json_object_set_new(o, "cpus", json_string(pi.list));
		json_object_set_new(o, "threads", json_integer(part->n));
		json_object_set_new(o, "pin", pins_json(&pins));
		pins_release(&pins);
		info_release(&pi);
	}
	json_object_set_new(o, "time", json_real(pr->time));
	if (isfinite(pr->core_time))
		json_object_set_new(o, "core_time", json_real(pr->core_time));
	json_object_set_new(o, "speedup", json_real(pr->speedup));
	json_object_set_new(o, "bottleneck", json_string(
		pr->bottleneck ? pr->bottleneck : "-"));
	return o;
}

static void corun_wl_print(const struct ctx *x, int i,
			   const struct corun_wl *wl,
			   const struct model_corun_part *part,
			   const struct model_prediction *pr, int copies)
{
	struct ctx y = *x;
	struct placement_info pi;
	struct pins pins;

	if (copies) {
		printf("workload %d  %s: %d cop%s unpinned, %#.5g s each "
		       "(bottleneck %s)\n", i + 1, wl->path, copies,
		       copies == 1 ? "y" : "ies", pr->time,
		       pr->bottleneck ? pr->bottleneck : "-");
		return;
	}
	memset(&pi, 0, sizeof(pi));
	pi.n = part->n;
	pi.os = os_of(x->m, part->pus, part->n);
	pi.list = cpulist_format_compact(pi.os, pi.n);
	y.w = wl->w;
	pins_make(&y, &pi, &pins);
	printf("workload %d  %s: %d thread%s on %s, %#.5g s (bottleneck "
	       "%s)\n", i + 1, wl->path, pi.n, pi.n == 1 ? "" : "s", pi.list,
	       pr->time, pr->bottleneck ? pr->bottleneck : "-");
	pins_print(&pins);
	pins_release(&pins);
	info_release(&pi);
}

/* Every division of the machine's PUs, ranked; the best into *best. */
static int rank_divisions(const struct ctx *x, struct corun_wl *wl, int nw,
			  const int *ord, struct division **out, size_t *nout,
			  struct pandia_error *err)
{
	const struct model_def *md = x->o->model;
	struct model_corun_part parts[MAX_CORUN];
	struct model_prediction pr[MAX_CORUN];
	struct division *d = NULL;
	size_t n = 0, cap = 0;
	double count = 1;
	int k[MAX_CORUN], i;

	/* compositions with sum <= P: C(P, nw) */
	for (i = 0; i < nw; i++)
		count = count * (x->m->n_pus - i) / (i + 1);
	if (count > (double)x->o->max_placements)
		return perr_set(err, "%.0f divisions of %d PUs between %d "
				"workloads, above --max-placements %ld: give "
				"--placement for each", count, x->m->n_pus,
				nw, x->o->max_placements);
	for (i = 0; i < nw; i++)
		k[i] = 1;
	do {
		division_parts(ord, k, nw, wl, parts);
		if (md->corun(parts, nw, pr, err) < 0) {
			free(d);
			return -1;
		}
		if (n == cap) {
			cap = 2 * cap + 64;
			d = xrealloc(d, cap * sizeof(*d));
		}
		memset(&d[n], 0, sizeof(d[n]));
		for (i = 0; i < nw; i++) {
			d[n].k[i] = k[i];
			d[n].time[i] = pr[i].time;
			d[n].total += pr[i].time;
			d[n].pus += k[i];
		}
		d[n].score = objective(x->o, pr, nw);
		d[n].order = n;
		n++;
	} while (next_division(k, nw, x->m->n_pus));
	/* stable for equal scores: fewer PUs first, in counting order */
	qsort(d, n, sizeof(*d), division_cmp);
	*out = d;
	*nout = n;
	return 0;
}

static int do_corun(struct ctx *x)
{
	const struct cli *o = x->o;
	const struct model_def *md = o->model;
	struct corun_wl wl[MAX_CORUN];
	struct model_corun_part parts[MAX_CORUN];
	struct model_prediction pr[MAX_CORUN];
	struct pandia_error err;
	struct division *divs = NULL;
	size_t ndiv = 0, top, j;
	int nw = o->n_workloads, i, ret = 1, copies[MAX_CORUN];
	int *ord = NULL, *given[MAX_CORUN];
	char *why = NULL;

	memset(wl, 0, sizeof(wl));
	memset(pr, 0, sizeof(pr));
	memset(given, 0, sizeof(given));
	memset(copies, 0, sizeof(copies));
	if (!md->corun) {
		error("model '%s' does not predict co-runs or copies",
		      md->name);
		return 1;
	}
	for (i = 0; i < nw; i++) {
		wl[i].path = o->workload_paths[i];
		wl[i].w = workload_load(wl[i].path, &err);
		if (!wl[i].w) {
			perr_print(&err, stderr);
			goto out;
		}
		if (!workload_machine_matches(wl[i].w, x->m, &why)) {
			if (!o->force) {
				error("workload '%s' was profiled on another "
				      "machine than '%s': %s\npandia: profile "
				      "it on this machine, or use --force to "
				      "predict anyway", wl[i].path,
				      o->machine_path, why);
				goto out;
			}
			warning("workload '%s' was profiled on another "
				"machine (%s); predicting anyway", wl[i].path,
				why);
		}
		free(why);
		why = NULL;
	}
	x->w = wl[0].w;
	x->mem = o->has_memory ? o->memory : x->w->has_memory ?
		x->w->memory : (struct pandia_mempolicy){ MEM_LOCAL, -1 };
	for (i = 0; i < nw; i++) {
		wl[i].state = md->open(x->m, wl[i].w, &x->mem, &err);
		if (!wl[i].state) {
			if (err.source[0])
				perr_print(&err, stderr);
			else
				error("workload '%s': %s", wl[i].path,
				      err.text);
			goto out;
		}
	}

	if (o->n_copies) {
		for (i = 0; i < nw; i++) {
			copies[i] = o->copies[o->n_copies == 1 ? 0 : i];
			parts[i].state = wl[i].state;
			parts[i].pus = NULL;
			parts[i].n = copies[i];
		}
	} else if (o->n_placements) {
		for (i = 0; i < nw; i++) {
			if (parse_placement_text(x, o->placements[i],
						 &given[i], &parts[i].n) < 0)
				goto out;
			parts[i].state = wl[i].state;
			parts[i].pus = given[i];
		}
	} else {
		if (nw > x->m->n_pus) {
			error("%d workloads and %d PUs: every workload needs "
			      "a PU of its own in a division (give "
			      "--placement for each to share)", nw,
			      x->m->n_pus);
			goto out;
		}
		ord = pu_order(x->m);
		if (rank_divisions(x, wl, nw, ord, &divs, &ndiv, &err) < 0) {
			perr_print(&err, stderr);
			goto out;
		}
		division_parts(ord, divs[0].k, nw, wl, parts);
	}
	/* the chosen division (or the given one) again, for its details */
	if (md->corun(parts, nw, pr, &err) < 0) {
		perr_print(&err, stderr);
		goto out;
	}
	top = o->top > 0 && (size_t)o->top < ndiv ? (size_t)o->top : ndiv;

	if (o->json) {
		json_t *root = json_object(), *a = json_array();
		char *s;

		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "model", json_string(md->name));
		json_object_set_new(root, "machine",
				    json_string(o->machine_path));
		json_object_set_new(root, "mode", json_string(
			o->n_copies ? "copies" : o->n_placements ?
			"placements" : "divisions"));
		json_object_set_new(root, "objective", json_string(
			o->sum ? "sum" : "max"));
		json_object_set_new(root, "objective_time",
				    json_real(objective(o, pr, nw)));
		for (i = 0; i < nw; i++)
			json_array_append_new(a, corun_wl_json(x, &wl[i],
				&parts[i], &pr[i], copies[i]));
		json_object_set_new(root, "workloads", a);
		if (divs) {
			json_object_set_new(root, "ranked",
					    json_integer((json_int_t)ndiv));
			a = json_array();
			for (j = 0; j < top; j++) {
				struct model_corun_part dp[MAX_CORUN];
				json_t *d = json_object(), *ws = json_array();

				division_parts(ord, divs[j].k, nw, wl, dp);
				json_object_set_new(d, "rank", json_integer(
					(json_int_t)j + 1));
				json_object_set_new(d, "time",
						    json_real(divs[j].score));
				for (i = 0; i < nw; i++) {
					json_t *w1 = json_object();
					int *os = os_of(x->m, dp[i].pus,
							dp[i].n);
					char *l = cpulist_format_compact(
						os, dp[i].n);

					json_object_set_new(w1, "cpus",
							    json_string(l));
					json_object_set_new(w1, "threads",
						json_integer(dp[i].n));
					json_object_set_new(w1, "time",
						json_real(divs[j].time[i]));
					json_array_append_new(ws, w1);
					free(l);
					free(os);
				}
				json_object_set_new(d, "workloads", ws);
				json_array_append_new(a, d);
			}
			json_object_set_new(root, "divisions", a);
		}
		s = json_to_text(root);
		fputs(s, stdout);
		free(s);
		json_decref(root);
	} else {
		printf("machine   %s: %d socket%s, %d cores, %d PUs\n",
		       x->m->host ? x->m->host : o->machine_path,
		       x->m->n_sockets, x->m->n_sockets == 1 ? "" : "s",
		       x->m->n_cores, x->m->n_pus);
		printf("model     %s, %d workload%s together\n", md->name, nw,
		       nw == 1 ? "" : "s");
		if (divs) {
			printf("divisions %zu ranked by the %s\n\n%4s %10s",
			       ndiv, o->sum ? "sum of the times" :
			       "time of the slowest", "rank", "time (s)");
			for (i = 0; i < nw; i++)
				printf("  %-20s", "workload");
			putchar('\n');
			for (j = 0; j < top; j++) {
				struct model_corun_part dp[MAX_CORUN];

				division_parts(ord, divs[j].k, nw, wl, dp);
				printf("%4zu %#10.4g", j + 1, divs[j].score);
				for (i = 0; i < nw; i++) {
					int *os = os_of(x->m, dp[i].pus,
							dp[i].n);
					char *l = cpulist_format_compact(
						os, dp[i].n);
					char cell[64];

					snprintf(cell, sizeof(cell), "%d: %s "
						 "(%#.4g s)", i + 1, l,
						 divs[j].time[i]);
					printf("  %-20s", cell);
					free(l);
					free(os);
				}
				putchar('\n');
			}
			printf("\nthe best division:\n");
		}
		for (i = 0; i < nw; i++)
			corun_wl_print(x, i, &wl[i], &parts[i], &pr[i],
				       copies[i]);
	}
	ret = 0;
out:
	free(why);
	free(divs);
	free(ord);
	for (i = 0; i < nw; i++) {
		free(given[i]);
		if (wl[i].state)
			md->close(wl[i].state);
		workload_free(wl[i].w);
	}
	x->w = NULL;
	return ret;
}

/* ---- the command ------------------------------------------------ */

static void workload_cb(const char *cmd, const struct option *opt,
			void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, workload_paths);

	(void)opt;
	if (o->n_workloads == MAX_CORUN)
		usage_error(cmd, "at most %d workloads (-w)", MAX_CORUN);
	o->workload_paths[o->n_workloads++] = arg;
	o->workload_path = o->workload_paths[0];
}

static void placement_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, placements);

	(void)opt;
	if (o->n_placements == MAX_CORUN)
		usage_error(cmd, "at most %d placements (-p)", MAX_CORUN);
	o->placements[o->n_placements++] = arg;
	o->placement = o->placements[0];
}

static void copies_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, copies);
	char *tok, *save, *copy = xstrdup(arg);

	(void)opt;
	o->n_copies = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->n_copies == MAX_CORUN ||
		    !parse_int(tok, &o->copies[o->n_copies]) ||
		    o->copies[o->n_copies] < 1 ||
		    o->copies[o->n_copies] > 100000)
			usage_error(cmd, "--copies takes 1 to %d numbers from "
				    "1 to 100000, not '%s'", MAX_CORUN, arg);
		o->n_copies++;
	}
	free(copy);
	if (!o->n_copies)
		usage_error(cmd, "--copies takes a number, not '%s'", arg);
}

static void objective_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	(void)opt;
	if (strcmp(arg, "sum") && strcmp(arg, "max"))
		usage_error(cmd, "--objective takes max or sum, not '%s'",
			    arg);
	*(bool *)field = !strcmp(arg, "sum");
}

static void top_cb(const char *cmd, const struct option *opt, void *field,
		   const char *arg)
{
	int *top = field;

	(void)opt;
	if (!strcmp(arg, "all"))
		*top = 0;
	else if (!parse_int(arg, top) || *top < 0)
		usage_error(cmd, "--top takes a number >= 0, not '%s'", arg);
}

static void within_cb(const char *cmd, const struct option *opt,
		      void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, within);

	(void)opt;
	if (!parse_double(arg, &o->within) || !(o->within >= 0) ||
	    !isfinite(o->within))
		usage_error(cmd, "--within takes a percentage >= 0, not '%s'",
			    arg);
	o->within_given = true;
}

static void max_placements_cb(const char *cmd, const struct option *opt,
			      void *field, const char *arg)
{
	int max;

	(void)opt;
	if (!parse_int(arg, &max) || max < 1)
		usage_error(cmd, "--max-placements takes a number >= 1, not "
			    "'%s'", arg);
	*(long *)field = max;
}

#define O struct cli
static const struct option predict_options[] = {
	OPT_CALLBACK('w', "workload", O, workload_paths, workload_cb),
	OPT_CALLBACK('p', "placement", O, placements, placement_cb),
	OPT_CALLBACK(0, "copies", O, copies, copies_cb),
	OPT_CALLBACK(0, "objective", O, sum, objective_cb),
	OPT_FLAG(0, "trace", O, trace),
	OPT_FLAG(0, "explain", O, explain),
	OPT_CALLBACK_VAL('t', "threads", O, threads, opt_int_min, 1),
	OPT_CALLBACK(0, "top", O, top, top_cb),
	OPT_CALLBACK(0, "within", O, within, within_cb),
	OPT_CALLBACK(0, "max-placements", O, max_placements,
		     max_placements_cb),
	OPT_CALLBACK_VAL('j', "jobs", O, jobs, opt_int_min, 1),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_oversubscribe),
	OPT_SHARED(opt_mempolicy),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_model),
	OPT_SHARED(opt_size),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef O

/* What the options given ask that does not go together. */
static void check_args(const struct cli *o)
{
	if (!o->workload_path)
		usage_error("predict", "-w WORKLOAD is required");
	if (o->trace && !o->placement)
		usage_error("predict", "--trace needs --placement");
	if (o->explain && !o->placement)
		usage_error("predict", "--explain needs --placement");
	if (o->placement && o->threads)
		usage_error("predict", "--placement and --threads do not go "
			    "together");
	if (o->n_workloads > 1 || o->n_copies) {
		if (o->trace)
			usage_error("predict", "--trace is for one workload's "
				    "placement");
		if (o->threads)
			usage_error("predict", "--threads is for one workload");
		if (o->n_copies && o->n_placements)
			usage_error("predict", "--copies (unpinned) and "
				    "--placement do not go together");
		if (o->n_copies > 1 && o->n_copies != o->n_workloads)
			usage_error("predict", "--copies: %d numbers for %d "
				    "workloads (give one for all, or one per "
				    "-w)", o->n_copies, o->n_workloads);
		if (o->n_placements && o->n_placements != o->n_workloads)
			usage_error("predict", "%d --placement for %d "
				    "workloads (one per -w, in order)",
				    o->n_placements, o->n_workloads);
	} else if (o->n_placements > 1) {
		usage_error("predict", "several --placement need as many "
			    "workloads (-w)");
	}
	if (o->sum && o->n_workloads < 2)
		usage_error("predict", "--objective is for co-runs (several "
			    "-w)");
}

static void parse_args(int argc, char **argv, struct cli *o)
{
	struct opt_common c;
	int first;

	memset(o, 0, sizeof(*o));
	o->top = 10;
	o->within = DEFAULT_WITHIN;
	o->max_placements = RANK_DEFAULT_MAX;
	opt_common_init(&c, 1);
	first = parse_options("predict", argc, argv, predict_options, o, &c);
	if (first < argc)
		usage_error("predict", "unexpected argument '%s'",
			    argv[first]);
	o->machine_path = c.machine;
	o->k = c.k;
	o->has_memory = c.has_memory;
	o->memory = c.memory;
	o->force = c.force;
	o->model = c.model;
	o->size = c.size;
	o->json = c.json;
	o->quiet = c.quiet;
	check_args(o);
}

static int pandia_checks(struct ctx *x);

int cmd_predict(int argc, char **argv)
{
	struct pandia_error err;
	struct cli o;
	struct ctx x;
	char *why = NULL, *mpath = NULL;
	int ret = 1;

	parse_args(argc, argv, &o);
	memset(&x, 0, sizeof(x));
	x.o = &o;
	x.m = open_machine(o.quiet ? NULL : "predict", o.machine_path, true,
			   &mpath);
	if (!x.m)
		return 1;
	o.machine_path = mpath;
	if (o.n_workloads > 1 || o.n_copies) {
		ret = do_corun(&x);
		machine_free(x.m);
		free(mpath);
		return ret;
	}
	x.w = workload_load(o.workload_path, &err);
	if (!x.w) {
		perr_print(&err, stderr);
		goto out;
	}
	if (!workload_machine_matches(x.w, x.m, &why)) {
		if (!o.force) {
			error("workload '%s' was profiled on "
				"another machine than '%s': %s\n"
				"pandia: profile it on this machine, or use "
				"--force to predict anyway", o.workload_path,
				o.machine_path, why);
			goto out;
		}
		warning("workload '%s' was profiled "
			"on another machine (%s); predicting anyway",
			o.workload_path, why);
	}
	model_params_of(x.w, &x.prm);
	if (x.w->unreliable)
		warning("'%s' is marked unreliable (profiled with "
			"--keep-unreliable): %s", o.workload_path,
			x.w->unreliable);
	if (o.model == &model_pandia && pandia_checks(&x) < 0)
		goto out;
	x.mem = o.has_memory ? o.memory : x.w->has_memory ? x.w->memory :
		(struct pandia_mempolicy){ MEM_LOCAL, -1 };
	if (o.model != &model_pandia) {
		if (o.trace)
			usage_error("predict", "--trace is the Pandia model's");
		if (o.explain)
			usage_error("predict", "--explain is the Pandia "
				    "model's");
		x.state = o.model->open(x.m, x.w, &x.mem, &err);
		if (!x.state) {
			perr_print(&err, stderr);
			goto out;
		}
	}
	ret = o.placement ? do_placement(&x) : do_rank(&x);
	if (x.state)
		o.model->close(x.state);
out:
	free(why);
	free(mpath);
	workload_free(x.w);
	machine_free(x.m);
	return ret;
}

/*
 * The Pandia model's parameters: there, t1 at --size, and warnings
 * for those not measured.  0, or -1 after saying why.
 */
static int pandia_checks(struct ctx *x)
{
	const struct cli *o = x->o;
	struct pandia_error err;

	if (!workload_has_model(x->w)) {
		error("workload '%s' has no Pandia model (\"model\"), only "
		      "other models' parameters: choose one with --model",
		      o->workload_path);
		return -1;
	}
	if (!isnan(o->size)) {
		const char *warn = NULL;

		if (model_pandia_at(x->w, o->size, &x->prm.t1, &x->prm.p,
				    &warn, &err) < 0) {
			perr_print(&err, stderr);
			error("--size %g needs the black-box model's T_seq",
			      o->size);
			return -1;
		}
		if (warn)
			warning("size %g: %s", o->size, warn);
	}
	fit_unmeasured(x->w, x->m, o->k, warning_text, NULL);
	{
		int lvl, r;

		for (r = 0; r < WR_COUNT; r++)
			if (x->w->listed[r] &&
			    wl_param_is_bound(&x->w->demand[r]))
				warning("the %s demand "
					"is only known to be below %.3g %s: "
					"predicting without it, so placements "
					"limited by %s may be predicted too "
					"fast", wl_resource_name(r),
					x->w->demand[r].value,
					r == WR_INSTRUCTIONS ? "ops/s" :
					"bytes/s", wl_resource_name(r));

		if (x->prm.d[WR_INSTRUCTIONS] > 0 && x->m->peak_reason)
			warning("the machine's core rate is unknown (%s): "
				"predicting without it", x->m->peak_reason);
		for (lvl = 0; lvl < LVL_COUNT; lvl++)
			if (x->prm.d[WR_L1 + lvl] > 0 &&
			    !x->m->links[lvl].present)
				warning("the workload "
					"demands %s bandwidth but the machine "
					"describes no %s link: ignored",
					level_name(lvl), level_name(lvl));
	}
	return 0;
}
