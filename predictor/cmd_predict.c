/*
 * cmd_predict.c - pandia predict: rank every placement, or explain one.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cmd.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/model.h"
#include "predictor/rank.h"
#include "predictor/space.h"

const char usage_predict[] =
"usage: pandia predict -m MACHINE -w WORKLOAD [options]\n"
"\n"
"Predict the run time of WORKLOAD's thread placements on MACHINE with\n"
"the Pandia model, rank every canonical placement (up to swapping\n"
"identical cores and sockets) and print the lines that pin the best.\n"
"\n"
"options:\n"
"  -m, --machine FILE      machine description (pandia-machine/1)\n"
"  -w, --workload FILE     workload description (pandia-workload/1)\n"
"  -p, --placement LIST    predict this placement only (OS PU indexes,\n"
"                          one per thread, a PU may repeat) and show\n"
"                          each thread and each resource\n"
"      --trace             with --placement: every step of every\n"
"                          iteration, as in the paper's Figures 7 and 9\n"
"  -t, --threads N         rank only placements with N threads\n"
"  -n, --top N             show the N best placements (default 10; 0:\n"
"                          all of them)\n"
"      --within PCT        pin the placement with the fewest cores whose\n"
"                          time is within PCT%% of the best (without it:\n"
"                          the best; the 5%% one is shown either way)\n"
"  -k, --oversubscribe K   up to K threads per PU (default 1)\n"
"      --memory POLICY     where the workload's memory lives: local,\n"
"                          interleave or node:N (default: the workload's\n"
"                          \"memory\" field, else local)\n"
"      --max-placements N  above N canonical placements rank the reduced\n"
"                          space (see pandia-predict(1); default 5000000)\n"
"  -j, --jobs N            worker threads (default: one per CPU, <= 16)\n"
"      --force             predict a workload profiled on another machine\n"
"      --json              the result as JSON on stdout\n"
"\n"
"exit status: 0 success, 1 failure, 2 usage.  See pandia-predict(1).\n";

#define DEFAULT_WITHIN 5.0
#define MAX_EXPLICIT_PER_PU 64

struct cli {
	const char *machine_path, *workload_path, *placement;
	bool trace, json, force, within_given;
	int threads, top, k, jobs;
	double within;
	long max_placements;
	bool has_memory;
	struct pandia_mempolicy memory;
};

struct ctx {
	struct cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w;
	struct model_params prm;
	struct pandia_mempolicy mem;
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

/*
 * A placement as it can be typed back: thread order kept, ascending
 * runs of three or more written "a-b" ("0-3,8,8").  New string.
 */
static char *placement_string(const int *os, int n)
{
	size_t cap = 16 * (size_t)n + 16, len = 0;
	char *buf = xmalloc(cap);
	int i, j, k;

	buf[0] = '\0';
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && os[j] == os[j - 1] + 1; j++)
			;
		if (j - i >= 3) {
			len += (size_t)snprintf(buf + len, cap - len, "%s%d-%d",
						i ? "," : "", os[i], os[j - 1]);
			continue;
		}
		for (k = i; k < j; k++)
			len += (size_t)snprintf(buf + len, cap - len, "%s%d",
						k ? "," : "", os[k]);
	}
	return buf;
}

/* How many different values sorted V holds. */
static int distinct(const int *v, int n)
{
	int i, d = n > 0;

	for (i = 1; i < n; i++)
		d += v[i] != v[i - 1];
	return d;
}

/* Shell-quote one word when it needs it.  New string. */
static char *shell_word(const char *s)
{
	const char *p;
	size_t len = 3;
	char *out, *o;

	if (*s && !s[strcspn(s, " \t\n'\"\\$`*?[]{}()<>|&;!#~")])
		return xstrdup(s);
	for (p = s; *p; p++)
		len += *p == '\'' ? 4 : 1;
	out = o = xmalloc(len);
	*o++ = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

/* The workload's command with {threads} and {cpus} filled in. */
static char *command_line(const struct pandia_workload *w, int threads,
			  const char *cpus)
{
	size_t len = 0, cap = 64;
	char *out = xmalloc(cap), num[16];
	int i;

	out[0] = '\0';
	if (!w->n_command)
		return strcpy(out, "CMD");
	snprintf(num, sizeof(num), "%d", threads);
	for (i = 0; i < w->n_command; i++) {
		const char *a = w->command[i];
		char *sub = NULL, *q;
		size_t need;

		/* substitute every {threads} and {cpus} */
		sub = xstrdup(a);
		for (;;) {
			const char *key = NULL, *val = NULL;
			char *t;

			if ((q = strstr(sub, "{threads}"))) {
				key = "{threads}";
				val = num;
			} else if ((q = strstr(sub, "{cpus}"))) {
				key = "{cpus}";
				val = cpus;
			} else {
				break;
			}
			t = xasprintf("%.*s%s%s", (int)(q - sub), sub, val,
				      q + strlen(key));
			free(sub);
			sub = t;
		}
		q = shell_word(sub);
		need = len + strlen(q) + 2;
		if (need > cap) {
			cap = 2 * need;
			out = xrealloc(out, cap);
		}
		len += (size_t)snprintf(out + len, cap - len, "%s%s",
					i ? " " : "", q);
		free(q);
		free(sub);
	}
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
	out[0] = '\0';
	for (i = 0; i < w->n_command; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, w->command[i]);
	}
	return out;
}

/* ---- one placement, explained ----------------------------------- */

struct placement_info {
	int n;			/* threads */
	int *pus;		/* m->pus indexes */
	int *os;		/* OS indexes */
	char *list;		/* placement_string */
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

/* Predict PUS (taken over) with a fresh model; fills pi. */
static void predict_pus(struct model *md, int *pus, int n,
			struct placement_info *pi)
{
	const struct pandia_machine *m = md->sp->m;

	memset(pi, 0, sizeof(*pi));
	pi->n = n;
	pi->pus = pus;
	pi->os = os_of(m, pus, n);
	pi->list = placement_string(pi->os, n);
	usage_of(m, pus, n, &pi->cores, &pi->sockets);
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
};

static void pins_make(const struct ctx *x, const struct placement_info *pi,
		      struct pins *p)
{
	char *set = cpuset_format(pi->os, pi->n);
	char *cmd = command_line(x->w, pi->n, pi->list);
	char *places, mem[48];
	size_t cap = 8 * (size_t)pi->n + 8, len = 0;
	int i;

	places = xmalloc(cap);
	places[0] = '\0';
	for (i = 0; i < pi->n; i++)
		len += (size_t)snprintf(places + len, cap - len, "%s{%d}",
					i ? "," : "", pi->os[i]);
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
	p->taskset = xasprintf("taskset -c %s %s", set, cmd);
	p->numactl = xasprintf("numactl --physcpubind=%s %s %s", set, mem,
			       cmd);
	p->omp = xasprintf("OMP_NUM_THREADS=%d OMP_PLACES='%s' "
			   "OMP_PROC_BIND=close %s", pi->n, places, cmd);
	p->run = xasprintf("pandia run --cpus %s -- %s", pi->list, cmd);
	free(set);
	free(cmd);
	free(places);
}

static void pins_release(struct pins *p)
{
	free(p->taskset);
	free(p->numactl);
	free(p->omp);
	free(p->run);
}

static json_t *pins_json(const struct pins *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "taskset", json_string(p->taskset));
	json_object_set_new(o, "numactl", json_string(p->numactl));
	json_object_set_new(o, "omp", json_string(p->omp));
	json_object_set_new(o, "pandia_run", json_string(p->run));
	return o;
}

static void pins_print(const struct pins *p)
{
	printf("  %s\n  %s\n  %s\n  %s\n", p->taskset, p->numactl, p->omp,
	       p->run);
}

static json_t *info_json(const struct placement_info *pi)
{
	json_t *o = json_object();

	json_object_set_new(o, "cpus", json_string(pi->list));
	json_object_set_new(o, "threads", json_integer(pi->n));
	json_object_set_new(o, "cores", json_integer(pi->cores));
	json_object_set_new(o, "sockets", json_integer(pi->sockets));
	json_object_set_new(o, "time", json_real(pi->time));
	json_object_set_new(o, "speedup", json_real(pi->speedup));
	json_object_set_new(o, "bottleneck", json_string(pi->bottleneck));
	return o;
}

static void print_header(const struct ctx *x)
{
	const struct pandia_machine *m = x->m;
	char mem[32], *cmd = raw_command(x->w);

	printf("machine   %s: %d socket%s, %d cores, %d PUs\n",
	       m->host ? m->host : x->o->machine_path, m->n_sockets,
	       m->n_sockets == 1 ? "" : "s", m->n_cores, m->n_pus);
	printf("workload  %s: t1 %.4g s, p %.3g, o_s %.3g, l %.3g, b %.3g, "
	       "memory %s\n", x->w->n_command ? cmd : x->o->workload_path,
	       x->prm.t1, x->prm.p, x->prm.o_s, x->prm.l, x->prm.b,
	       mempolicy_format(&x->mem, mem, sizeof(mem)));
	free(cmd);
}

/* ---- --placement ------------------------------------------------ */

static int parse_placement(const struct ctx *x, int **pus, int *n)
{
	struct pandia_error err;
	int *os, i, *cnt, ret = -1;

	if (cpulist_parse(x->o->placement, &os, n, &err) < 0)
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
			fprintf(stderr, "pandia: placement '%s': PU %d is not "
				"in machine '%s' (its PUs are %s)\n",
				x->o->placement, os[i], x->o->machine_path,
				set);
			free(set);
			free(all);
			goto out;
		}
		if (++cnt[p] > MAX_EXPLICIT_PER_PU) {
			fprintf(stderr, "pandia: placement '%s': more than %d "
				"threads on PU %d\n", x->o->placement,
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

static int do_placement(struct ctx *x)
{
	struct pandia_error err;
	struct trace_arg ta = { false, NULL };
	struct placement_info pi;
	struct space *sp;
	struct model md;
	struct pins pins;
	int *pus, n, ret = 1;
	json_t *root = NULL;

	if (parse_placement(x, &pus, &n) < 0)
		return 1;
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
	predict_pus(&md, pus, n, &pi);
	pins_make(x, &pi, &pins);
	if (x->o->json) {
		json_t *p = info_json(&pi), *a = json_array(), *res;
		int r;

		root = json_object();
		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(p, "amdahl", json_real(md.amdahl));
		json_object_set_new(p, "iterations",
				    json_integer(md.iterations));
		json_object_set_new(p, "converged",
				    json_boolean(md.converged));
		json_object_set_new(p, "threads_detail",
				    classes_json(&md, true));
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
		printf("\nto run it:\n");
		pins_print(&pins);
	}
	ret = 0;
	pins_release(&pins);
	info_release(&pi);
	model_release(&md);
	space_free(sp);
	return ret;
}

/* ---- ranking ---------------------------------------------------- */

/*
 * What OMP_PROC_BIND does with N threads over the places {0},{1},...
 * (every PU in OS order, libgomp's default place list): close puts
 * thread i on place i (beyond the places, each place gets N/P
 * consecutive threads); spread puts thread i at the start of the i-th
 * of N equal subpartitions.  Both are floor(i * P / N) when N >= P.
 */
static int *heuristic(const struct pandia_machine *m, bool close, int n)
{
	int *pus = xcalloc((size_t)n, sizeof(int)), P = m->n_pus, i;

	for (i = 0; i < n; i++)
		pus[i] = close && n <= P ? i : (int)((long)i * P / n);
	return pus;
}

/* Entry i of the ranking, with the ranking's own prediction. */
static void canonical_info(const struct ctx *x, const struct ranking *r,
			   size_t i, struct placement_info *pi)
{
	const struct rank_entry *e = &r->e[i];

	memset(pi, 0, sizeof(*pi));
	pi->n = space_pus(r->sp, rank_state(r, i), &pi->pus);
	pi->os = os_of(x->m, pi->pus, pi->n);
	pi->list = placement_string(pi->os, pi->n);
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
				x->o->jobs };
	struct placement_info best, within, defs[3];
	const char *def_names[3] = {
		"all PUs (the OS default)", "OMP_PROC_BIND=close",
		"OMP_PROC_BIND=spread",
	};
	struct ranking r;
	struct space *sp;
	struct model md;
	struct pins pins;
	size_t *idx, ntop, i, bi, wi;
	int ret = 1, d, n_def;
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
	model_init(&md, sp, &x->prm);
	bi = rank_best(&r);
	wi = rank_within(&r, x->o->within);
	canonical_info(x, &r, bi, &best);
	canonical_info(x, &r, wi, &within);
	/* what users get without pandia */
	n_def = 0;
	{
		int nt = x->o->threads ? x->o->threads : best.n;
		int *all = xcalloc((size_t)x->m->n_pus, sizeof(int));

		for (d = 0; d < x->m->n_pus; d++)
			all[d] = d;
		predict_pus(&md, all, x->m->n_pus, &defs[n_def++]);
		predict_pus(&md, heuristic(x->m, true, nt), nt,
			    &defs[n_def++]);
		predict_pus(&md, heuristic(x->m, false, nt), nt,
			    &defs[n_def++]);
	}
	chosen = x->o->within_given ? &within : &best;
	pins_make(x, chosen, &pins);
	ntop = x->o->top > 0 ? (size_t)x->o->top : r.n;
	idx = xcalloc(ntop + 1, sizeof(*idx));
	ntop = rank_top(&r, ntop, idx);
	space_count_format(r.full, cnt, sizeof(cnt));

	if (x->o->json) {
		json_t *root = json_object(), *a = json_array(), *o;
		char *s;

		json_object_set_new(root, "schema",
				    json_string("pandia-predict/1"));
		json_object_set_new(root, "machine",
				    json_string(x->o->machine_path));
		json_object_set_new(root, "workload",
				    json_string(x->o->workload_path));
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
			char *list = placement_string(os, n);

			o = json_object();
			json_object_set_new(o, "rank", json_integer(
				(json_int_t)i + 1));
			json_object_set_new(o, "cpus", json_string(list));
			json_object_set_new(o, "threads",
					    json_integer(e->threads));
			json_object_set_new(o, "cores", json_integer(e->cores));
			json_object_set_new(o, "sockets",
					    json_integer(e->sockets));
			json_object_set_new(o, "time", json_real(e->time));
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
		json_object_set_new(root, "best", info_json(&best));
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
		printf("\n%4s %7s %5s %7s %10s %8s  %-18s %s\n", "rank",
		       "threads", "cores", "sockets", "time (s)", "speedup",
		       "bottleneck", "cpus");
		for (i = 0; i < ntop; i++) {
			const struct rank_entry *e = &r.e[idx[i]];
			int *pus, n = space_pus(sp, rank_state(&r, idx[i]),
						&pus);
			int *os = os_of(x->m, pus, n);
			char *list = placement_string(os, n);

			char *set = cpuset_format(os, n);

			printf("%4zu %7d %5d %7d %#10.4g %#8.4g  %-18s %s%s\n",
			       i + 1, e->threads, e->cores, e->sockets,
			       e->time, e->speedup, bottleneck_name(e->bott),
			       set, distinct(os, n) < n ? " (PUs shared)" : "");
			free(set);
			free(list);
			free(os);
			free(pus);
		}
		{
			char *bs = set_text(&best), *ws = set_text(&within);

			printf("\nbest        %d threads on %s: %#.4g s, "
			       "speedup %#.4g\n", best.n, bs, best.time,
			       best.speedup);
			printf("within %g%%  %d threads on %d cores, %s: "
			       "%#.4g s, %+.1f%% vs best\n", x->o->within,
			       within.n, within.cores, ws, within.time,
			       100 * (within.time / best.time - 1));
			free(bs);
			free(ws);
		}
		printf("\nwithout pandia\n");
		for (d = 0; d < n_def; d++) {
			char *ds = set_text(&defs[d]);

			printf("  %-26s %3d threads: %#10.4g s, speedup "
			       "%#7.4g (%+.1f%% vs best)  %s\n", def_names[d],
			       defs[d].n, defs[d].time, defs[d].speedup,
			       100 * (defs[d].time / best.time - 1), ds);
			free(ds);
		}
		printf("\nto run the %s placement:\n", x->o->within_given ?
		       "cheapest-within" : "best");
		pins_print(&pins);
	}
	ret = 0;
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

/* ---- the command ------------------------------------------------ */

enum {
	OPT_TRACE = 256, OPT_WITHIN, OPT_MEMORY, OPT_MAX, OPT_FORCE, OPT_JSON,
};

static void parse_args(int argc, char **argv, struct cli *o)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "workload", required_argument, NULL, 'w' },
		{ "placement", required_argument, NULL, 'p' },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "threads", required_argument, NULL, 't' },
		{ "top", required_argument, NULL, 'n' },
		{ "within", required_argument, NULL, OPT_WITHIN },
		{ "oversubscribe", required_argument, NULL, 'k' },
		{ "memory", required_argument, NULL, OPT_MEMORY },
		{ "max-placements", required_argument, NULL, OPT_MAX },
		{ "jobs", required_argument, NULL, 'j' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ NULL, 0, NULL, 0 },
	};
	struct pandia_error err;
	int c, max;

	memset(o, 0, sizeof(*o));
	o->top = 10;
	o->k = 1;
	o->within = DEFAULT_WITHIN;
	o->max_placements = RANK_DEFAULT_MAX;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":m:w:p:t:n:k:j:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'm':
			o->machine_path = optarg;
			break;
		case 'w':
			o->workload_path = optarg;
			break;
		case 'p':
			o->placement = optarg;
			break;
		case OPT_TRACE:
			o->trace = true;
			break;
		case 't':
			if (!parse_int(optarg, &o->threads) || o->threads < 1)
				usage_error("predict", "--threads takes a "
					    "number >= 1, not '%s'", optarg);
			break;
		case 'n':
			if (!strcmp(optarg, "all"))
				o->top = 0;
			else if (!parse_int(optarg, &o->top) || o->top < 0)
				usage_error("predict", "--top takes a number "
					    ">= 0, not '%s'", optarg);
			break;
		case OPT_WITHIN:
			if (!parse_double(optarg, &o->within) ||
			    !(o->within >= 0) || !isfinite(o->within))
				usage_error("predict", "--within takes a "
					    "percentage >= 0, not '%s'",
					    optarg);
			o->within_given = true;
			break;
		case 'k':
			if (!parse_int(optarg, &o->k) || o->k < 1 ||
			    o->k > SPACE_MAX_K)
				usage_error("predict", "--oversubscribe takes "
					    "1 to %d threads per PU, not '%s'",
					    SPACE_MAX_K, optarg);
			break;
		case OPT_MEMORY:
			if (mempolicy_parse(optarg, &o->memory, &err) < 0)
				usage_error("predict", "--memory: %s",
					    err.text);
			o->has_memory = true;
			break;
		case OPT_MAX:
			if (!parse_int(optarg, &max) || max < 1)
				usage_error("predict", "--max-placements takes "
					    "a number >= 1, not '%s'", optarg);
			o->max_placements = max;
			break;
		case 'j':
			if (!parse_int(optarg, &o->jobs) || o->jobs < 1)
				usage_error("predict", "--jobs takes a number "
					    ">= 1, not '%s'", optarg);
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case ':':
			usage_error("predict", "option '%s' needs a value",
				    argv[optind - 1]);
			break;
		default:
			usage_error("predict", "unknown option '%s'",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("predict", "unexpected argument '%s'",
			    argv[optind]);
	if (!o->machine_path)
		usage_error("predict", "-m MACHINE is required");
	if (!o->workload_path)
		usage_error("predict", "-w WORKLOAD is required");
	if (o->trace && !o->placement)
		usage_error("predict", "--trace needs --placement");
	if (o->placement && o->threads)
		usage_error("predict", "--placement and --threads do not go "
			    "together");
}

int cmd_predict(int argc, char **argv)
{
	struct pandia_error err;
	struct cli o;
	struct ctx x;
	char *why = NULL;
	int ret = 1;

	parse_args(argc, argv, &o);
	memset(&x, 0, sizeof(x));
	x.o = &o;
	x.m = machine_load(o.machine_path, &err);
	if (!x.m) {
		perr_print(&err, stderr);
		return 1;
	}
	x.w = workload_load(o.workload_path, &err);
	if (!x.w) {
		perr_print(&err, stderr);
		goto out;
	}
	if (!workload_machine_matches(x.w, x.m, &why)) {
		if (!o.force) {
			fprintf(stderr, "pandia: workload '%s' was profiled on "
				"another machine than '%s': %s\n"
				"pandia: profile it on this machine, or use "
				"--force to predict anyway\n", o.workload_path,
				o.machine_path, why);
			goto out;
		}
		fprintf(stderr, "pandia: warning: workload '%s' was profiled "
			"on another machine (%s); predicting anyway\n",
			o.workload_path, why);
	}
	model_params_of(x.w, &x.prm);
	if (!x.w->o_s.known && x.m->n_sockets > 1)
		fprintf(stderr, "pandia: warning: o_s was not measured (%s): "
			"predicting without inter-socket overhead\n",
			x.w->o_s.status ? x.w->o_s.status : "no reason given");
	if (!x.w->l.known)
		fprintf(stderr, "pandia: warning: l was not measured (%s): "
			"predicting with l = 0 (lock-step)\n",
			x.w->l.status ? x.w->l.status : "no reason given");
	if (!x.w->b.known && (machine_smt(x.m) != 1 || o.k > 1))
		fprintf(stderr, "pandia: warning: b was not measured (%s): "
			"predicting without burstiness\n",
			x.w->b.status ? x.w->b.status : "no reason given");
	{
		int lvl, r;

		for (r = 0; r < WR_COUNT; r++)
			if (x.w->listed[r] &&
			    wl_param_is_bound(&x.w->demand[r]))
				fprintf(stderr, "pandia: warning: the %s demand "
					"is only known to be below %.3g %s: "
					"predicting without it, so placements "
					"limited by %s may be predicted too "
					"fast\n", wl_resource_name(r),
					x.w->demand[r].value,
					r == WR_INSTRUCTIONS ? "ops/s" :
					"bytes/s", wl_resource_name(r));

		for (lvl = 0; lvl < LVL_COUNT; lvl++)
			if (x.prm.d[WR_L1 + lvl] > 0 &&
			    !x.m->links[lvl].present)
				fprintf(stderr, "pandia: warning: the workload "
					"demands %s bandwidth but the machine "
					"describes no %s link: ignored\n",
					level_name(lvl), level_name(lvl));
	}
	x.mem = o.has_memory ? o.memory : x.w->has_memory ? x.w->memory :
		(struct pandia_mempolicy){ MEM_LOCAL, -1 };
	ret = o.placement ? do_placement(&x) : do_rank(&x);
out:
	free(why);
	workload_free(x.w);
	machine_free(x.m);
	return ret;
}
