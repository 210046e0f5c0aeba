/*
 * workload.h - the workload description (pandia-workload/1) in memory.
 *
 * Written by 'pandia profile', read by 'pandia predict' and 'pandia
 * validate', and written by hand for tests and for workloads profiled
 * elsewhere.  The file format is described in docs/workload-format.md.
 *
 * Ownership: a struct pandia_workload owns every array and string it
 * points to; workload_free() releases them all.  Strings may be NULL
 * where the comment says "or NULL".
 */
#ifndef PANDIA_WORKLOAD_H
#define PANDIA_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/error.h"
#include "common/machine.h"

#define PANDIA_WORKLOAD_SCHEMA "pandia-workload/1"

/*
 * The resources a thread demands, as rates: instructions in
 * operations/s, every other one in bytes/s.  WR_L1 + LVL_x is the
 * demand on level LVL_x.
 */
enum wl_resource {
	WR_INSTRUCTIONS,
	WR_L1,
	WR_L2,
	WR_L3,
	WR_DRAM,
	WR_INTERCONNECT,
	WR_COUNT
};

/* "instructions", "L1", "L2", "L3", "dram", "interconnect" */
const char *wl_resource_name(enum wl_resource r);
/* The resource called NAME, or -1. */
int wl_resource_from_name(const char *name);

/* Where a workload's memory lives (decides DRAM and link loads). */
enum mem_kind {
	MEM_LOCAL,		/* each thread's pages on its own node */
	MEM_INTERLEAVE,		/* pages over every node with memory */
	MEM_NODE,		/* every page on one node */
	MEM_SPREAD,		/* first touch by the threads: pages over
				   the nodes of the sockets in use, in
				   proportion to their threads */
	MEM_EVEN,		/* first touch, but evenly over the nodes
				   of the sockets in use (a program that
				   touches its data in equal blocks per
				   socket, or whose pages the kernel
				   balances) */
};

/* Pages placed where the threads first touched them: spread or even. */
static inline bool mem_first_touch(enum mem_kind k)
{
	return k == MEM_SPREAD || k == MEM_EVEN;
}

struct pandia_mempolicy {
	enum mem_kind kind;
	int node;		/* OS index of the node, for MEM_NODE */
};

/*
 * Parse "local", "interleave", "spread" or "node:N".  Returns 0 or -1
 * with err.
 */
int mempolicy_parse(const char *s, struct pandia_mempolicy *mp,
		    struct pandia_error *err);
/* Its name as parsed ("node:1"); writes into buf and returns it. */
const char *mempolicy_format(const struct pandia_mempolicy *mp, char *buf,
			     unsigned size);

/*
 * One model parameter.  A parameter that could not be measured has
 * known == false and says why in status; a measured one may still
 * carry a status (a caveat, "upper bound: ...").
 */
struct wl_param {
	bool known;		/* false: JSON null */
	double value;		/* meaningful when known */
	double uncertainty;	/* absolute, same unit; NAN: not stated */
	char *source;		/* id of the run it came from, or the ids
				   of several ("run1,run2"), or NULL */
	char *status;		/* why not measured, a caveat, or NULL */
};

/* One profiling run as it was made (the evidence behind the model). */
struct wl_run {
	char *id;		/* "run1" ...: what *_source fields name */
	char *purpose;		/* or NULL */
	int n_cpus;
	int *cpus;		/* placement, OS indexes, repeats kept */
	int n_stress;
	char **stress;		/* co-run stressors: "cpu@3" */
	int n_times;
	double *times;		/* every repetition, seconds */
	bool has_size;
	double size;		/* the input size it ran ({size}) */
	int n_counters;
	char **counter_names;	/* counter readings, or none */
	double *counter_values;
};

struct pandia_workload {
	int n_command;
	char **command;		/* argv as profiled; may be empty */

	/* identity of the machine it was profiled on (all may be NULL) */
	char *host;
	char *cpu_model;
	int n_pus;
	int *pus;		/* ascending OS indexes; n_pus 0: unknown */
	char *machine_file;

	char *counters;		/* "perf", "probe", "none", or NULL */
	char *counters_note;	/* or NULL */
	bool has_memory;
	struct pandia_mempolicy memory;	/* how its memory is placed */
	/*
	 * Where the profile found the pages ("memory_found": the run, the
	 * pages seen and each policy's share), as evidence for memory.
	 * Owned reference, or NULL.
	 */
	json_t *memory_found;
	char *date;		/* or NULL */
	char *version;		/* the pandia that wrote it, or NULL */
	char *note;		/* or NULL */
	char *unreliable;	/* why its parameters are too uncertain to
				   rank placements with (profiled with
				   --keep-unreliable), or NULL: reliable */
	/* the input size the Pandia model's runs used (--size) */
	bool has_size;
	double size;

	int n_runs;
	struct wl_run *runs;

	/*
	 * The "model" section as read (the Pandia model's parameters),
	 * kept without being read here: its reader (struct
	 * workload_model_ops) reads it.  Owned reference, or NULL.
	 */
	json_t *model_section;
	/*
	 * Its parameters as its reader holds them (the Pandia model's,
	 * struct pandia_params of predictor/pandia/params.h, reached
	 * through predictor/models.h outside the model), made by
	 * workload_new() when a reader is installed, else NULL.  Owned:
	 * workload_free() releases it through the reader.
	 */
	void *model_params;

	/*
	 * The other models' parameters, "models" in the file: an object
	 * of objects, one per model by its name, each read and written by
	 * its model (predictor/models.h).  Owned reference, or NULL.
	 */
	json_t *models;
	/* the text it was read from and its name, for the models' error
	   messages (json_src); NULL when not read from text */
	char *source_text;
	char *source_name;
};

struct json_src;

/*
 * The reader and writer of the "model" section: the Pandia model's
 * (predictor/pandia/params.c), which common/ does not read itself.
 * The program installs it (workload_set_model_ops()) before it loads
 * or saves a description; until then the section is kept and written
 * back as it was read.
 */
struct workload_model_ops {
	/*
	 * Read SECTION (found at "model" in c's text) into w.  Returns 0,
	 * or -1 with c->err at the line and column of the bad value.
	 */
	int (*load)(const struct json_src *c, json_t *section,
		    struct pandia_workload *w);
	/*
	 * Check its values as workload_check() does: 0, or -1 with PATH
	 * (PLEN bytes) the JSON path of the bad value and err the text.
	 */
	int (*check)(const struct pandia_workload *w, char *path,
		     size_t plen, struct pandia_error *err);
	/* New parameters, all unknown, none listed; and their release. */
	void *(*params_new)(void);
	void (*params_free)(void *params);
	/* Whether w holds any of its parameters (workload_has_model()). */
	bool (*present)(const struct pandia_workload *w);
	/* The section to write (new reference), in a fixed key order. */
	json_t *(*to_json)(const struct pandia_workload *w);
};

/* Install OPS (static, borrowed for the program's life). */
void workload_set_model_ops(const struct workload_model_ops *ops);
/* The installed reader, or NULL. */
const struct workload_model_ops *workload_model_ops(void);

/*
 * A new, empty workload (the model's parameters, when its reader is
 * installed, all unknown, no demand listed).
 */
struct pandia_workload *workload_new(void);
/* Release w and everything it owns.  NULL is a no-op. */
void workload_free(struct pandia_workload *w);

/*
 * Load and validate a description.  On failure returns NULL and err
 * names the file, the line and column of the offending value, the
 * field and what is wrong with it.  New object, caller frees.
 */
struct pandia_workload *workload_load(const char *path,
				      struct pandia_error *err);
/* The same from text in memory; SOURCE names it in errors. */
struct pandia_workload *workload_parse(const char *text, const char *source,
				       struct pandia_error *err);

/*
 * Whether w holds the Pandia model's parameters ("model"): a
 * description may carry only other models' (under "models").
 */
bool workload_has_model(const struct pandia_workload *w);

/*
 * Check the values (ranges, nulls explained, unique run ids).
 * Returns 0 or -1 with err "FIELD: what is wrong".
 */
int workload_check(const struct pandia_workload *w,
		   struct pandia_error *err);

/* The JSON text (new string, ends in a newline). */
char *workload_to_string(const struct pandia_workload *w);
/* Check, then write atomically (temporary file, then rename). */
int workload_save(const struct pandia_workload *w, const char *path,
		  struct pandia_error *err);

/*
 * The value of a parameter for the model: its value when known, else
 * DFLT (the documented stand-in: o_s 0, l 0, b 0).
 */
double wl_value(const struct wl_param *prm, double dflt);

/*
 * Whether a known value is only an upper bound: its status starts
 * with "upper bound" (what the probe backend records when this
 * machine has too few cores to saturate a resource).
 */
bool wl_param_is_bound(const struct wl_param *prm);

/*
 * What the status of a bound says where the probes' loss was within
 * the host's drift (docs/profiling.md, "A loss within the drift"): a
 * bound that is no measure of the demand.
 */
#define WL_DRIFT_BOUND "within the host's drift"

/*
 * Whether w was profiled on machine m.  A workload that names no
 * machine matches any.  When not, *why gets a new string naming what
 * differs (caller frees); otherwise *why is NULL.
 */
bool workload_machine_matches(const struct pandia_workload *w,
			      const struct pandia_machine *m, char **why);

/* Add a counter reading NAME = V to run wr (nothing when V is not finite). */
void wl_run_add_counter(struct wl_run *wr, const char *name, double v);

/* Run R's counter reading NAME, or NAN (none, or R NULL). */
double wl_run_counter(const struct wl_run *r, const char *name);

/* Release what one run owns (its struct stays). */
void wl_run_release(struct wl_run *r);
/* The run of W whose id is ID ("run2"), or NULL (borrowed). */
const struct wl_run *workload_run_named(const struct pandia_workload *w,
					const char *id);

/* Release one parameter's strings and reset it to unknown. */
void wl_param_release(struct wl_param *prm);
/* Set a parameter to a measured value; uncertainty NAN when not stated,
   source copied (may be NULL). */
void wl_param_set(struct wl_param *prm, double value, double uncertainty,
		  const char *source);

#endif
