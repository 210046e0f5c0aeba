/*
 * predict_pins.c - pandia predict: the lines that pin a placement
 * (taskset, numactl, OpenMP's variables and pandia run), and what each
 * one cannot say.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict.h"
#include "common/cpulist.h"
#include "common/elfdeps.h"
#include "common/util.h"

static char *omp_places(const int *os, int n)
{
	size_t cap = 32 * (size_t)n + 8, len = 0;
	char *out = xmalloc(cap);
	int i, j;

	out[0] = '\0';
	for (i = 0; i < n; i = j) {
		int st = i + 1 < n ? os[i + 1] - os[i] : 0;

		for (j = i + 1; j < n && st > 0 && os[j] - os[j - 1] == st;
		     j++)
			;
		if (j - i < 3) {
			j = i + 1;
			len += (size_t)snprintf(out + len, cap - len, "%s{%d}",
						i ? "," : "", os[i]);
		} else if (st == 1) {
			len += (size_t)snprintf(out + len, cap - len,
						"%s{%d}:%d", i ? "," : "",
						os[i], j - i);
		} else {
			len += (size_t)snprintf(out + len, cap - len,
						"%s{%d}:%d:%d", i ? "," : "",
						os[i], j - i, st);
		}
	}
	return out;
}

/* What a set of PUs loses of placement OS: NULL when nothing. */
static char *set_loses(const int *os, int n)
{
	bool ordered = false, shared;
	int *s = xcalloc((size_t)n + 1, sizeof(int)), i, j;
	char *out = NULL;

	for (i = 1; i < n; i++)
		ordered |= os[i] < os[i - 1];
	memcpy(s, os, sizeof(int) * (size_t)n);
	for (i = 1; i < n; i++) {
		int v = s[i];

		for (j = i; j > 0 && s[j - 1] > v; j--)
			s[j] = s[j - 1];
		s[j] = v;
	}
	shared = distinct(s, n) < n;
	if (ordered || shared)
		out = xasprintf("# a set: loses %s%s%s; the pandia run line "
				"keeps %s", ordered ? "the thread order" : "",
				ordered && shared ? " and " : "", shared ?
				"which threads share a PU" : "",
				ordered && shared ? "both" : "it");
	free(s);
	return out;
}

void pins_make(const struct ctx *x, const struct placement_info *pi,
	       struct pins *p)
{
	char *set = cpuset_format(pi->os, pi->n);
	char *cmd = command_line(x->w, pi->n, pi->list,
				 isnan(x->o->size) && x->w->has_size ?
				 x->w->size : x->o->size);
	char *places, mem[48];

	memset(p, 0, sizeof(*p));
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
	p->loses = set_loses(pi->os, pi->n);
	p->taskset = xasprintf("taskset -c %s %s", set, cmd);
	p->numactl = xasprintf("numactl --physcpubind=%s %s %s", set, mem,
			       cmd);
	/* OMP_PLACES only binds OpenMP threads: for other programs the
	   line would pin nothing */
	if (!x->w->n_command)
		p->omp_why = "the workload's command is not known";
	else if (!elf_is_openmp(x->w->command[0]))
		p->omp_why = "the command is not an OpenMP program (its ELF "
			"needs neither libgomp nor libomp)";
	if (!p->omp_why) {
		places = omp_places(pi->os, pi->n);
		p->omp = xasprintf("OMP_NUM_THREADS=%d OMP_PLACES='%s' "
				   "OMP_PROC_BIND=close %s", pi->n, places,
				   cmd);
		free(places);
	}
	p->run = xasprintf("pandia run --cpus %s -- %s", pi->list, cmd);
	free(set);
	free(cmd);
}

void pins_release(struct pins *p)
{
	free(p->taskset);
	free(p->numactl);
	free(p->omp);
	free(p->run);
	free(p->loses);
}

json_t *pins_json(const struct pins *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "taskset", json_string(p->taskset));
	json_object_set_new(o, "numactl", json_string(p->numactl));
	json_object_set_new(o, "omp", p->omp ? json_string(p->omp) :
			    json_null());
	json_object_set_new(o, "pandia_run", json_string(p->run));
	/* what each line cannot express, by line */
	if (p->loses || p->omp_why) {
		json_t *n = json_object();

		if (p->loses) {
			json_object_set_new(n, "taskset",
					    json_string(p->loses + 2));
			json_object_set_new(n, "numactl",
					    json_string(p->loses + 2));
		}
		if (p->omp_why)
			json_object_set_new(n, "omp",
					    json_string(p->omp_why));
		json_object_set_new(o, "notes", n);
	}
	return o;
}

void pins_print(const struct pins *p)
{
	if (p->loses)
		printf("  %s  %s\n  %s  %s\n", p->taskset, p->loses,
		       p->numactl, p->loses);
	else
		printf("  %s\n  %s\n", p->taskset, p->numactl);
	if (p->omp)
		printf("  %s\n", p->omp);
	printf("  %s\n", p->run);
}
