/*
 * parse-options.h - the one command-line parser of the commands in
 * builtin/, after git's parse-options: each command describes its
 * options in a table of struct option, includes the tables of the
 * options every command shares (defined once, in parse-options.c), and
 * calls parse_options().
 *
 * What the parser does, the same for every command:
 *   - "--long VALUE", "--long=VALUE", a unique prefix of a long name,
 *     "-x VALUE", "-xVALUE" and clustered flags ("-qn");
 *   - it stops at the first argument that is not an option (a
 *     command's own arguments are never taken for pandia's), and at
 *     "--", which it consumes;
 *   - a bad option is said one way: "pandia CMD: unknown option '--x'"
 *     and "see 'pandia CMD --help'", exit status 2 (usage_error()).
 *
 * The help texts stay in each command's usage_NAME[] (builtin.h);
 * tests/cli/options-man.sh keeps them and the man pages in step.
 */
#ifndef PANDIA_BUILTIN_PARSE_OPTIONS_H
#define PANDIA_BUILTIN_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/workload.h"
#include "predictor/models.h"
#include "profiler/counters.h"
#include "profiler/run.h"

struct option;

/*
 * Called with the option's argument (NULL for one that takes none)
 * and FIELD, the option's target in the struct the table describes.
 * A bad argument is a usage error of CMD: the callback calls
 * usage_error(cmd, ...), which does not return.
 */
typedef void parse_opt_cb(const char *cmd, const struct option *opt,
			  void *field, const char *arg);

enum parse_opt_kind {
	OPTION_END,
	OPTION_SHARED,		/* the options of another table, shared */
	OPTION_FLAG,		/* no argument: the bool field = defval */
	OPTION_STRING,		/* the const char * field = the argument */
	OPTION_CALLBACK,	/* callback(cmd, opt, field, argument) */
	OPTION_CALLBACK_NOARG,	/* callback(cmd, opt, field, NULL) */
};

struct option {
	enum parse_opt_kind kind;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none */
	size_t offset;		/* of the target in the table's struct */
	parse_opt_cb *callback;
	long defval;		/* the flag's value; the callback's own */
	const struct option *shared;	/* OPTION_SHARED: that table */
};

#define OPT_END() { .kind = OPTION_END }
#define OPT_FLAG(s, l, type, field)					\
	{ .kind = OPTION_FLAG, .short_name = (s), .long_name = (l),	\
	  .offset = offsetof(type, field), .defval = 1 }
#define OPT_NEGFLAG(s, l, type, field)					\
	{ .kind = OPTION_FLAG, .short_name = (s), .long_name = (l),	\
	  .offset = offsetof(type, field), .defval = 0 }
#define OPT_STRING(s, l, type, field)					\
	{ .kind = OPTION_STRING, .short_name = (s), .long_name = (l),	\
	  .offset = offsetof(type, field) }
#define OPT_CALLBACK(s, l, type, field, cb)				\
	{ .kind = OPTION_CALLBACK, .short_name = (s), .long_name = (l),	\
	  .offset = offsetof(type, field), .callback = (cb) }
#define OPT_CALLBACK_VAL(s, l, type, field, cb, val)			\
	{ .kind = OPTION_CALLBACK, .short_name = (s), .long_name = (l),	\
	  .offset = offsetof(type, field), .callback = (cb),		\
	  .defval = (val) }
#define OPT_CALLBACK_NOARG(s, l, type, field, cb, val)			\
	{ .kind = OPTION_CALLBACK_NOARG, .short_name = (s),		\
	  .long_name = (l), .offset = offsetof(type, field),		\
	  .callback = (cb), .defval = (val) }
/* The struct of TYPE whose MEMBER a callback's FIELD is. */
#define OPT_CONTAINER(field, type, member)				\
	((type *)(void *)((char *)(field) - offsetof(type, member)))
/* The options of shared table T; their targets are in struct opt_common. */
#define OPT_SHARED(t) { .kind = OPTION_SHARED, .shared = (t) }

/*
 * Where the shared options put what they are given.  A command sets
 * its defaults here before parse_options() and takes the values into
 * its own fields after.
 */
struct opt_common {
	const char *machine;	/* -m FILE|NAME, for open_machine() */
	const char *output;	/* -o FILE|DIR */
	bool json;		/* --json */
	bool quiet;		/* -q */
	bool verbose;		/* -v: notes said once, in full again */
	/* the runner's */
	const char *runner;	/* --runner TEMPLATE */
	const char *time_from;	/* --time-from REGEX, checked */
	double timeout;		/* --timeout SEC; 0: none */
	int reps;		/* -r N; the command's default before */
	bool reps_given;
	bool warmup;		/* false with --no-warmup */
	struct run_mempolicy mem;	/* --membind ...; mode
					   RUN_MEM_DEFAULT: none given */
	enum counters_mode counters;	/* --counters */
	bool counters_none;	/* "none" is taken for probe (the old
				   spelling of explain and extrapolate) */
	/* the workload's */
	bool force;		/* --force */
	const struct model_def *model;	/* --model NAME; model_default() */
	bool model_given;
	bool has_memory;	/* --memory POLICY */
	struct pandia_mempolicy memory;
	double size;		/* --size X; NAN: none */
	int k;			/* -k K, threads per PU; 1 */
};

/*
 * REPS repetitions, a warm-up, no memory policy, counters auto, the
 * default model, no size.
 */
void opt_common_init(struct opt_common *c, int reps);

/* The shared tables, each defined once (parse-options.c). */
extern const struct option opt_machine[];	/* -m, --machine */
extern const struct option opt_output[];	/* -o, --output */
extern const struct option opt_json[];		/* --json */
extern const struct option opt_quiet[];		/* -q, --quiet */
extern const struct option opt_verbose[];	/* -v, --verbose */
extern const struct option opt_runner[];	/* --runner */
extern const struct option opt_timing[];	/* --time-from, --timeout */
extern const struct option opt_reps[];	/* -r, --no-warmup */
extern const struct option opt_memory[];	/* --membind ... */
extern const struct option opt_counters[];	/* --counters */
extern const struct option opt_force[];		/* --force */
extern const struct option opt_model[];		/* --model */
extern const struct option opt_mempolicy[];	/* --memory */
extern const struct option opt_size[];		/* --size */
extern const struct option opt_oversubscribe[];	/* -k, --oversubscribe */

/*
 * Parse ARGV (ARGV[0] the command's name) against OPTS, whose targets
 * are in the struct at BASE, and the shared tables it includes, whose
 * targets are in *COMMON.  Returns the index of the first argument
 * that is not an option (ARGC when none), past a "--".  A bad option
 * or value exits with status 2 after saying so.
 */
int parse_options(const char *cmd, int argc, char **argv,
		  const struct option *opts, void *base,
		  struct opt_common *common);

/*
 * A callback for the commands' own tables: an int >= the option's
 * defval ("--NAME takes a number >= N, not 'X'").
 */
parse_opt_cb opt_int_min;

#endif
