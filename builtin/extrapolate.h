/*
 * extrapolate.h - what the files of pandia extrapolate share
 * (builtin/extrapolate*.c only): the command line, and extrapolating
 * runs, which collecting them ends with when --to is given.
 */
#ifndef PANDIA_BUILTIN_EXTRAPOLATE_H
#define PANDIA_BUILTIN_EXTRAPOLATE_H

#include <stdbool.h>

#include "predictor/scaling.h"
#include "profiler/counters.h"
#include "profiler/run.h"
#include "profiler/stalls.h"

struct cli {
	/* collecting */
	const char *machine_path, *output, *threads_arg, *runner;
	const char *time_from;
	int reps;
	bool warmup, force, quiet;
	struct stall_user *users;
	int n_users;
	enum counters_mode hw;	/* --counters (probe: none counted) */
	double frequency;
	double timeout;
	struct run_mempolicy mem;	/* --membind ... for the runs */
	char **argv;		/* the command, NULL-terminated, or NULL */
	/* extrapolating */
	const char *runs_path, *to;
	int checkpoints;
	double target_frequency;
	bool json;
};

/* N from "--to N|MACHINE"; *what gets a description (new string) */
int parse_target(const char *to, int *n, char **what);
/*
 * Whether there are runs enough for ESTIMA; when not, say how many
 * more are needed: an error (FATAL), else a note on stdout.  CORES:
 * of the machine collected on (0: not known), to say when the runs
 * needed do not fit on it.
 */
bool enough_runs(const struct pandia_scaling *s, const char *source,
		 int checkpoints, int cores, bool fatal);
/*
 * Extrapolate runs S (read from SOURCE) to --to and show the result;
 * with DIR, write it there too.  Returns the exit status.
 */
int extrapolate(const struct cli *o, const struct pandia_scaling *s,
		const char *source, const char *dir);

/*
 * Measure the runs (extrapolate_collect.c) on machine M (taken over),
 * opened by the caller.  Returns the exit status.
 */
struct pandia_machine;
int cmd_collect(const struct cli *o, struct pandia_machine *m);

#endif
