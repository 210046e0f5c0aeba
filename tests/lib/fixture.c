/*
 * fixture.c - the objects many suites start from: a machine described
 * from a topology and assumptions, the model's time for a placement, a
 * recorded run's counter set, a short argv.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/workload.h"
#include "predictor/pandia/model.h"
#include "predictor/space.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

struct pandia_machine *tk_machine(const char *topo, const char *assume)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;

	ck_assert_msg(topology_load(m, topo, &err) == 0, "%s: %s",
		      topo ? topo : "this host", err.text);
	if (assume)
		ck_assert_msg(assume_apply(m, assume, &err) == 0, "%s",
			      err.text);
	return m;
}

void tk_pvm_figures(struct pandia_machine *m)
{
	m->links[LVL_L3].present = m->links[LVL_DRAM].present = true;
	m->links[LVL_L3].per_core_bw = 31.7e9;
	m->links[LVL_L3].per_core.working_set = 133169152;
	m->links[LVL_DRAM].per_core_bw = 32.8e9;
}

void tk_set_counter(struct pandia_workload *w, const char *id,
		    const char *name, double v)
{
	struct wl_run *r = (struct wl_run *)workload_run_named(w, id);
	int i;

	ck_assert_msg(r != NULL, "no run %s", id);
	for (i = 0; i < r->n_counters; i++)
		if (!strcmp(r->counter_names[i], name)) {
			r->counter_values[i] = v;
			return;
		}
	wl_run_add_counter(r, name, v);
}

double tk_model_time(const struct pandia_machine *m, enum mem_kind kind,
		     const struct model_params *prm, const int *pus, int n,
		     char *bott, size_t size)
{
	struct pandia_mempolicy mem = { kind, -1 };
	struct pandia_error err;
	struct space *sp = space_new(m, 1, &mem, &err);
	struct model md;
	double t;

	ck_assert_msg(sp != NULL, "%s", err.text);
	model_init(&md, sp, prm);
	t = model_time_pus(&md, pus, n);
	if (bott)
		snprintf(bott, size, "%s", model_bottleneck(&md));
	model_release(&md);
	space_free(sp);
	return t;
}

char **tk_argv(const char *a, const char *b, const char *c)
{
	static char *v[4];

	v[0] = (char *)a;
	v[1] = (char *)b;
	v[2] = (char *)c;
	v[3] = NULL;
	return v;
}
