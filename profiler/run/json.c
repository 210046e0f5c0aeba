/*
 * json.c - a run's result as JSON (schema pandia-run/1, run.h), and
 * the names of the pinning modes.
 */
#include "profiler/run/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/util.h"

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

const char *run_pin_name(enum run_pin pin)
{
	switch (pin) {
	case RUN_PIN_WORKERS:
		return "workers";
	case RUN_PIN_THREADS:
		return "threads";
	case RUN_PIN_SET:
		return "set";
	case RUN_PIN_NONE:
		break;
	}
	return "none";
}

static json_t *int_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* the accounting: threads[] */
static json_t *threads_json(const struct run_result *r)
{
	json_t *a = json_array();
	int i, k;

	for (i = 0; i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		json_t *b = json_object(), *o = json_object();

		for (k = 0; k < RUN_BLOCK_KINDS; k++)
			json_object_set_new(b, run_block_names[k],
					    num_or_null(t->blocked[k]));
		json_object_set_new(o, "pid", json_integer(t->pid));
		json_object_set_new(o, "tid", json_integer(t->tid));
		json_object_set_new(o, "index", int_or_null(t->index));
		json_object_set_new(o, "cpu", int_or_null(t->cpu));
		json_object_set_new(o, "start", num_or_null(t->start));
		json_object_set_new(o, "end", num_or_null(t->end));
		json_object_set_new(o, "cpu_time", num_or_null(t->cpu_time));
		json_object_set_new(o, "runqueue_wait",
				    num_or_null(t->runqueue_wait));
		json_object_set_new(o, "blocked", b);
		json_object_set_new(o, "worker", json_boolean(t->worker));
		json_array_append_new(a, o);
	}
	return a;
}

/* what pinning did: placement{} */
static json_t *placement_json(const struct run_opts *o,
			      const struct run_result *r)
{
	json_t *p = json_object(), *th = json_array(), *h;
	int i;

	for (i = 0; i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		json_t *x = json_object();

		json_object_set_new(x, "pid", json_integer(t->pid));
		json_object_set_new(x, "tid", json_integer(t->tid));
		json_object_set_new(x, "index", int_or_null(t->index));
		json_object_set_new(x, "local", int_or_null(t->local));
		json_object_set_new(x, "program", t->program ?
				    json_string(t->program) : json_null());
		json_object_set_new(x, "routine", t->routine ?
				    json_string(t->routine) : json_null());
		json_object_set_new(x, "cpu", int_or_null(t->cpu));
		json_object_set_new(x, "allowed", json_string(t->allowed ?
							      t->allowed : ""));
		json_object_set_new(x, "seen", json_boolean(t->seen));
		json_object_set_new(x, "ended", json_boolean(t->ended));
		json_object_set_new(x, "wrapped", json_boolean(t->wrapped));
		json_object_set_new(x, "overridden",
				    json_boolean(t->overridden));
		json_object_set_new(x, "overlap", json_real(t->overlap));
		json_array_append_new(th, x);
	}
	json_object_set_new(p, "created", int_or_null(r->threads_created));
	json_object_set_new(p, "processes", json_integer(r->processes));
	json_object_set_new(p, "workers", json_integer(r->workers));
	json_object_set_new(p, "most_workers",
			    json_integer(r->most_workers));
	json_object_set_new(p, "misplaced", json_integer(r->misplaced));
	json_object_set_new(p, "wrapped", json_integer(r->wrapped));
	json_object_set_new(p, "overridden", json_integer(r->overridden));
	json_object_set_new(p, "role_changes",
			    json_integer(r->role_changes));
	json_object_set_new(p, "static", json_boolean(r->static_exe));
	json_object_set_new(p, "unpinned_processes",
			    json_integer(r->unpinned));
	json_object_set_new(p, "unpinned_narrow",
			    json_integer(r->unpinned_narrow));
	if (o->n_skip >= 0) {
		h = json_array();
		for (i = 0; i < o->n_skip; i++)
			json_array_append_new(h, json_integer(o->skip[i]));
		json_object_set_new(p, "skip", h);
	}
	if (r->helpers) {
		char *dup = xstrdup(r->helpers), *save, *tok;

		h = json_array();
		for (tok = strtok_r(dup, "\n", &save); tok;
		     tok = strtok_r(NULL, "\n", &save))
			json_array_append_new(h, json_string(tok));
		free(dup);
		json_object_set_new(p, "helpers", h);
	} else {
		json_object_set_new(p, "helpers", json_null());
	}
	json_object_set_new(p, "threads", th);
	return p;
}

json_t *run_result_to_json(const struct run_opts *o,
			   const struct run_result *r)
{
	json_t *root = json_object(), *a, *s;
	int i, j;

	json_object_set_new(root, "schema", json_string("pandia-run/1"));
	json_object_set_new(root, "command", json_string(r->command ?
							 r->command : ""));
	if (o->runner)
		json_object_set_new(root, "runner", json_string(o->runner));
	json_set_cpus(root, o->cpus, o->n_cpus);
	json_object_set_new(root, "pin", json_string(
		o->runner ? "runner" : run_pin_name(o->pin)));
	if (o->mem && o->mem->mode != RUN_MEM_DEFAULT) {
		char pol[96];

		json_object_set_new(root, "memory_policy", json_string(
			run_mempolicy_text(o->mem, pol, sizeof(pol))));
	}
	json_object_set_new(root, "time_source", json_string(
		o->time_from ? "output" : "wall"));
	if (o->time_from)
		json_object_set_new(root, "time_from",
				    json_string(o->time_from));
	json_object_set_new(root, "unit", json_string("seconds"));
	json_object_set_new(root, "warmup", num_or_null(r->warmup_time));
	a = json_array();
	for (i = 0; i < r->n_times; i++)
		json_array_append_new(a, json_real(r->times[i]));
	json_object_set_new(root, "times", a);
	json_object_set_new(root, "median", json_real(r->median));
	json_object_set_new(root, "min", json_real(r->min));
	json_object_set_new(root, "max", json_real(r->max));
	json_object_set_new(root, "mean", json_real(r->mean));
	json_object_set_new(root, "cv", json_real(r->cv));
	json_object_set_new(root, "spread", json_real(r->spread));

	a = json_array();
	for (i = 0; i < r->n_stress; i++) {
		const struct run_stress_result *sr = &r->stress[i];
		json_t *rates = json_array();

		for (j = 0; j < r->n_times; j++)
			json_array_append_new(rates,
					      num_or_null(sr->rates[j]));
		s = json_pack("{s:s, s:s, s:i, s:s, s:I, s:o, s:o}",
			      "spec", sr->spec, "kind", sr->kind,
			      "pu", sr->pu, "unit", sr->unit,
			      "working_set", (json_int_t)sr->working_set,
			      "rates", rates,
			      "median", num_or_null(sr->median));
		if (o->stress_alone > 0) {
			json_t *alone = json_array(), *after = json_array();

			for (j = 0; j < r->n_times; j++) {
				json_array_append_new(alone,
					num_or_null(sr->alone[j]));
				json_array_append_new(after,
					num_or_null(sr->after[j]));
			}
			json_object_set_new(s, "alone", alone);
			json_object_set_new(s, "alone_median",
					    num_or_null(sr->alone_median));
			json_object_set_new(s, "after", after);
			json_object_set_new(s, "after_median",
					    num_or_null(sr->after_median));
			json_object_set_new(s, "alone_seconds",
					    json_real(o->stress_alone));
		}
		json_array_append_new(a, s);
	}
	json_object_set_new(root, "stressors", a);

	if (!o->runner) {
		json_object_set_new(root, "threads", threads_json(r));
		json_object_set_new(root, "placement",
				    placement_json(o, r));
	}
	if (r->map)
		json_object_set_new(root, "map", run_map_to_json(r->map));
	json_object_set_new(root, "left_behind", json_integer(r->leftovers));
	json_object_set_new(root, "pid_namespace",
			    json_boolean(r->pid_namespace));
	json_object_set_new(root, "no_pid_namespace",
			    r->no_namespace ? json_string(r->no_namespace) :
			    json_null());
	return root;
}
