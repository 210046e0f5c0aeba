/*
 * parse-options.c - the commands' one option parser and the tables of
 * the options they share (parse-options.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "builtin/parse-options.h"
#include "common/util.h"
#include "predictor/space.h"

/* ---- the shared options --------------------------------------------- */

static void reps_cb(const char *cmd, const struct option *opt, void *field,
		    const char *arg)
{
	struct opt_common *c = OPT_CONTAINER(field, struct opt_common, reps);

	(void)opt;
	if (!parse_int(arg, &c->reps) || c->reps < 1)
		usage_error(cmd, "-r takes a number of repetitions >= 1, not "
			    "'%s'", arg);
	c->reps_given = true;
}

static void timeout_cb(const char *cmd, const struct option *opt,
		       void *field, const char *arg)
{
	double *t = field;

	(void)opt;
	if (!parse_double(arg, t) || !(*t > 0) || !isfinite(*t))
		usage_error(cmd, "--timeout takes seconds > 0, not '%s'", arg);
}

/* The regular expression is compiled now, so a bad one runs nothing. */
static void time_from_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	struct pandia_error err;
	struct run_regex *rx = run_regex_new(arg, &err);

	(void)opt;
	if (!rx)
		usage_error(cmd, "%s", err.text);
	run_regex_free(rx);
	*(const char **)field = arg;
}

static void mem_cb(const char *cmd, const struct option *opt, void *field,
		   const char *arg)
{
	struct pandia_error err;

	if (run_mempolicy_parse(field, (enum run_mem)opt->defval, arg,
				&err) < 0)
		usage_error(cmd, "%s", err.text);
}

static void counters_cb(const char *cmd, const struct option *opt,
			void *field, const char *arg)
{
	struct opt_common *c = OPT_CONTAINER(field, struct opt_common,
					    counters);
	struct pandia_error err;

	(void)opt;
	if (c->counters_none && !strcmp(arg, "none"))
		c->counters = COUNTERS_PROBE;
	else if (counters_mode_parse(arg, &c->counters, &err) < 0)
		usage_error(cmd, "--counters takes auto, perf or probe, not "
			    "'%s'", arg);
}

static void model_cb(const char *cmd, const struct option *opt,
		     void *field, const char *arg)
{
	struct opt_common *c = OPT_CONTAINER(field, struct opt_common, model);

	(void)opt;
	c->model = model_find(arg);
	if (!c->model)
		usage_error(cmd, "--model takes one of %s, not '%s'",
			    model_names(), arg);
	c->model_given = true;
}

static void mempolicy_cb(const char *cmd, const struct option *opt,
			 void *field, const char *arg)
{
	struct opt_common *c = OPT_CONTAINER(field, struct opt_common,
					    memory);
	struct pandia_error err;

	(void)opt;
	if (mempolicy_parse(arg, &c->memory, &err) < 0)
		usage_error(cmd, "--memory: %s", err.text);
	c->has_memory = true;
}

static void size_cb(const char *cmd, const struct option *opt, void *field,
		    const char *arg)
{
	double *v = field;

	(void)opt;
	if (!parse_double(arg, v) || !isfinite(*v))
		usage_error(cmd, "--size takes an input size (a number), not "
			    "'%s'", arg);
}

static void oversubscribe_cb(const char *cmd, const struct option *opt,
			     void *field, const char *arg)
{
	int *k = field;

	(void)opt;
	if (!parse_int(arg, k) || *k < 1 || *k > SPACE_MAX_K)
		usage_error(cmd, "--oversubscribe takes 1 to %d threads per "
			    "PU, not '%s'", SPACE_MAX_K, arg);
}

#define C struct opt_common

const struct option opt_machine[] = {
	OPT_STRING('m', "machine", C, machine),
	OPT_END(),
};

const struct option opt_output[] = {
	OPT_STRING('o', "output", C, output),
	OPT_END(),
};

const struct option opt_json[] = {
	OPT_FLAG(0, "json", C, json),
	OPT_END(),
};

const struct option opt_quiet[] = {
	OPT_FLAG('q', "quiet", C, quiet),
	OPT_END(),
};

/* -v takes effect at once: notes said while parsing are in full */
static void verbose_cb(const char *cmd, const struct option *opt,
		       void *field, const char *arg)
{
	(void)cmd;
	(void)opt;
	(void)arg;
	*(bool *)field = true;
	said_verbose(true);
}

const struct option opt_verbose[] = {
	OPT_CALLBACK_NOARG('v', "verbose", C, verbose, verbose_cb, 1),
	OPT_END(),
};

const struct option opt_runner[] = {
	OPT_STRING(0, "runner", C, runner),
	OPT_END(),
};

const struct option opt_timing[] = {
	OPT_CALLBACK(0, "time-from", C, time_from, time_from_cb),
	OPT_CALLBACK(0, "timeout", C, timeout, timeout_cb),
	OPT_END(),
};

const struct option opt_reps[] = {
	OPT_CALLBACK('r', "repetitions", C, reps, reps_cb),
	OPT_NEGFLAG(0, "no-warmup", C, warmup),
	OPT_END(),
};

const struct option opt_memory[] = {
	OPT_CALLBACK_VAL(0, "membind", C, mem, mem_cb, RUN_MEM_BIND),
	OPT_CALLBACK_VAL(0, "interleave", C, mem, mem_cb, RUN_MEM_INTERLEAVE),
	OPT_CALLBACK_NOARG(0, "localalloc", C, mem, mem_cb, RUN_MEM_LOCAL),
	OPT_CALLBACK_VAL(0, "preferred", C, mem, mem_cb, RUN_MEM_PREFERRED),
	OPT_END(),
};

const struct option opt_counters[] = {
	OPT_CALLBACK(0, "counters", C, counters, counters_cb),
	OPT_END(),
};

const struct option opt_force[] = {
	OPT_FLAG(0, "force", C, force),
	OPT_END(),
};

const struct option opt_model[] = {
	OPT_CALLBACK(0, "model", C, model, model_cb),
	OPT_END(),
};

const struct option opt_mempolicy[] = {
	OPT_CALLBACK(0, "memory", C, memory, mempolicy_cb),
	OPT_END(),
};

const struct option opt_size[] = {
	OPT_CALLBACK(0, "size", C, size, size_cb),
	OPT_END(),
};

const struct option opt_oversubscribe[] = {
	OPT_CALLBACK('k', "oversubscribe", C, k, oversubscribe_cb),
	OPT_END(),
};

#undef C

void opt_common_init(struct opt_common *c, int reps)
{
	memset(c, 0, sizeof(*c));
	c->reps = reps;
	c->warmup = true;
	c->mem.mode = RUN_MEM_DEFAULT;
	c->counters = COUNTERS_AUTO;
	c->model = model_default();
	c->size = NAN;
	c->k = 1;
}

/* ---- callbacks for the commands' tables ------------------------------ */

void opt_int_min(const char *cmd, const struct option *opt, void *field,
		 const char *arg)
{
	int *v = field;

	if (!parse_int(arg, v) || *v < opt->defval)
		usage_error(cmd, "--%s takes a number >= %ld, not '%s'",
			    opt->long_name, opt->defval, arg);
}

/* ---- the parser -------------------------------------------------------- */

struct parser {
	const char *cmd;
	void *base;
	struct opt_common *common;
};

/* An option found, and the struct its target is in. */
struct found {
	const struct option *opt;
	void *base;
	int matches;		/* options whose long name NAME begins */
	bool exact;
};

static bool takes_arg(const struct option *o)
{
	return o->kind == OPTION_STRING || o->kind == OPTION_CALLBACK;
}

/*
 * Look in OPTS (targets at BASE) for the short option C, or when C is
 * 0 the long one NAME (LEN characters): an exact name, or else the
 * only one it begins, as getopt_long takes it.
 */
static void lookup(const struct option *opts, void *base,
		   struct opt_common *common, int c, const char *name,
		   size_t len, struct found *f)
{
	const struct option *o;

	for (o = opts; o->kind != OPTION_END; o++) {
		if (o->kind == OPTION_SHARED) {
			lookup(o->shared, common, common, c, name, len, f);
			continue;
		}
		if (c ? o->short_name != c :
		    !o->long_name || strncmp(o->long_name, name, len) ||
		    f->exact)
			continue;
		if (!c && !o->long_name[len]) {
			f->exact = true;
			f->matches = 0;
		} else if (!c && f->opt && f->opt->offset == o->offset &&
			   f->base == base) {
			continue;	/* two names of one option */
		}
		f->opt = o;
		f->base = base;
		f->matches++;
	}
}

static void apply(const struct parser *p, const struct found *f,
		  const char *arg)
{
	const struct option *o = f->opt;
	void *field = (char *)f->base + o->offset;

	switch (o->kind) {
	case OPTION_FLAG:
		*(bool *)field = o->defval;
		break;
	case OPTION_STRING:
		*(const char **)field = arg;
		break;
	case OPTION_CALLBACK:
	case OPTION_CALLBACK_NOARG:
		o->callback(p->cmd, o, field, arg);
		break;
	default:
		break;
	}
}

/* "--NAME[=VALUE]" at argv[*i]; *i moves past what it took. */
static void parse_long(const struct parser *p, const struct option *opts,
		       int argc, char **argv, int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	struct found f = { NULL, NULL, 0, false };

	if (len)
		lookup(opts, p->base, p->common, 0, name, len, &f);
	if (!f.opt)
		usage_error(p->cmd, "unknown option '--%.*s'", (int)len, name);
	if (f.matches > 1)
		usage_error(p->cmd, "ambiguous option '--%.*s'", (int)len,
			    name);
	if (!takes_arg(f.opt)) {
		if (eq)
			usage_error(p->cmd, "option '--%s' takes no value",
				    f.opt->long_name);
		apply(p, &f, NULL);
		return;
	}
	if (!eq && *i + 1 >= argc)
		usage_error(p->cmd, "option '--%s' needs a value",
			    f.opt->long_name);
	apply(p, &f, eq ? eq + 1 : argv[++*i]);
}

/* "-xyz" or "-xVALUE" at argv[*i]; *i moves past what it took. */
static void parse_short(const struct parser *p, const struct option *opts,
			int argc, char **argv, int *i)
{
	const char *s;

	for (s = argv[*i] + 1; *s; s++) {
		struct found f = { NULL, NULL, 0, false };

		lookup(opts, p->base, p->common, (unsigned char)*s, NULL, 0,
		       &f);
		if (!f.opt)
			usage_error(p->cmd, "unknown option '-%c'", *s);
		if (!takes_arg(f.opt)) {
			apply(p, &f, NULL);
			continue;
		}
		if (s[1]) {
			apply(p, &f, s + 1);
			return;
		}
		if (*i + 1 >= argc)
			usage_error(p->cmd, "option '-%c' needs a value", *s);
		apply(p, &f, argv[++*i]);
		return;
	}
}

int parse_options(const char *cmd, int argc, char **argv,
		  const struct option *opts, void *base,
		  struct opt_common *common)
{
	struct parser p = { cmd, base, common };
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1])
			return i;	/* the first argument not an option */
		if (!strcmp(a, "--"))
			return i + 1;
		if (a[1] == '-')
			parse_long(&p, opts, argc, argv, &i);
		else
			parse_short(&p, opts, argc, argv, &i);
	}
	return argc;
}
