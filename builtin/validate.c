/*
 * cmd_validate.c - pandia validate: run a workload at many placements
 * and measure the predictions against the times (section 6 of the
 * Pandia paper; the metrics are in validate.h and docs/validation.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "builtin/stated.h"
#include "builtin/validate.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/model.h"
#include "predictor/rank.h"
#include "predictor/space.h"
#include "predictor/validate.h"
#include "profiler/run.h"
#include "builtin/validate_corun.h"

const char usage_validate[] =
"usage: pandia validate [-m MACHINE] -w WORKLOAD [options] [-- CMD [ARG...]]\n"
"       pandia validate [-m MACHINE] -w A -w B [--division A_LIST/B_LIST...]\n"
"                       [options] [-- CMD_A [ARG...] -- CMD_B [ARG...]]\n"
"\n"
"Run CMD at many thread placements, each pinned by the runner of\n"
"'pandia run', and compare every measured time with the prediction of\n"
"WORKLOAD on MACHINE: the median and mean error, the offset error, the\n"
"best-placement gap and the rank correlation (section 6 of the Pandia\n"
"paper), and how far what users get without pandia is from the best:\n"
"every PU unpinned (the OS scheduler), and OMP_PROC_BIND=close and\n"
"spread over the whole machine.  {threads} and {cpus} in the arguments\n"
"are replaced.  Without CMD, the command WORKLOAD records, with\n"
"--recorded only: a description is data, and its command is shown\n"
"first.\n"
"\n"
"With two workloads, run them together at each division (each one\n"
"measured while the other runs beside it all along) and compare each\n"
"one's time with the co-run prediction of every model that makes one\n"
"(or of --model).  Without --division: one thread each on PUs of\n"
"their own, both on one PU, and with 4 cores or more half the cores\n"
"each.  The commands follow '--', the second after another '--'.\n"
"\n"
"options:\n"
"  -m, --machine FILE|NAME machine description (default: this host's,\n"
"                          looked up where pandia machine writes)\n"
"  -w, --workload FILE     workload description (pandia-workload/1);\n"
"                          twice for a co-run\n"
"  -d, --division A/B      a co-run division: workload A's PUs, '/',\n"
"                          workload B's (OS indexes, one per thread);\n"
"                          again for more\n"
"  -p, --placements SET    all (every canonical placement, the default),\n"
"                          sample:N (N spread over thread counts and\n"
"                          shapes) or top:K (the K best predicted); the\n"
"                          predicted best and the defaults always run\n"
"  -t, --threads N         only placements of N threads (the defaults\n"
"                          then run at N threads too)\n"
"  -k, --oversubscribe K   placements with up to K threads per PU\n"
"                          (default 1)\n"
"  -r, --repetitions N     measured runs of each placement (default 3,\n"
"                          in rounds: one of each per round; the median\n"
"                          is kept)\n"
"      --no-warmup         no unmeasured run first\n"
"  -o, --output DIR        write DIR/validate.json, validate.csv,\n"
"                          validate.gp and validate.png, updated after\n"
"                          the runs (at most once a second)\n"
"      --sweep             also run 1 to n threads packed and spread\n"
"                          (section 6.3) and compare its cost with the\n"
"                          profiling runs'\n"
"      --time-from REGEX   time from the command's output (the number\n"
"                          after the last line matching REGEX, or its\n"
"                          first group) instead of its wall time\n"
"      --timeout SEC       a run that takes longer fails\n"
"      --runner TEMPLATE   run TEMPLATE with /bin/sh instead of CMD, its\n"
"                          {cpus} {threads} {stress_cpus} {stress_kind}\n"
"                          {cmd} replaced (a workload run elsewhere or\n"
"                          simulated: MACHINE need not be this host);\n"
"                          one workload only\n"
"      --memory POLICY     predict with the memory local, interleave,\n"
"                          spread, even or node:N (default: the\n"
"                          workload's)\n"
RUN_MEM_USAGE
"      --model NAME        the model whose predictions are measured\n"
"                          (default pandia; a co-run: every model that\n"
"                          predicts co-runs)\n"
"      --force             validate a workload profiled elsewhere, or on\n"
"                          a machine description not of this host\n"
"      --recorded          without -- CMD: run the command WORKLOAD records\n"
"                          (shown first); without it, only shown\n"
"  -n, --dry-run           list the placements with their predictions and\n"
"                          run nothing (with -o, DIR/validate.json holds\n"
"                          them)\n"
"  -q, --quiet             no progress lines\n"
"\n"
"exit status: 0 success, 1 a placement failed (the others are still\n"
"measured and written) or another failure, 2 usage.\n"
"See pandia-validate(1) and docs/validation.md.\n";

static void workload_cb(const char *cmd, const struct option *opt,
			void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, workload_path);

	(void)opt;
	if (o->workload2)
		usage_error(cmd, "at most two workloads (-w)");
	if (o->workload_path)
		o->workload2 = arg;
	else
		o->workload_path = arg;
}

static void division_cb(const char *cmd, const struct option *opt,
			void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, divisions);

	(void)opt;
	if (o->n_divisions == CORUN_MAX_DIVISIONS)
		usage_error(cmd, "at most %d divisions", CORUN_MAX_DIVISIONS);
	o->divisions[o->n_divisions++] = arg;
}

static void placements_cb(const char *cmd, const struct option *opt,
			  void *field, const char *arg)
{
	struct cli *o = OPT_CONTAINER(field, struct cli, placements);
	struct pandia_error err;

	(void)opt;
	if (vsel_parse(arg, &o->sel, &err) < 0)
		usage_error(cmd, "%s", err.text);
	o->placements = arg;
}

#define O struct cli
static const struct option validate_options[] = {
	OPT_CALLBACK('w', "workload", O, workload_path, workload_cb),
	OPT_CALLBACK('d', "division", O, divisions, division_cb),
	OPT_CALLBACK('p', "placements", O, placements, placements_cb),
	OPT_CALLBACK_VAL('t', "threads", O, threads, opt_int_min, 1),
	OPT_FLAG(0, "sweep", O, sweep),
	OPT_FLAG('n', "dry-run", O, dry_run),
	OPT_FLAG(0, "recorded", O, recorded),
	OPT_SHARED(opt_machine),
	OPT_SHARED(opt_oversubscribe),
	OPT_SHARED(opt_reps),
	OPT_SHARED(opt_output),
	OPT_SHARED(opt_timing),
	OPT_SHARED(opt_runner),
	OPT_SHARED(opt_mempolicy),
	OPT_SHARED(opt_memory),
	OPT_SHARED(opt_model),
	OPT_SHARED(opt_force),
	OPT_SHARED(opt_quiet),
	OPT_END(),
};
#undef O

/* The shared options C into *O. */
static void take_common(struct cli *o, const struct opt_common *c)
{
	o->machine_path = c->machine;
	o->k = c->k;
	o->reps = c->reps;
	o->warmup = c->warmup;
	o->dir = c->output;
	o->time_from = c->time_from;
	o->timeout = c->timeout;
	o->runner = c->runner;
	o->has_memory = c->has_memory;
	o->memory = c->memory;
	o->mem = c->mem;
	o->model = c->model;
	o->model_given = c->model_given;
	o->force = c->force;
	o->quiet = c->quiet;
}

static void parse_args(int argc, char **argv, struct cli *o)
{
	struct opt_common c;
	int first;

	memset(o, 0, sizeof(*o));
	o->placements = "all";
	o->sel.mode = VSEL_ALL;
	opt_common_init(&c, 3);
	first = parse_options("validate", argc, argv, validate_options, o,
			      &c);
	take_common(o, &c);
	if (!o->workload_path)
		usage_error("validate", "-w WORKLOAD is required");
	if (first < argc)
		o->argv = argv + first;
	if (o->n_divisions && !o->workload2)
		usage_error("validate", "--division is for two workloads "
			    "(-w A -w B)");
	if (o->workload2 && (o->placements != NULL &&
			     strcmp(o->placements, "all")))
		usage_error("validate", "--placements is for one workload; "
			    "a co-run takes --division");
	if (o->workload2 && (o->threads || o->k != 1 || o->sweep))
		usage_error("validate", "--threads, --oversubscribe and "
			    "--sweep are for one workload");
	if (o->workload2 && o->runner)
		usage_error("validate", "--runner is for one workload: a "
			    "co-run's two commands run here side by side");
}

/*
 * Two workloads: the commands split at the second '--', and the rest
 * handed over to validate_corun().
 */
static int corun(struct cli *o)
{
	struct corun_cli c;
	int i, n = 0;

	memset(&c, 0, sizeof(c));
	c.machine_path = o->machine_path;
	c.workload_path[0] = o->workload_path;
	c.workload_path[1] = o->workload2;
	if (o->argv) {
		while (o->argv[n] && strcmp(o->argv[n], "--"))
			n++;
		if (!o->argv[n] || !n || !o->argv[n + 1])
			usage_error("validate", "two workloads need two "
				    "commands, -- CMD_A [ARG...] -- CMD_B "
				    "[ARG...], or none (each workload's "
				    "own)");
		o->argv[n] = NULL;	/* argv is ours: main's array */
		c.argv[0] = o->argv;
		c.argv[1] = o->argv + n + 1;
	}
	for (i = 0; i < o->n_divisions; i++)
		c.divisions[i] = o->divisions[i];
	c.n_divisions = o->n_divisions;
	c.model = o->model_given ? o->model : NULL;
	c.dir = o->dir;
	c.time_from = o->time_from;
	c.timeout = o->timeout;
	c.reps = o->reps;
	c.warmup = o->warmup;
	c.force = o->force;
	c.quiet = o->quiet;
	c.dry_run = o->dry_run;
	c.recorded = o->recorded;
	c.has_memory = o->has_memory;
	c.memory = o->memory;
	c.mem = o->mem.mode != RUN_MEM_DEFAULT ? &o->mem : NULL;
	return validate_corun(&c);
}

/* ---- checks before running ---------------------------------------- */

/* Words joined by spaces (new string). */
static char *join_words(char *const *v, int n)
{
	size_t len = 1;
	char *out;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	out = xmalloc(len);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, v[i]);
	}
	return out;
}

/* A warning when the command is not the one the workload was
   profiled with: its parameters may not describe this one. */
static void check_command(const struct cli *o, const struct pandia_workload *w)
{
	int n = 0, i;
	bool same;
	char *a, *b;

	if (!w->n_command || o->own_argv)
		return;
	while (o->argv[n])
		n++;
	same = n == w->n_command;
	for (i = 0; same && i < n; i++)
		same = !strcmp(o->argv[i], w->command[i]);
	if (same)
		return;
	a = join_words(w->command, w->n_command);
	b = join_words(o->argv, n);
	warning("the command differs from the one "
		"'%s' was profiled with; its model may not describe it\n"
		"  profiled: %s\n  given:    %s", o->workload_path, a, b);
	free(a);
	free(b);
}

/* ---- the validation ---------------------------------------------- */

/* The placements: selection, pick, defaults, sweep. */
static void plan(struct vctx *x)
{
	const struct pandia_machine *m = x->m;
	int P = m->n_pus, *pus, n, t;
	size_t *idx, n_idx, i, best;
	char name[96];

	n_idx = vsel_choose(&x->r, &x->o->sel, &idx);
	best = rank_best(&x->r);
	for (i = 0; i < n_idx; i++) {
		n = space_pus(x->sp, rank_state(&x->r, idx[i]), &pus);
		t = vset_add(&x->vs, pus, n, true, VROLE_SELECTED |
			     (idx[i] == best ? VROLE_PICK : 0));
		if (idx[i] == best)
			x->vs.pick = t;
		free(pus);
	}
	free(idx);
	if (x->vs.pick < 0) {	/* cannot happen: the best is chosen */
		n = space_pus(x->sp, rank_state(&x->r, best), &pus);
		x->vs.pick = vset_add(&x->vs, pus, n, true, VROLE_PICK);
		free(pus);
	}

	/* what users get without pandia: the whole machine, and the same
	   at the thread count pandia picks */
	n = x->vs.rows[x->vs.pick].n;
	pus = xcalloc((size_t)P + 1, sizeof(int));
	for (t = 0; t < (n != P ? 2 : 1); t++) {
		int nt = t ? n : P;
		enum default_kind k;

		for (k = DEF_UNPINNED; k < DEF_COUNT; k++) {
			defaults_placement(m, k, nt, pus);
			vset_add_default(&x->vs, defaults_name(k, nt, P, name,
							      sizeof(name)),
					 pus, nt, k != DEF_UNPINNED);
		}
	}
	free(pus);

	if (x->o->sweep) {
		int *order = xcalloc((size_t)P + 1, sizeof(int));

		defaults_sweep_order(m, false, order);
		for (t = 1; t <= P; t++)
			vset_add(&x->vs, order, t, true, VROLE_PACKED);
		defaults_sweep_order(m, true, order);
		for (t = 1; t <= P; t++)
			vset_add(&x->vs, order, t, true, VROLE_SPREAD);
		free(order);
	}
}

/* Every row predicted by STATE, with the range predict states for it. */
static int predict_rows(struct vctx *x, void *state,
			const struct pandia_mempolicy *mem,
			struct pandia_error *err)
{
	if (vset_predict(&x->vs, x->o->model, state, err) < 0)
		return -1;
	vset_stated_ranges(&x->vs, x->m, x->w, x->o->model, mem, state);
	return 0;
}

/*
 * What an interrupted validation kept: the placements measured and,
 * with rounds, the runs made of those planned (the failed placements'
 * left out).
 */
static void say_interrupted(const struct vctx *x, const struct vsummary *s,
			    int sig)
{
	int i, made = 0, planned = 0;
	char runs[64] = "";

	for (i = 0; i < x->vs.n_rows; i++) {
		made += x->vs.rows[i].reps;
		planned += x->vs.rows[i].state == VROW_FAILED ? 0 :
			x->o->reps;
	}
	if (x->o->reps > 1)
		snprintf(runs, sizeof(runs), ", %d of %d runs made", made,
			 planned);
	error("interrupted by signal %d: %d of %d placements measured%s%s%s",
	      sig, s->measured, s->rows, runs, x->o->dir ? ", written to " :
	      "", x->o->dir ? x->o->dir : "");
}

static int validate(struct vctx *x)
{
	struct pandia_error err;
	struct rank_opts ro = { x->o->threads, RANK_DEFAULT_MAX, 0,
				x->o->model, NULL, NAN };
	struct pandia_mempolicy mem;
	struct model_params prm;
	struct vsummary s;
	struct space_count cnt;
	void *state;
	int sig, ret = 1;

	mem = x->o->has_memory ? x->o->memory : x->w->has_memory ?
		x->w->memory : (struct pandia_mempolicy){ MEM_LOCAL, -1 };
	model_params_of(x->w, &prm);
	x->sp = space_new(x->m, x->o->k, &mem, &err);
	if (!x->sp) {
		perr_print(&err, stderr);
		return 1;
	}
	state = x->o->model->open(x->m, x->w, &mem, &err);
	if (!state) {
		perr_print(&err, stderr);
		return 1;
	}
	ro.state = state;
	if (rank_all(x->sp, &prm, &ro, &x->r, &err) < 0) {
		perr_print(&err, stderr);
		x->o->model->close(state);
		return 1;
	}
	x->have_ranking = true;
	vset_init(&x->vs, x->sp);
	plan(x);
	ret = predict_rows(x, state, &mem, &err);
	x->o->model->close(state);
	if (ret < 0) {
		perr_print(&err, stderr);
		return 1;
	}
	ret = 1;

	cnt = x->r.full;
	x->info.space_size = cnt.overflow || cnt.n > ((unsigned __int128)1 <<
						     62) ? -1 : (long)cnt.n;
	x->info.reduced = x->r.max_layouts != 0;
	if (x->o->dry_run) {
		int rc = 0;

		vset_summarise(&x->vs, x->w->runs, x->w->n_runs, &s);
		validate_print_report(x, &s);
		/* the plan, with its predictions, for scripts */
		if (x->o->dir && (make_dir(x->o->dir, &err) < 0 ?
				  error_perr(&err) :
				  validate_save_files(x, &s)) < 0)
			rc = 1;
		vsummary_release(&s);
		return rc;
	}
	x->shim = x->o->runner ? NULL : run_find_shim(NULL);
	if (!x->shim && !x->o->runner) {
		error("cannot find libpandia-pin.so next to "
			"pandia (build it with make, or set "
			"PANDIA_PIN_LIB)");
		return 1;
	}
	if (x->o->dir && make_dir(x->o->dir, &err) < 0) {
		perr_print(&err, stderr);
		return 1;
	}
	if (!x->o->quiet)
		fprintf(stderr, "pandia validate: %d placements to run (%s of "
			"%zu ranked, up to %d thread%s per PU, the defaults"
			"%s), %d run%s each%s%s\n", x->vs.n_rows,
			x->o->placements, x->r.n, x->o->k,
			x->o->k == 1 ? "" : "s",
			x->o->sweep ? ", the sweep" : "", x->o->reps,
			x->o->reps == 1 ? "" : "s",
			x->o->warmup ? " after a warm-up" : "",
			x->o->reps > 1 ? ", one of each per round" : "");
	if (validate_save_now(x) < 0)
		return 1;
	sig = validate_measure(x);
	if (sig < 0)
		return 1;
	x->info.complete = !sig;
	x->info.interrupted = sig;
	vset_summarise(&x->vs, x->w->runs, x->w->n_runs, &s);
	if (validate_save_files(x, &s) < 0) {
		vsummary_release(&s);
		return 1;
	}
	if (sig) {
		say_interrupted(x, &s, sig);
		vsummary_release(&s);
		run_reraise(sig);
	}
	validate_draw(x, &s);
	validate_print_report(x, &s);
	if (s.failed)
		error("%d of %d placements failed (see "
			"above)", s.failed, s.rows);
	ret = s.failed || !s.have_metrics ? 1 : 0;
	vsummary_release(&s);
	return ret;
}

int cmd_validate(int argc, char **argv)
{
	struct pandia_error err;
	struct cli o;
	struct vctx x;
	char *why = NULL, *mpath = NULL;
	int ret = 1;

	parse_args(argc, argv, &o);
	if (o.workload2)
		return corun(&o);
	memset(&x, 0, sizeof(x));
	x.o = &o;
	x.t0 = now_seconds();
	x.m = open_machine(o.quiet ? NULL : "validate", o.machine_path, true,
			   &mpath);
	if (!x.m)
		return 1;
	o.machine_path = mpath;
	x.w = workload_load(o.workload_path, &err);
	if (!x.w) {
		perr_print(&err, stderr);
		goto out;
	}
	if (!o.argv && (x.w->n_command || (!o.dry_run && !o.runner))) {
		o.argv = recorded_command("validate", x.w, o.workload_path,
					  o.recorded, o.dry_run, false);
		o.own_argv = true;
	}
	if (!workload_machine_matches(x.w, x.m, &why)) {
		if (!o.force) {
			error("workload '%s' was profiled on "
				"another machine than '%s': %s\npandia: "
				"profile it on this machine, or use --force "
				"to validate anyway", o.workload_path,
				o.machine_path, why);
			goto out;
		}
		warning("workload '%s' was profiled "
			"on another machine (%s); validating anyway",
			o.workload_path, why);
	}
	if (!o.dry_run && !o.runner &&
	    check_this_host(x.m, o.machine_path, o.force, "validating",
			    "(or --runner for a workload that runs on "
			    "another machine or in a simulator)") < 0)
		goto out;
	if (o.argv)
		check_command(&o, x.w);
	/* what its predictions are made without, as predict says */
	if (o.model->unmeasured)
		o.model->unmeasured(x.w, x.m, o.k, warning_text, NULL);

	iso_date_now(x.date, sizeof(x.date));
	x.info.machine_file = o.machine_path;
	x.info.workload_file = o.workload_path;
	x.info.host = x.m->host;
	x.info.argv = o.argv;
	x.info.placements = o.placements;
	x.info.oversubscribe = o.k;
	x.info.repetitions = o.reps;
	x.info.warmup = o.warmup;
	x.info.time_from = o.time_from;
	x.info.date = x.date;
	read_loadavg(x.info.load_start);
	ret = validate(&x);
out:
	free(why);
	free(mpath);
	free(x.shim);
	validate_runs_release(&x);
	vset_release(&x.vs);
	if (x.have_ranking)
		rank_release(&x.r);
	space_free(x.sp);
	if (o.own_argv)
		free(o.argv);
	workload_free(x.w);
	machine_free(x.m);
	return ret;
}
