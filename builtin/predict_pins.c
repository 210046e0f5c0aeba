/*
 * predict_pins.c - pandia predict: the lines that pin a placement
 * (taskset, numactl, OpenMP's variables, libgomp's, LLVM's and Intel's,
 * hwloc-bind, likwid-pin, srun, Open MPI's mpirun, MPICH's mpiexec,
 * systemd-run, docker and pandia run; --lines chooses), and
 * what each one cannot say.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict.h"
#include "builtin/predict_job.h"
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

static const char *const line_names[PIN_LINES] = {
	"taskset", "numactl", "omp", "gomp", "kmp", "hwloc", "likwid",
	"srun", "ompi", "mapby", "mpich", "systemd", "docker", "run"
};

const char *pin_line_name(enum pin_line l)
{
	return line_names[l];
}

int pin_lines_parse(const char *text, unsigned *bits)
{
	char *copy = xstrdup(text), *tok, *save = NULL;
	int l, ret = 0;

	*bits = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			*bits |= (1u << PIN_LINES) - 1;
			continue;
		}
		for (l = 0; l < PIN_LINES && strcmp(tok, line_names[l]); l++)
			;
		if (l == PIN_LINES)
			ret = -1;
		else
			*bits |= 1u << l;
	}
	free(copy);
	return ret || !*bits ? -1 : 0;
}

/* PI's OS indexes in thread order, SEP between them (new string). */
static char *os_joined(const struct placement_info *pi, const char *sep)
{
	size_t cap = 12 * (size_t)pi->n + 4, len = 0;
	char *out = xmalloc(cap);
	int i;

	out[0] = '\0';
	for (i = 0; i < pi->n; i++) {
		snprintf(out + len, cap - len, "%s%d", i ? sep : "",
			 pi->os[i]);
		len += strlen(out + len);
	}
	return out;
}

/* The lines of OpenMP runtimes, each keeping the threads' order. */
static void omp_lines(struct pins *p, const struct placement_info *pi,
		      const char *cmd)
{
	char *places = omp_places(pi->os, pi->n);
	char *spaced = os_joined(pi, " "), *commas = os_joined(pi, ",");

	p->line[PIN_OMP] = xasprintf("OMP_NUM_THREADS=%d OMP_PLACES='%s' "
				     "OMP_PROC_BIND=close %s", pi->n, places,
				     cmd);
	/* libgomp: thread i on the i-th CPU of the list */
	p->line[PIN_GOMP] = xasprintf("OMP_NUM_THREADS=%d "
				      "GOMP_CPU_AFFINITY='%s' %s", pi->n,
				      spaced, cmd);
	/* LLVM's and Intel's runtime: the same, as a proclist, each thread
	   on its PU (granularity fine): the default, core, lets a thread
	   onto every PU of the core its runtime takes it for, all of
	   them where that runtime misreads the topology (libomp 14 on a
	   2-vCPU PVM guest: one core of two threads) */
	p->line[PIN_KMP] = xasprintf("OMP_NUM_THREADS=%d KMP_AFFINITY="
				     "'granularity=fine,explicit,"
				     "proclist=[%s]' %s", pi->n, commas, cmd);
	free(places);
	free(spaced);
	free(commas);
}

/* A set as hwloc's PU locations by OS index. */
static void set_lines(struct pins *p, const struct placement_info *pi,
		      const char *cmd)
{
	size_t cap = 16 * (size_t)pi->n + 8, len = 0;
	char *pus = xmalloc(cap);
	bool *in;
	int i, max = 0;

	for (i = 0; i < pi->n; i++)
		max = pi->os[i] > max ? pi->os[i] : max;
	in = xcalloc((size_t)max + 1, sizeof(bool));
	pus[0] = '\0';
	for (i = 0; i < pi->n; i++) {
		if (in[pi->os[i]])
			continue;
		in[pi->os[i]] = true;
		snprintf(pus + len, cap - len, "%spu:%d", len ? " " : "",
			 pi->os[i]);
		len += strlen(pus + len);
	}
	/* --physical: the indexes are the OS's, as everywhere here */
	p->line[PIN_HWLOC] = xasprintf("hwloc-bind --physical %s -- %s", pus,
				       cmd);
	free(in);
	free(pus);
}

/*
 * The lines of a job launcher (srun, mpirun, mpiexec): one rank, all
 * of its threads in the set (predict_job.c says them for any number
 * of ranks).  The machine's PUs in hwloc's logical order, core by core
 * in the description's order, are what Open MPI's --map-by walks.
 */
static void launcher_lines(struct pins *p, const struct ctx *x, int ranks,
			   const struct job_rank *r, const char *cmd)
{
	const struct pandia_machine *m = x->m;
	struct job_lines j;
	int *order = xcalloc((size_t)m->n_pus + 1, sizeof(int)), n = 0;
	int c, k;

	for (c = 0; c < m->n_cores; c++)
		for (k = 0; k < m->cores[c].n_pus; k++)
			order[n++] = m->pus[m->cores[c].pus[k]].os_index;
	job_lines(ranks, r, order, n, cmd, &j);
	p->line[PIN_SRUN] = j.line[JOB_SRUN];
	p->line[PIN_OMPI] = j.line[JOB_OMPI];
	p->line[PIN_MAPBY] = j.line[JOB_OMPI_MAPBY];
	p->line[PIN_MPICH] = j.line[JOB_MPICH];
	p->rankfile = j.rankfile;
	p->mapby_why = j.mapby_why;
	free(order);
}

void pins_make_job(const struct ctx *x, int ranks, const struct job_rank *r,
		   struct pins *p)
{
	const unsigned job = 1u << PIN_SRUN | 1u << PIN_OMPI |
		1u << PIN_MAPBY | 1u << PIN_MPICH;
	char *list = cpuset_format(r[0].os, r[0].n);
	char *cmd = command_line(x->w, r[0].n, list,
				 isnan(x->o->size) && x->w->has_size ?
				 x->w->size : x->o->size);

	memset(p, 0, sizeof(*p));
	p->shown = x->o->lines ? x->o->lines & job : job;
	/* every rank's OpenMP threads: the launchers pass the
	   environment on, and env(1) is a command every one of them runs */
	if (x->w->n_command && elf_is_openmp(x->w->command[0])) {
		char *e = xasprintf("env OMP_NUM_THREADS=%d %s", r[0].n, cmd);

		free(cmd);
		cmd = e;
	}
	launcher_lines(p, x, ranks, r, cmd);
	free(list);
	free(cmd);
}

/*
 * The lines that give a whole process a set of PUs from outside:
 * systemd-run's transient service (CPUAffinity=, and the memory as
 * NUMAPolicy= and NUMAMask=, systemd.exec(5)) and a container
 * (docker run --cpuset-cpus, --cpuset-mems for a node; IMAGE is the
 * user's).  Both take a set: the order and the sharing are lost.
 */
static void unit_lines(struct pins *p, const struct ctx *x, const char *set,
		       const char *cmd)
{
	int *nodes = xcalloc((size_t)x->m->n_numa + 1, sizeof(int)), i;
	char numa[256], mems[32] = "", *all;

	for (i = 0; i < x->m->n_numa; i++)
		nodes[i] = x->m->numa[i].os_index;
	all = cpuset_format(nodes, x->m->n_numa);
	free(nodes);
	switch (x->mem.kind) {
	case MEM_INTERLEAVE:
		snprintf(numa, sizeof(numa), "-p NUMAPolicy=interleave "
			 "-p NUMAMask=%s ", all);
		break;
	case MEM_NODE:
		snprintf(numa, sizeof(numa), "-p NUMAPolicy=bind "
			 "-p NUMAMask=%d ", x->mem.node);
		snprintf(mems, sizeof(mems), " --cpuset-mems=%d",
			 x->mem.node);
		break;
	default:
		snprintf(numa, sizeof(numa), "-p NUMAPolicy=local ");
		break;
	}
	p->line[PIN_SYSTEMD] = xasprintf("systemd-run --wait --pipe "
					 "--same-dir -p CPUAffinity=%s %s%s",
					 set, numa, cmd);
	p->line[PIN_DOCKER] = xasprintf("docker run --rm --cpuset-cpus=%s%s "
					"IMAGE %s", set, mems, cmd);
	free(all);
}

/* Whether command word CMD is on $PATH. */
static bool installed(const char *cmd)
{
	char *f = elf_which(cmd);

	free(f);
	return f != NULL;
}

/*
 * The lines shown without --lines: taskset's, numactl's, OpenMP's and
 * pandia run's, and those of the tools installed here (hwloc-bind,
 * likwid-pin, srun, Open MPI's (ompi_info: mpirun may be MPICH's) and
 * MPICH's mpiexec), which a user of them would paste.
 */
static unsigned default_lines(void)
{
	unsigned bits = PIN_DEFAULT;

	if (installed("hwloc-bind"))
		bits |= 1u << PIN_HWLOC;
	if (installed("likwid-pin"))
		bits |= 1u << PIN_LIKWID;
	if (installed("srun"))
		bits |= 1u << PIN_SRUN;
	if (installed("ompi_info"))
		bits |= 1u << PIN_OMPI | 1u << PIN_MAPBY;
	if (installed("mpiexec.mpich"))
		bits |= 1u << PIN_MPICH;
	return bits;
}

void pins_make(const struct ctx *x, const struct placement_info *pi,
	       struct pins *p)
{
	char *set = cpuset_format(pi->os, pi->n);
	char *cmd = command_line(x->w, pi->n, pi->list,
				 isnan(x->o->size) && x->w->has_size ?
				 x->w->size : x->o->size);
	struct job_rank r = { pi->n, pi->os };
	char mem[48], *list;

	memset(p, 0, sizeof(*p));
	p->shown = x->o->lines ? x->o->lines : default_lines();
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
	p->line[PIN_TASKSET] = xasprintf("taskset -c %s %s", set, cmd);
	p->line[PIN_NUMACTL] = xasprintf("numactl --physcpubind=%s %s %s",
					 set, mem, cmd);
	set_lines(p, pi, cmd);
	launcher_lines(p, x, 1, &r, cmd);
	/* OpenMP's variables only bind OpenMP threads: for other programs
	   the lines would pin nothing */
	if (!x->w->n_command)
		p->omp_why = "the workload's command is not known";
	else if (!elf_is_openmp(x->w->command[0]))
		p->omp_why = "the command is not an OpenMP program (its ELF "
			"needs neither libgomp nor libomp)";
	if (!p->omp_why)
		omp_lines(p, pi, cmd);
	/* likwid-pin: thread i, main first, on the i-th of the list */
	list = os_joined(pi, ",");
	p->line[PIN_LIKWID] = xasprintf("likwid-pin -q -c %s %s", list, cmd);
	free(list);
	p->line[PIN_RUN] = xasprintf("pandia run --cpus %s -- %s", pi->list,
				     cmd);
	unit_lines(p, x, set, cmd);
	free(set);
	free(cmd);
}

void pins_release(struct pins *p)
{
	int l;

	for (l = 0; l < PIN_LINES; l++)
		free(p->line[l]);
	free(p->loses);
	free(p->rankfile);
}

/* Whether line L takes a set (loses the order and the sharing). */
static bool takes_set(int l)
{
	return l == PIN_TASKSET || l == PIN_NUMACTL || l == PIN_HWLOC ||
		l == PIN_SRUN || l == PIN_OMPI || l == PIN_MAPBY ||
		l == PIN_MPICH || l == PIN_SYSTEMD || l == PIN_DOCKER;
}

/* The JSON key of line L: the default lines keep their old names. */
static const char *json_key(int l)
{
	return l == PIN_RUN ? "pandia_run" : line_names[l];
}

json_t *pins_json(const struct pins *p)
{
	json_t *o = json_object(), *n = json_object();
	int l;

	for (l = 0; l < PIN_LINES; l++) {
		if (!(p->shown & 1u << l))
			continue;
		json_object_set_new(o, json_key(l), p->line[l] ?
				    json_string(p->line[l]) : json_null());
		/* what each line cannot express, by line */
		if (p->loses && takes_set(l))
			json_object_set_new(n, json_key(l),
					    json_string(p->loses + 2));
		else if (!p->line[l] && l == PIN_MAPBY)
			json_object_set_new(n, json_key(l),
					    json_string(p->mapby_why));
		else if (!p->line[l] && p->omp_why)
			json_object_set_new(n, json_key(l),
					    json_string(p->omp_why));
	}
	/* the file the ompi line writes, as the line has it */
	if (p->shown & 1u << PIN_OMPI)
		json_object_set_new(o, "rankfile", json_string(p->rankfile));
	if (json_object_size(n))
		json_object_set_new(o, "notes", n);
	else
		json_decref(n);
	return o;
}

void pins_print(const struct pins *p)
{
	int l;

	for (l = 0; l < PIN_LINES; l++) {
		if (l == PIN_MAPBY && !p->line[l] && p->shown & 1u << l)
			printf("  # no mpirun --map-by line: %s\n",
			       p->mapby_why);
		if (!(p->shown & 1u << l) || !p->line[l])
			continue;
		if (p->loses && takes_set(l))
			printf("  %s  %s\n", p->line[l], p->loses);
		else
			printf("  %s\n", p->line[l]);
	}
}
