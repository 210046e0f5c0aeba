/*
 * validate_corun.c - pandia validate with two workloads (see
 * validate_corun.h).
 *
 * Each division gives each workload its PUs.  Workload i's time there
 * is measured as the runner's command at its PUs with the other
 * workload as the co-running command at its own, run again and again
 * while workload i runs (run_opts.corun_argv): so each workload is
 * measured with the other beside it all along, the steady state that
 * the models predict.  Two runs a division, one per workload, made
 * once per round, -r rounds, so that a host whose speed moves moves
 * every division alike; each time is the median of its rounds.
 */
#include "builtin/validate_corun.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "builtin.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "profiler/run.h"

#define MAX_MODELS 8

struct division {
	char *name;
	int n[2];
	int *pus[2];		/* m->pus indexes */
	int *os[2];		/* OS indexes */
	char *list[2];
	double predicted[MAX_MODELS][2];	/* NAN: the model failed */
	double measured[2];	/* median of times; NAN: not measured
				   (failed, dry run) */
	double spread[2];	/* (max - min) / median of times */
	double *times[2];	/* one a round */
	int n_times[2];
	int restarts[2];	/* the other's restarts, last round */
	char *error[2];
};

struct cctx {
	const struct corun_cli *o;
	struct pandia_machine *m;
	struct pandia_workload *w[2];
	char **argv[2];
	const struct model_def *models[MAX_MODELS];
	void *state[MAX_MODELS][2];
	int n_models;
	struct division *d;
	int n_div;
	char date[32];
	double load[2][3];
};

/* ---- divisions ---------------------------------------------------- */

static void division_set(struct cctx *x, struct division *d, int i,
			 const int *pus, int n)
{
	int t;

	d->n[i] = n;
	d->pus[i] = xcalloc((size_t)n + 1, sizeof(int));
	d->os[i] = xcalloc((size_t)n + 1, sizeof(int));
	for (t = 0; t < n; t++) {
		d->pus[i][t] = pus[t];
		d->os[i][t] = x->m->pus[pus[t]].os_index;
	}
	d->list[i] = cpulist_format_compact(d->os[i], n);
	d->measured[i] = NAN;
	d->spread[i] = NAN;
}

static struct division *new_division(struct cctx *x, char *name)
{
	struct division *d;
	int k;

	x->d = xrealloc(x->d, sizeof(*x->d) * (size_t)(x->n_div + 1));
	d = &x->d[x->n_div++];
	memset(d, 0, sizeof(*d));
	d->name = name;
	for (k = 0; k < MAX_MODELS; k++)
		d->predicted[k][0] = d->predicted[k][1] = NAN;
	return d;
}

/* "A_LIST/B_LIST": OS PU lists.  0 or -1 with the message printed. */
static int parse_division(struct cctx *x, const char *text)
{
	const char *slash = strchr(text, '/');
	struct pandia_error err;
	struct division *d;
	int i, t;

	if (!slash || strchr(slash + 1, '/'))
		usage_error("validate", "--division takes A_LIST/B_LIST (the "
			    "PUs of each workload), not '%s'", text);
	d = new_division(x, xstrdup(text));
	for (i = 0; i < 2; i++) {
		char *part = i ? xstrdup(slash + 1) :
			xasprintf("%.*s", (int)(slash - text), text);
		int *os, n, *pus;

		if (cpulist_parse(part, &os, &n, &err) < 0)
			usage_error("validate", "--division '%s': %s", text,
				    err.text);
		pus = xcalloc((size_t)n + 1, sizeof(int));
		for (t = 0; t < n; t++) {
			pus[t] = machine_pu_index(x->m, os[t]);
			if (pus[t] < 0) {
				error("division '%s': PU %d is not in machine "
				      "'%s'", text, os[t], x->o->machine_path);
				free(pus);
				free(os);
				free(part);
				return -1;
			}
		}
		division_set(x, d, i, pus, n);
		free(pus);
		free(os);
		free(part);
	}
	return 0;
}

/*
 * Without --division: one thread each on PUs of their own (the first
 * PUs of the first two cores), both on one PU, and with four cores or
 * more the two halves of the cores.
 */
static void default_divisions(struct cctx *x)
{
	const struct pandia_machine *m = x->m;
	int a[1], b[1], *ha, *hb, h, c, na = 0, nb = 0;
	struct division *d;

	a[0] = m->cores[0].pus[0];
	if (m->n_cores >= 2) {
		b[0] = m->cores[1].pus[0];
		d = new_division(x, xstrdup("own PUs"));
		division_set(x, d, 0, a, 1);
		division_set(x, d, 1, b, 1);
	}
	d = new_division(x, xstrdup("one PU shared"));
	division_set(x, d, 0, a, 1);
	division_set(x, d, 1, a, 1);
	if (m->n_cores < 4)
		return;
	h = m->n_cores / 2;
	ha = xcalloc((size_t)m->n_cores, sizeof(int));
	hb = xcalloc((size_t)m->n_cores, sizeof(int));
	for (c = 0; c < m->n_cores; c++) {
		if (c < h)
			ha[na++] = m->cores[c].pus[0];
		else if (c < 2 * h)
			hb[nb++] = m->cores[c].pus[0];
	}
	d = new_division(x, xstrdup("half the cores each"));
	division_set(x, d, 0, ha, na);
	division_set(x, d, 1, hb, nb);
	free(ha);
	free(hb);
}

/* ---- predictions -------------------------------------------------- */

/* The models: the one asked for, or every one that predicts co-runs
   and opens for both workloads. */
static int open_models(struct cctx *x)
{
	const struct model_def *const *all;
	struct pandia_error err;
	struct pandia_mempolicy mem = { MEM_LOCAL, -1 };
	int n, k, i;

	if (x->o->has_memory)
		mem = x->o->memory;
	else if (x->w[0]->has_memory)
		mem = x->w[0]->memory;
	all = model_list(&n);
	for (k = 0; k < n && x->n_models < MAX_MODELS; k++) {
		const struct model_def *md = all[k];
		void *st[2] = { NULL, NULL };

		if (x->o->model && md != x->o->model)
			continue;
		if (!md->corun) {
			if (x->o->model) {
				error("model '%s' does not predict co-runs",
				      md->name);
				return -1;
			}
			continue;
		}
		for (i = 0; i < 2; i++) {
			st[i] = md->open(x->m, x->w[i], &mem, &err);
			if (st[i])
				continue;
			if (x->o->model) {
				if (err.source[0])
					perr_print(&err, stderr);
				else
					error("workload '%s': %s",
					      x->o->workload_path[i],
					      err.text);
				if (i)
					md->close(st[0]);
				return -1;
			}
			warning("no %s predictions: workload '%s': %s",
				md->name, x->o->workload_path[i], err.text);
			if (i)
				md->close(st[0]);
			break;
		}
		if (i < 2)
			continue;
		x->models[x->n_models] = md;
		x->state[x->n_models][0] = st[0];
		x->state[x->n_models][1] = st[1];
		x->n_models++;
	}
	if (!x->n_models) {
		error("no model can predict these two workloads together");
		return -1;
	}
	return 0;
}

static void predict_all(struct cctx *x)
{
	int j, k, i;

	for (j = 0; j < x->n_div; j++) {
		struct division *d = &x->d[j];

		for (k = 0; k < x->n_models; k++) {
			struct model_corun_part parts[2];
			struct model_prediction pr[2];
			struct pandia_error err;

			for (i = 0; i < 2; i++) {
				parts[i].state = x->state[k][i];
				parts[i].pus = d->pus[i];
				parts[i].n = d->n[i];
			}
			if (x->models[k]->corun(parts, 2, pr, &err) < 0) {
				warning("%s: no %s prediction: %s", d->name,
					x->models[k]->name, err.text);
				continue;
			}
			for (i = 0; i < 2; i++)
				d->predicted[k][i] = pr[i].time;
		}
	}
}

static int save_report(const struct cctx *x);

/* ---- measuring ---------------------------------------------------- */

/* Time t of workload i of division d added: its median and spread
   anew. */
static void record_time(struct division *d, int i, double t)
{
	d->times[i] = xrealloc(d->times[i], sizeof(double) *
			       (size_t)(d->n_times[i] + 1));
	d->times[i][d->n_times[i]++] = t;
	d->measured[i] = median_of(d->times[i], d->n_times[i]);
	d->spread[i] = 2 * half_range_of(d->times[i], d->n_times[i]) /
		d->measured[i];
}

/*
 * Workload i of division d, the other beside it, once: the step-th of
 * total runs in its round, after a warm-up in the first round.
 * Returns a signal that stopped it, else 0.
 */
static int measure(struct cctx *x, struct division *d, int i, int round,
		   int step, int total)
{
	const struct corun_cli *o = x->o;
	struct pandia_error err;
	struct run_result r;
	struct run_opts ro;
	char rt[40];
	int sig = 0, starts;

	round_text(round, o->reps, rt, sizeof(rt));
	run_opts_init(&ro);
	ro.cpus = d->os[i];
	ro.n_cpus = d->n[i];
	ro.repetitions = 1;
	ro.warmup = o->warmup && round == 0;
	ro.timeout = o->timeout;
	ro.time_from = o->time_from;
	ro.mem = o->mem;
	ro.machine = x->m;
	ro.corun_argv = x->argv[1 - i];
	ro.corun_cpus = d->os[1 - i];
	ro.n_corun_cpus = d->n[1 - i];
	if (!o->quiet)
		fprintf(stderr, "pandia validate: %s%d/%d: %s: workload %d on "
			"%s beside workload %d on %s...\n", rt, step, total,
			d->name, i + 1, d->list[i], 2 - i, d->list[1 - i]);
	run_result_init(&r);
	if (run_execute(&ro, x->argv[i], &r, &err) < 0) {
		if (r.interrupted) {
			sig = r.interrupted;
			goto out;
		}
		d->error[i] = xstrdup(err.text);
		d->measured[i] = NAN;
		error("%s, workload %d: %s", d->name, i + 1, err.text);
		show_stderr_tail(r.stderr_tail);
		goto out;
	}
	record_time(d, i, r.median);
	d->restarts[i] = r.corun_restarts;
	if (o->quiet)
		goto out;
	/* the other runs all along: started once, and again each time
	   it ended first */
	starts = r.corun_restarts + 1;
	if (round + 1 < o->reps)
		fprintf(stderr, "pandia validate: %s%d/%d: %.4g s (the other "
			"started %d time%s beside it)\n", rt, step, total,
			r.median, starts, starts == 1 ? "" : "s");
	else
		fprintf(stderr, "pandia validate: %s%d/%d: measured %.4g s "
			"(spread %.1f%%; the other started %d time%s beside "
			"it)\n", rt, step, total, d->measured[i],
			100 * d->spread[i], starts, starts == 1 ? "" : "s");
out:
	run_result_release(&r);
	return sig;
}

/*
 * Every division's two runs, once per round, -r rounds; a workload
 * that failed at a division is not run there again.  The report is
 * saved after every run.  Returns a signal that stopped it, else 0;
 * *failed: a run failed.
 */
static int measure_all(struct cctx *x, bool *failed)
{
	int round, j, i, step, sig = 0;

	if (!x->o->quiet)
		fprintf(stderr, "pandia validate: %d division%s, each "
			"workload beside the other, %d run%s each%s%s\n",
			x->n_div, x->n_div == 1 ? "" : "s", x->o->reps,
			x->o->reps == 1 ? "" : "s", x->o->warmup ?
			" after a warm-up" : "", x->o->reps > 1 ?
			", one of each per round" : "");
	for (round = 0; round < x->o->reps && !sig; round++)
		for (j = step = 0; j < x->n_div && !sig; j++)
			for (i = 0; i < 2 && !sig; i++) {
				step++;
				if (x->d[j].error[i])
					continue;
				sig = measure(x, &x->d[j], i, round, step,
					      2 * x->n_div);
				*failed |= x->d[j].error[i] != NULL;
				if (!sig && x->o->dir && save_report(x) < 0)
					return -1;
			}
	return sig;
}

/* ---- reporting ---------------------------------------------------- */

static double err_pct(double predicted, double measured)
{
	return isfinite(predicted) && measured > 0 ?
		100 * (predicted - measured) / measured : NAN;
}

/* Median and largest |error| of model k over every measured time. */
static int model_errors(const struct cctx *x, int k, double *med,
			double *max)
{
	double *v = xcalloc((size_t)(2 * x->n_div) + 1, sizeof(double));
	int j, i, n = 0;

	*max = 0;
	for (j = 0; j < x->n_div; j++)
		for (i = 0; i < 2; i++) {
			double e = fabs(err_pct(x->d[j].predicted[k][i],
						x->d[j].measured[i]));

			if (!isfinite(e))
				continue;
			v[n++] = e;
			if (e > *max)
				*max = e;
		}
	*med = n ? median_of(v, n) : NAN;
	free(v);
	return n;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *report_json(const struct cctx *x)
{
	const struct corun_cli *o = x->o;
	json_t *root = json_object(), *a, *ds = json_array(), *sum;
	int i, j, k;

	json_object_set_new(root, "schema",
			    json_string("pandia-validate-corun/1"));
	json_object_set_new(root, "machine", json_string(o->machine_path));
	json_object_set_new(root, "host", json_string(x->m->host ?
						      x->m->host : ""));
	json_object_set_new(root, "date", json_string(x->date));
	a = json_array();
	for (i = 0; i < 2; i++) {
		json_t *w = json_object();
		char *c = shell_join(x->argv[i]);

		json_object_set_new(w, "workload",
				    json_string(o->workload_path[i]));
		json_object_set_new(w, "command", json_string(c));
		json_array_append_new(a, w);
		free(c);
	}
	json_object_set_new(root, "workloads", a);
	json_object_set_new(root, "repetitions", json_integer(o->reps));
	json_object_set_new(root, "warmup", json_boolean(o->warmup));
	json_object_set_new(root, "time_from", o->time_from ?
			    json_string(o->time_from) : json_null());
	json_object_set_new(root, "dry_run", json_boolean(o->dry_run));
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, num(x->load[0][i]));
	json_object_set_new(root, "load_start", a);
	a = json_array();
	for (i = 0; i < 3; i++)
		json_array_append_new(a, num(x->load[1][i]));
	json_object_set_new(root, "load_end", a);
	for (j = 0; j < x->n_div; j++) {
		const struct division *d = &x->d[j];
		json_t *dj = json_object(), *ws = json_array();

		json_object_set_new(dj, "name", json_string(d->name));
		for (i = 0; i < 2; i++) {
			json_t *w = json_object(), *p = json_object();
			json_t *e = json_object(), *t;

			json_object_set_new(w, "cpus", json_string(d->list[i]));
			json_object_set_new(w, "threads",
					    json_integer(d->n[i]));
			json_object_set_new(w, "measured",
					    num(d->measured[i]));
			json_object_set_new(w, "spread", num(d->spread[i]));
			t = json_array();
			for (k = 0; k < d->n_times[i]; k++)
				json_array_append_new(t,
						      json_real(d->times[i][k]));
			json_object_set_new(w, "times", t);
			json_object_set_new(w, "corun_restarts",
					    json_integer(d->restarts[i]));
			for (k = 0; k < x->n_models; k++) {
				json_object_set_new(p, x->models[k]->name,
					num(d->predicted[k][i]));
				json_object_set_new(e, x->models[k]->name,
					num(err_pct(d->predicted[k][i],
						    d->measured[i])));
			}
			json_object_set_new(w, "predicted", p);
			json_object_set_new(w, "error_percent", e);
			if (d->error[i])
				json_object_set_new(w, "error",
						    json_string(d->error[i]));
			json_array_append_new(ws, w);
		}
		json_object_set_new(dj, "workloads", ws);
		json_array_append_new(ds, dj);
	}
	json_object_set_new(root, "divisions", ds);
	sum = json_object();
	for (k = 0; k < x->n_models; k++) {
		json_t *s = json_object();
		double med, max;
		int n = model_errors(x, k, &med, &max);

		json_object_set_new(s, "measured", json_integer(n));
		json_object_set_new(s, "median_abs_error_percent", num(med));
		json_object_set_new(s, "max_abs_error_percent",
				    n ? num(max) : json_null());
		json_object_set_new(sum, x->models[k]->name, s);
	}
	json_object_set_new(root, "summary", sum);
	return root;
}

static void print_report(const struct cctx *x)
{
	int i, j, k;

	printf("machine   %s: %d cores, %d PUs\n", x->m->host ? x->m->host :
	       x->o->machine_path, x->m->n_cores, x->m->n_pus);
	for (i = 0; i < 2; i++) {
		char *c = shell_join(x->argv[i]);

		printf("workload %d  %s: %s\n", i + 1, x->o->workload_path[i],
		       c);
		free(c);
	}
	printf("\n%-22s %-3s %-10s %10s", "division", "wl", "cpus",
	       "measured");
	for (k = 0; k < x->n_models; k++)
		printf(" %10s %7s", x->models[k]->name, "error");
	putchar('\n');
	for (j = 0; j < x->n_div; j++) {
		const struct division *d = &x->d[j];

		for (i = 0; i < 2; i++) {
			printf("%-22s %-3d %-10s ", i ? "" : d->name, i + 1,
			       d->list[i]);
			if (isfinite(d->measured[i]))
				printf("%#10.4g", d->measured[i]);
			else
				printf("%10s", x->o->dry_run ? "-" : "failed");
			for (k = 0; k < x->n_models; k++) {
				double e = err_pct(d->predicted[k][i],
						   d->measured[i]);

				printf(" %#10.4g", d->predicted[k][i]);
				if (isfinite(e))
					printf(" %+6.1f%%", e);
				else
					printf(" %7s", "-");
			}
			putchar('\n');
		}
	}
	if (x->o->dry_run)
		return;
	printf("\n");
	for (k = 0; k < x->n_models; k++) {
		double med, max;
		int n = model_errors(x, k, &med, &max);

		printf("%-8s median |error| %.1f%%, largest %.1f%%, over %d "
		       "measured time%s\n", x->models[k]->name, med, max, n,
		       n == 1 ? "" : "s");
	}
}

static int save_report(const struct cctx *x)
{
	struct pandia_error err;
	struct stat st;
	json_t *root;
	char *text, *path;
	int ret;

	if (mkdir(x->o->dir, 0777) < 0 && !(errno == EEXIST &&
	    stat(x->o->dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return error("cannot create directory '%s': %s", x->o->dir,
			     strerror(errno));
	root = report_json(x);
	text = json_to_text(root);
	path = xasprintf("%s/validate-corun.json", x->o->dir);
	ret = write_file_atomic(path, text, strlen(text), &err);
	if (ret < 0)
		perr_print(&err, stderr);
	free(path);
	free(text);
	json_decref(root);
	return ret;
}

/* ---- the command -------------------------------------------------- */

int validate_corun(const struct corun_cli *given)
{
	struct corun_cli oc = *given;	/* with the machine's path found */
	const struct corun_cli *o = &oc;
	struct pandia_error err;
	struct cctx x;
	char *why = NULL, *mpath = NULL;
	bool own[2] = { false, false }, failed = false;
	int ret = 1, i, j, k, sig = 0;
	time_t now = time(NULL);
	struct tm tm;

	memset(&x, 0, sizeof(x));
	x.o = o;
	gmtime_r(&now, &tm);
	strftime(x.date, sizeof(x.date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	x.m = open_machine(o->quiet ? NULL : "validate", given->machine_path,
			   true, &mpath);
	if (!x.m)
		return 1;
	oc.machine_path = mpath;
	for (i = 0; i < 2; i++) {
		x.w[i] = workload_load(o->workload_path[i], &err);
		if (!x.w[i]) {
			perr_print(&err, stderr);
			goto out;
		}
		if (!workload_machine_matches(x.w[i], x.m, &why)) {
			if (!o->force) {
				error("workload '%s' was profiled on another "
				      "machine than '%s': %s\npandia: profile "
				      "it on this machine, or use --force to "
				      "validate anyway", o->workload_path[i],
				      o->machine_path, why);
				goto out;
			}
			warning("workload '%s' was profiled on another "
				"machine (%s); validating anyway",
				o->workload_path[i], why);
		}
		free(why);
		why = NULL;
		x.argv[i] = o->argv[i];
		if (x.argv[i])
			continue;
		if (!x.w[i]->n_command && !o->dry_run)
			usage_error("validate", "no commands given, and '%s' "
				    "records none: pandia validate -w A -w B "
				    "... -- CMD_A [ARG...] -- CMD_B [ARG...]",
				    o->workload_path[i]);
		if (!x.w[i]->n_command)
			continue;
		x.argv[i] = recorded_command("validate", x.w[i],
					     o->workload_path[i], o->recorded,
					     o->dry_run, o->quiet);
		own[i] = true;
	}
	if (!o->dry_run &&
	    check_this_host(x.m, o->machine_path, o->force, "validating",
			    NULL) < 0)
		goto out;
	for (j = 0; j < o->n_divisions; j++)
		if (parse_division(&x, o->divisions[j]) < 0)
			goto out;
	if (!o->n_divisions)
		default_divisions(&x);
	if (open_models(&x) < 0)
		goto out;
	predict_all(&x);
	read_loadavg(x.load[0]);
	if (!o->dry_run)
		sig = measure_all(&x, &failed);
	if (sig < 0)
		goto out;
	read_loadavg(x.load[1]);
	if (!sig && !o->dry_run)
		sig = run_caught_signal();
	if (sig) {
		if (o->dir)
			save_report(&x);
		run_reraise(sig);
	}
	if (o->dir && save_report(&x) < 0)
		goto out;
	print_report(&x);
	ret = failed ? 1 : 0;
out:
	free(why);
	for (k = 0; k < x.n_models; k++)
		for (i = 0; i < 2; i++)
			x.models[k]->close(x.state[k][i]);
	for (j = 0; j < x.n_div; j++) {
		free(x.d[j].name);
		for (i = 0; i < 2; i++) {
			free(x.d[j].pus[i]);
			free(x.d[j].os[i]);
			free(x.d[j].list[i]);
			free(x.d[j].error[i]);
			free(x.d[j].times[i]);
		}
	}
	free(x.d);
	for (i = 0; i < 2; i++) {
		if (own[i])
			free(x.argv[i]);
		workload_free(x.w[i]);
	}
	free(mpath);
	machine_free(x.m);
	return ret;
}
