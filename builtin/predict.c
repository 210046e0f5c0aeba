/*
 * cmd_predict.c - pandia predict: rank every placement, or explain one.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "builtin/predict.h"
#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/shellword.h"
#include "common/strbuf.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/fit.h"
#include "predictor/pandia/model.h"
#include "predictor/pandia/params.h"
#include "predictor/rank.h"

const char usage_predict[] =
"usage: pandia predict [-m MACHINE] -w WORKLOAD [options]\n"
"       pandia predict [-m MACHINE] -w WORKLOAD --ranks R|any [options]\n"
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
"                          workload's time, the default) or sum\n""      --ranks R|any       a job of R processes (MPI ranks), each a copy\n"
"                          of the workload at its own PUs: rank the\n"
"                          divisions of the machine into R ranks of\n"
"                          --threads (or 1 to PUs/R) threads; any: every\n"
"                          R that divides the PUs\n"
"      --trace             with --placement: every step of every\n"
"                          iteration, as in the paper's Figures 7 and 9\n"
"      --explain           with --placement: the predicted speedup stack,\n"
"                          where the speedup goes (docs/stacks.md)\n"
"  -t, --threads N         rank only placements with N threads (with\n"
"                          --ranks: N threads per rank)\n"
"      --top N             show the N best placements (default 10; 0:\n"
"                          all of them)\n"
"      --within PCT        pin the placement with the fewest cores whose\n"
"                          time is within PCT% of the best (without it:\n"
"                          the best; the 5% one is shown either way)\n"
"      --lines LIST        the pin lines to print: all, or of taskset,\n"
"                          numactl, omp, gomp, kmp, hwloc, likwid, srun,\n"
"                          ompi (mpirun, a rankfile), mapby (mpirun\n"
"                          --map-by), mpich (mpiexec.mpich), systemd,\n"
"                          docker and run (default\n"
"                          taskset,numactl,omp,run\n"
"                          and those of the tools on $PATH)\n"
"  -k, --oversubscribe K   up to K threads per PU (default 1)\n"
"      --cpu-quota Q       predict for a container whose CPU quota is Q\n"
"                          PUs' time per second (Q >= 1; default: the\n"
"                          quota the machine was measured under, if any)\n"
"      --memory POLICY     where the workload's memory lives: local,\n"
"                          interleave, spread (first touch by the threads\n"
"                          on the sockets in use), even (the same, evenly\n"
"                          over their nodes) or node:N (default: the\n"
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
"  -v, --verbose           notes said once on this host (why perf cannot\n"
"                          count here, demands known as bounds) in full\n"
"                          again\n"
"\n"
"exit status: 0 success, 1 failure, 2 usage.  See pandia-predict(1).\n";

#define DEFAULT_WITHIN 5.0
#define MAX_EXPLICIT_PER_PU 64

/* ---- small helpers ---------------------------------------------- */

/* OS indexes of m->pus indexes: a new array. */
int *os_of(const struct pandia_machine *m, const int *pus, int n)
{
	int *os = xcalloc((size_t)(n ? n : 1), sizeof(int)), i;

	for (i = 0; i < n; i++)
		os[i] = m->pus[pus[i]].os_index;
	return os;
}

void ctx_borrow(struct ctx *x, struct cli *o, struct pandia_machine *m,
		struct pandia_workload *w, const struct model_def *model,
		const struct pandia_mempolicy *mem, void *state)
{
	memset(o, 0, sizeof(*o));
	o->size = NAN;
	o->model = model;
	memset(x, 0, sizeof(*x));
	x->o = o;
	x->m = m;
	x->w = w;
	x->mem = *mem;
	x->state = state;
	model_params_of(w, &x->prm);
}

const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* How many different values sorted V holds. */
int distinct(const int *v, int n)
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
char *command_line(const struct pandia_workload *w, int threads,
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

/* ---- one placement ---------------------------------------------- */

void info_release(struct placement_info *pi)
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
void predict_pus(const struct ctx *x, struct model *md, int *pus, int n,
		 struct placement_info *pi)
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

json_t *info_json(const struct placement_info *pi)
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
json_t *size_json(const struct ctx *x)
{
	return isnan(x->o->size) ? json_null() : json_real(x->o->size);
}

void print_header(const struct ctx *x)
{
	const struct pandia_machine *m = x->m;
	/* the command quoted for the shell, as the pin lines are */
	char mem[32], host[SHORT_BUF],
	     *cmd = shell_join_n(x->w->command, x->w->n_command);

	printf("machine   %s: %d socket%s, %d cores, %d PUs\n",
	       shorten(m->host ? m->host : x->o->machine_path, host,
		       sizeof(host)), m->n_sockets,
	       m->n_sockets == 1 ? "" : "s", m->n_cores, m->n_pus);
	if (!x->o->model->model_section)
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
		       x->o->model->model_section ?
		       " (t1 from the black-box model's T_seq)" : "");
	free(cmd);
}

/* ---- --placement ------------------------------------------------ */

int parse_placement_text(const struct ctx *x, const char *text, int **pus,
			 int *n)
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

static void lines_cb(const char *cmd, const struct option *opt,
		     void *field, const char *arg)
{
	struct strbuf names = STRBUF_INIT;
	int l;

	(void)opt;
	if (pin_lines_parse(arg, field) == 0)
		return;
	/* the names from the one table, so that the message keeps up */
	for (l = 0; l < PIN_LINES; l++)
		strbuf_printf(&names, "%s%s", !l ? "" : l + 1 < PIN_LINES ?
			      ", " : " and ", pin_line_name(l));
	usage_error(cmd, "--lines takes 'all' or a comma-separated list of "
		    "%s, not '%s'", names.s, arg);
}

static void ranks_cb(const char *cmd, const struct option *opt, void *field,
		     const char *arg)
{
	int *ranks = field;

	(void)opt;
	if (!strcmp(arg, "any"))
		*ranks = RANKS_ANY;
	else if (!parse_int(arg, ranks) || *ranks < 1)
		usage_error(cmd, "--ranks takes a number >= 1 or 'any', not "
			    "'%s'", arg);
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

static void cpu_quota_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	double *q = field;

	(void)opt;
	if (!parse_double(arg, q) || !isfinite(*q) || *q <= 0)
		usage_error(cmd, "--cpu-quota takes a number of PUs, such as "
			    "2 or 1.5, not '%s'", arg);
	if (*q < 1)
		usage_error(cmd, "--cpu-quota %s is below one PU: one thread "
			    "alone would be throttled, which the model does "
			    "not describe (give at least 1)", arg);
}

#define O struct cli
static const struct option predict_options[] = {
	OPT_CALLBACK('w', "workload", O, workload_paths, workload_cb),
	OPT_CALLBACK('p', "placement", O, placements, placement_cb),
	OPT_CALLBACK(0, "copies", O, copies, copies_cb),
	OPT_CALLBACK(0, "objective", O, sum, objective_cb),
	OPT_CALLBACK(0, "ranks", O, ranks, ranks_cb),
	OPT_FLAG(0, "trace", O, trace),
	OPT_FLAG(0, "explain", O, explain),
	OPT_CALLBACK_VAL('t', "threads", O, threads, opt_int_min, 1),
	OPT_CALLBACK(0, "top", O, top, top_cb),
	OPT_CALLBACK(0, "within", O, within, within_cb),
	OPT_CALLBACK(0, "lines", O, lines, lines_cb),
	OPT_CALLBACK(0, "max-placements", O, max_placements,
		     max_placements_cb),
	OPT_CALLBACK_VAL('j', "jobs", O, jobs, opt_int_min, 1),
	OPT_CALLBACK(0, "cpu-quota", O, cpu_quota, cpu_quota_cb),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_oversubscribe),
	OPT_SHARED(opt_mempolicy),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_model),
	OPT_SHARED(opt_size),
	OPT_SHARED(opt_json),
	OPT_SHARED(opt_quiet),
	OPT_SHARED(opt_verbose),
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
		if (o->k > 1)
			usage_error("predict", "-k %d is for one workload's "
				    "ranking: the divisions of a co-run give "
				    "every thread a PU of its own (a "
				    "--placement list may repeat PUs)",
				    o->k);
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
	if (o->ranks && (o->n_workloads > 1 || o->n_copies))
		usage_error("predict", "--ranks is for one workload (each "
			    "rank a copy of it)");
	if (o->ranks && o->placement)
		usage_error("predict", "--ranks and --placement do not go "
			    "together");
	if (o->ranks && o->k > 1)
		usage_error("predict", "-k %d is for one workload's ranking: "
			    "the divisions of a job give every thread a PU "
			    "of its own", o->k);
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

/*
 * The CPU quota to predict for: --cpu-quota, else the one the machine
 * was measured under.  It becomes the machine's, where the model
 * reads it (docs/model.md, "A CPU quota").
 */
static void use_quota(struct ctx *x)
{
	struct pandia_limits *l = &x->m->limits;

	if (x->o->cpu_quota > 0) {
		l->present = true;
		l->cpu_quota = x->o->cpu_quota;
		free(l->source);
		l->source = xstrdup("--cpu-quota");
	}
	if (l->cpu_quota > 0 && !x->o->quiet)
		progress("predict", "a CPU quota of %g PUs' time per second "
			 "(%s): placements of more threads share it",
			 l->cpu_quota, l->source ? l->source : "the machine");
}

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
	use_quota(&x);
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
	if (o.model->model_section && pandia_checks(&x) < 0)
		goto out;
	x.mem = o.has_memory ? o.memory : x.w->has_memory ? x.w->memory :
		(struct pandia_mempolicy){ MEM_LOCAL, -1 };
	if (!o.model->model_section) {
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
	ret = o.placement ? do_placement(&x) : o.ranks ? do_ranks(&x) :
		do_rank(&x);
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
 * The demands the description knows only as upper bounds: each said
 * in full the first time for this description (its path, size and
 * time), then all in one line.  Not those that could hold no
 * placement on this machine back even at their bound
 * (machine_level_fills()).
 */
static void warn_bounds(const struct ctx *x, const struct pandia_params *pp)
{
	struct strbuf names = STRBUF_INIT;
	char *real = realpath(x->o->workload_path, NULL), *key;
	struct stat st;
	int r, n = 0;
	bool full;

	if (stat(x->o->workload_path, &st) < 0)
		memset(&st, 0, sizeof(st));
	for (r = 0; r < WR_COUNT; r++) {
		if (!pp->listed[r] || !wl_param_is_bound(&pp->demand[r]) ||
		    (r >= WR_L1 && !machine_level_fills(x->m, r - WR_L1,
							pp->demand[r].value)))
			continue;
		key = xasprintf("bound %s %s %lld %lld %.6g",
				wl_resource_name(r), real ? real :
				x->o->workload_path, (long long)st.st_size,
				(long long)st.st_mtime, pp->demand[r].value);
		full = said_in_full(key);
		free(key);
		if (full)
			warning("the %s demand is only known to be below "
				"%.3g %s: predicting without it, so "
				"placements limited by %s may be predicted "
				"too fast", wl_resource_name(r),
				pp->demand[r].value,
				r == WR_INSTRUCTIONS ? "ops/s" : "bytes/s",
				wl_resource_name(r));
		else
			strbuf_printf(&names, "%s%s", n++ ? " and " : "",
				      wl_resource_name(r));
	}
	if (n)
		warning("the %s demand%s only known as upper bound%s (-v "
			"says what that means)", names.s, n == 1 ? " is" :
			"s are", n == 1 ? "" : "s");
	free(names.s);
	free(real);
}

/*
 * The Pandia model's parameters: there, t1 at --size, and warnings
 * for those not measured.  0, or -1 after saying why.
 */
static int pandia_checks(struct ctx *x)
{
	const struct pandia_params *pp = pandia_params(x->w);
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
		int lvl;

		warn_bounds(x, pp);

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
