/*
 * predict_job.c - the lines that pin a job's ranks: srun's masks, Open
 * MPI 4.1's physical rankfile and --map-by, MPICH hydra's user
 * binding.  Each tool binds a rank to a set of PUs, whatever the number
 * of ranks; one rank is what pandia predict shows.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/predict_job.h"
#include "common/cpulist.h"
#include "common/strbuf.h"
#include "common/util.h"

/* R's PUs, each once, ascending, into *SET (new); how many. */
static int rank_set(const struct job_rank *r, int **set)
{
	int *s = xcalloc((size_t)r->n + 1, sizeof(int)), n = 0, i, j;

	for (i = 0; i < r->n; i++) {
		for (j = 0; j < n && s[j] < r->os[i]; j++)
			;
		if (j < n && s[j] == r->os[i])
			continue;
		memmove(s + j + 1, s + j, sizeof(int) * (size_t)(n - j));
		s[j] = r->os[i];
		n++;
	}
	*set = s;
	return n;
}

/* The set S of N PUs as a hex mask, "0x" first, into B. */
static void add_mask(struct strbuf *b, const int *s, int n)
{
	int max = n ? s[n - 1] : 0, d, i;

	strbuf_printf(b, "0x");
	for (d = max / 4; d >= 0; d--) {
		int v = 0;

		for (i = 0; i < n; i++)
			if (s[i] / 4 == d)
				v |= 1 << s[i] % 4;
		strbuf_addc(b, "0123456789abcdef"[v]);
	}
}

/*
 * Whether --map-by slot:PE=n says the layout: Open MPI maps rank i to
 * the next n PUs of the logical order, from the first, so rank i must
 * hold exactly ORDER[i*n .. i*n+n-1].  *N gets n.
 */
static bool mapby_regular(int ranks, int *const *set, const int *count,
			  const int *order, int n_order, int *n)
{
	int i, j, k;

	*n = count[0];
	if ((long)ranks * *n > n_order)
		return false;
	for (i = 0; i < ranks; i++) {
		if (count[i] != *n)
			return false;
		for (j = 0; j < *n; j++) {
			for (k = 0; k < *n && set[i][k] !=
			     order[i * *n + j]; k++)
				;
			if (k == *n)
				return false;
		}
	}
	return true;
}

void job_lines(int ranks, const struct job_rank *r, const int *order,
	       int n_order, const char *cmd, struct job_lines *out)
{
	int **set = xcalloc((size_t)ranks, sizeof(*set));
	int *count = xcalloc((size_t)ranks, sizeof(int)), i, j, n;
	struct strbuf srun = STRBUF_INIT, rf = STRBUF_INIT;
	struct strbuf user = STRBUF_INIT, ompi = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ranks; i++)
		count[i] = rank_set(&r[i], &set[i]);
	/* slurm: one mask per task, in task order (srun(1), mask_cpu) */
	strbuf_printf(&srun, "srun -n %d --cpu-bind=mask_cpu:", ranks);
	for (i = 0; i < ranks; i++) {
		strbuf_printf(&srun, "%s", i ? "," : "");
		add_mask(&srun, set[i], count[i]);
	}
	strbuf_printf(&srun, " %s", cmd);
	out->line[JOB_SRUN] = srun.s;
	/*
	 * Open MPI 4.1 reads a rankfile's slots as logical indexes unless
	 * rmaps_rank_file_physical is 1: then they are the OS's PU
	 * numbers (mpirun(1), "Rankfiles"), as everywhere in pandia
	 */
	for (i = 0; i < ranks; i++) {
		char *s = cpuset_format(set[i], count[i]);

		strbuf_printf(&rf, "rank %d=localhost slot=%s\n", i, s);
		free(s);
	}
	out->rankfile = rf.s;
	strbuf_printf(&ompi, "printf '");
	for (i = 0; i < (int)rf.len; i++) {
		if (rf.s[i] == '\n')
			strbuf_printf(&ompi, "\\n");
		else
			strbuf_addc(&ompi, rf.s[i]);
	}
	strbuf_printf(&ompi, "' >%s && mpirun -np %d --mca "
		      "rmaps_rank_file_physical 1 -rf %s %s", JOB_RANKFILE,
		      ranks, JOB_RANKFILE, cmd);
	out->line[JOB_OMPI] = ompi.s;
	/* with --use-hwthread-cpus a processing element is a PU */
	if (mapby_regular(ranks, set, count, order, n_order, &n))
		out->line[JOB_OMPI_MAPBY] = xasprintf("mpirun -np %d "
			"--use-hwthread-cpus --map-by slot:PE=%d "
			"--bind-to hwthread %s", ranks, n, cmd);
	else
		out->mapby_why = "the ranks are not equal runs of PUs in "
			"hwloc's logical order from the first, as --map-by "
			"takes them: the rankfile says it";
	/* hydra: rank i on the i-th group, its PUs joined by '+' (OS
	   processor numbers, mpiexec -bind-to -h) */
	strbuf_printf(&user, "mpiexec.mpich -n %d -bind-to user:", ranks);
	for (i = 0; i < ranks; i++)
		for (j = 0; j < count[i]; j++)
			strbuf_printf(&user, "%s%d",
				      j ? "+" : i ? "," : "", set[i][j]);
	strbuf_printf(&user, " %s", cmd);
	out->line[JOB_MPICH] = user.s;
	for (i = 0; i < ranks; i++)
		free(set[i]);
	free(set);
	free(count);
}

void job_lines_release(struct job_lines *j)
{
	int l;

	for (l = 0; l < JOB_LINES; l++)
		free(j->line[l]);
	free(j->rankfile);
}
