/*
 * run_map.c - pandia run --map: where the threads ran, as text (the
 * topology, each PU with the threads that ran there most, a line a
 * thread) and, with -o DIR, as a figure drawn by gnuplot (PUs across,
 * threads down, a mark where a thread ran, its size and colour its
 * share of the thread's time).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin.h"
#include "builtin/run.h"
#include "common/strbuf.h"
#include "common/util.h"

#define MAP_PU_SHOWN	4	/* threads named on a PU's line */
#define MAP_THREAD_PUS	3	/* PUs named on a thread's line */
#define MAP_THREADS	16	/* thread lines; the rest summed up */

/* "t7" (creation index), or "tid 1234" when the index is not known */
static const char *label(const struct run_map_thread *t, char *buf,
			 size_t size)
{
	if (t->index >= 0)
		snprintf(buf, size, "t%d", t->index);
	else
		snprintf(buf, size, "tid %d", t->tid);
	return buf;
}

static int pct(double share)
{
	return (int)lround(100 * share);
}

/* "PU 3: t0 98%, t7 51% and 4 more (6 threads, 1.2 s)", or "nothing" */
static void print_pu(const struct run_map *map, int pu, const char *indent)
{
	double *secs, sum = 0;
	int *idx, n, i;
	char b[32];

	n = run_map_on_pu(map, pu, &idx, &secs);
	printf("%sPU %d: ", indent, pu);
	if (!n)
		fputs("nothing ran here", stdout);
	for (i = 0; i < n; i++) {
		const struct run_map_thread *t = &map->threads[idx[i]];

		sum += secs[i];
		if (i >= MAP_PU_SHOWN)
			continue;
		printf("%s%s %d%%", i ? ", " : "", label(t, b, sizeof(b)),
		       pct(t->seconds > 0 ? secs[i] / t->seconds : 0));
	}
	if (n > MAP_PU_SHOWN)
		printf(" and %d more", n - MAP_PU_SHOWN);
	if (n)
		printf(" (%d thread%s, %.3g s)", n, n == 1 ? "" : "s", sum);
	putchar('\n');
	free(idx);
	free(secs);
}

/* whether any thread ran on a PU of core C */
static bool core_busy(const struct run_map *map,
		      const struct pandia_machine *m, int c)
{
	const struct pandia_core *core = &m->cores[c];
	int k;

	for (k = 0; k < core->n_pus; k++) {
		int *idx, n;

		n = run_map_on_pu(map, m->pus[core->pus[k]].os_index, &idx,
				  NULL);
		free(idx);
		if (n)
			return true;
	}
	return false;
}

/* package / core / PU, idle cores in a row on one line */
static void print_topology(const struct run_map *map,
			   const struct pandia_machine *m)
{
	int s, i, k;

	for (s = 0; s < m->n_sockets; s++) {
		const struct pandia_socket *so = &m->sockets[s];

		printf("  package %d\n", so->os_index);
		for (i = 0; i < so->n_cores; i++) {
			int c = so->cores[i], j = i;

			while (j + 1 < so->n_cores &&
			       !core_busy(map, m, so->cores[j]) &&
			       !core_busy(map, m, so->cores[j + 1]))
				j++;
			if (j > i) {
				printf("    cores %d-%d: nothing ran there\n",
				       c, so->cores[j]);
				i = j;
				continue;
			}
			printf("    core %d\n", c);
			for (k = 0; k < m->cores[c].n_pus; k++)
				print_pu(map, m->pus[m->cores[c].pus[k]].
					 os_index, "      ");
		}
	}
}

/* "PU 3 51%, PU 0 40%, 2 more PUs 9%" */
static void print_thread(const struct run_map_thread *t)
{
	double rest = 0;
	char b[32];
	int k;

	if (t->index >= 0)
		printf("  %s (tid %d, %s): ", label(t, b, sizeof(b)), t->tid,
		       t->worker ? "worker" : "helper");
	else
		printf("  tid %d (%s): ", t->tid,
		       t->worker ? "worker" : "helper");
	for (k = 0; k < t->n_pus; k++) {
		if (k < MAP_THREAD_PUS)
			printf("%sPU %d %d%%", k ? ", " : "", t->pus[k].pu,
			       pct(t->pus[k].share));
		else
			rest += t->pus[k].share;
	}
	if (t->n_pus > MAP_THREAD_PUS)
		printf(", %d more PU%s %d%%", t->n_pus - MAP_THREAD_PUS,
		       t->n_pus - MAP_THREAD_PUS == 1 ? "" : "s", pct(rest));
	if (!t->n_pus)
		fputs("no CPU time seen", stdout);
	printf("; %ld migration%s\n", t->migrations,
	       t->migrations == 1 ? "" : "s");
}

/*
 * The threads after the first MAP_THREADS in one line: how many had
 * each PU as their top one, the range and median of their top share
 * and of their migrations.
 */
static void print_rest(const struct run_map *map)
{
	int n = map->n_threads - MAP_THREADS, i, j, *pus, n_pus;
	double *share = xcalloc((size_t)n, sizeof(double));
	double *mig = xcalloc((size_t)n, sizeof(double));
	const char *sep = "";

	n_pus = run_map_pus(map, &pus);
	printf("  ... and %d more threads: top PU", n);
	for (j = 0; j < n_pus; j++) {
		int k = 0;

		for (i = MAP_THREADS; i < map->n_threads; i++)
			k += map->threads[i].n_pus &&
			     map->threads[i].pus[0].pu == pus[j];
		if (k) {
			printf("%s %d for %d", sep, pus[j], k);
			sep = ",";
		}
	}
	for (i = 0; i < n; i++) {
		const struct run_map_thread *t = &map->threads[MAP_THREADS + i];

		share[i] = t->n_pus ? t->pus[0].share : 0;
		mig[i] = (double)t->migrations;
	}
	qsort(share, (size_t)n, sizeof(double), cmp_double);
	qsort(mig, (size_t)n, sizeof(double), cmp_double);
	printf("; its share %d%%-%d%% (median %d%%); %.0f-%.0f migrations "
	       "(median %.0f); --json lists every thread\n", pct(share[0]),
	       pct(share[n - 1]), pct(share[n / 2]), mig[0], mig[n - 1],
	       mig[n / 2]);
	free(pus);
	free(share);
	free(mig);
}

static const char *source_text(const struct run_map *map)
{
	const char *s = run_map_source(map);

	if (!strcmp(s, "kernel"))
		return "the kernel's count (se.nr_migrations)";
	if (!strcmp(s, "samples"))
		return "changes of PU seen between samples (the kernel "
		       "shows no se.nr_migrations), a lower bound";
	return "the kernel's count where it showed one, else the changes "
	       "seen";
}

void run_map_print(const struct run_map *map, const struct pandia_machine *m)
{
	int *pus, n, i;

	if (!map->n_threads) {
		printf("map:       no thread seen: the command ended before "
		       "the first reading (%.0f ms)\n", map->period * 1e3);
		return;
	}
	printf("map:       where the threads ran in the last run, sampled "
	       "every %.0f ms (%d samples)\n           migrations: %s\n",
	       map->period * 1e3, map->samples, source_text(map));
	if (m)
		print_topology(map, m);
	/* PUs the machine does not list (or every PU, without one) */
	n = run_map_pus(map, &pus);
	for (i = 0; i < n; i++) {
		if (m && machine_pu_index(m, pus[i]) >= 0)
			continue;
		print_pu(map, pus[i], m ? "  not in the topology: " : "  ");
	}
	free(pus);
	for (i = 0; i < map->n_threads && i < MAP_THREADS; i++)
		print_thread(&map->threads[i]);
	if (map->n_threads > MAP_THREADS)
		print_rest(map);
}

/* ---- the figure ------------------------------------------------------ */

/*
 * The PUs across: the machine's in package and core order, then any
 * other PU a thread ran on.  New array of OS indexes; *n their count.
 */
static int *axis_pus(const struct run_map *map,
		     const struct pandia_machine *m, int *n)
{
	int *seen, n_seen, *v, k = 0, s, i, j;

	n_seen = run_map_pus(map, &seen);
	v = xcalloc((size_t)(n_seen + (m ? m->n_pus : 0)) + 1, sizeof(int));
	for (s = 0; m && s < m->n_sockets; s++)
		for (i = 0; i < m->sockets[s].n_cores; i++) {
			const struct pandia_core *c =
				&m->cores[m->sockets[s].cores[i]];

			for (j = 0; j < c->n_pus; j++)
				v[k++] = m->pus[c->pus[j]].os_index;
		}
	for (i = 0; i < n_seen; i++)
		if (!m || machine_pu_index(m, seen[i]) < 0)
			v[k++] = seen[i];
	free(seen);
	*n = k;
	return v;
}

static int axis_of(const int *v, int n, int pu)
{
	int i;

	for (i = 0; i < n && v[i] != pu; i++)
		;
	return i;
}

static char *gnuplot_script(const struct run_map *map,
			    const struct pandia_machine *m, const char *title)
{
	struct strbuf b = STRBUF_INIT;
	int n_ax, *ax = axis_pus(map, m, &n_ax), i, k;
	int w = 640 + 40 * n_ax, h = 240 + 14 * map->n_threads;
	int step = map->n_threads > 60 ? 5 : 1;
	char lb[32];

	w = w > 2400 ? 2400 : w;
	h = h > 2000 ? 2000 : h;
	strbuf_printf(&b, "# pandia: where the threads ran (pandia run "
		      "--map): a mark where a\n# thread ran, its size and "
		      "colour the thread's share of its CPU\n# time there "
		      "(docs/running.md).  Draw it again: gnuplot map.gp\n");
	strbuf_gnuplot_png(&b, w, h, 9);
	strbuf_printf(&b, "set output \"map.png\"\nset title ");
	strbuf_gnuplot_string(&b, title);
	strbuf_printf(&b, " noenhanced\nset xlabel \"PU (package.core)\"\n"
		      "set ylabel \"thread (creation order)\"\n"
		      "set xrange [-0.5:%g]\nset yrange [%g:-0.5]\n"
		      "set cbrange [0:100]\nset cblabel \"share of the "
		      "thread's CPU time (%%)\"\nset palette defined "
		      "(0 \"#c6dbef\", 50 \"#2171b5\", 100 \"#08306b\")\n"
		      "set grid\nset xtics rotate by -60 (", n_ax - 0.5,
		      map->n_threads - 0.5);
	for (i = 0; i < n_ax; i++) {
		int p = m ? machine_pu_index(m, ax[i]) : -1;

		if (p >= 0)
			strbuf_printf(&b, "%s\"%d (%d.%d)\" %d", i ? ", " : "",
				      ax[i], m->sockets[m->cores[m->pus[p].
				      core].socket].os_index, m->pus[p].core,
				      i);
		else
			strbuf_printf(&b, "%s\"%d\" %d", i ? ", " : "", ax[i],
				      i);
	}
	strbuf_printf(&b, ")\nset ytics (");
	for (i = 0; i < map->n_threads; i += step)
		strbuf_printf(&b, "%s\"%s\" %d", i ? ", " : "",
			      label(&map->threads[i], lb, sizeof(lb)), i);
	strbuf_printf(&b, ")\n$data << EOD\n# PU-axis thread share%%\n");
	for (i = 0; i < map->n_threads; i++)
		for (k = 0; k < map->threads[i].n_pus; k++)
			strbuf_printf(&b, "%d %d %.1f\n",
				      axis_of(ax, n_ax,
					      map->threads[i].pus[k].pu), i,
				      100 * map->threads[i].pus[k].share);
	strbuf_printf(&b, "EOD\nplot $data using 1:2:(0.3+2.2*sqrt($3/100))"
		      ":3 with points pt 7 ps variable lc palette notitle\n");
	free(ax);
	return b.s;
}

int run_map_check_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		error("cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("'%s' is not a directory (-o DIR: the map's files)",
		      dir);
		return -1;
	}
	return 0;
}

int run_map_save(const struct run_map *map, const struct pandia_machine *m,
		 const char *dir, const char *title)
{
	char *script, *json;
	struct pandia_error err;
	json_t *j = run_map_to_json(map);
	int ret = -1;

	json = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	json_decref(j);
	if (write_file_in(dir, "map.json", json, &err) < 0) {
		error_perr(&err);
		goto out;
	}
	script = gnuplot_script(map, m, title);
	ret = draw_figure(dir, "map", script);
	free(script);
out:
	free(json);
	return ret;
}
