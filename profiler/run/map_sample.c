/*
 * map_sample.c - with --map, where each thread of the command runs:
 * /proc/PID/task/TID/stat's "processor" (the PU it ran on last) and
 * its CPU time, with /proc/PID/task/TID/sched's se.nr_migrations where
 * the kernel has it (CONFIG_SCHED_DEBUG), read every RUN_MAP_PERIOD
 * seconds or more and folded into r->map by map.c.
 */
#include "profiler/run/internal.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

/* the file PATH into BUF, NUL-terminated; its length or -1 */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/*
 * stat's PU (field 39) and CPU time (utime + stime, fields 14 and 15,
 * in clock ticks).  The command name, field 2, may hold blanks and
 * parentheses: the fields are counted from its last ')'.
 */
static bool parse_stat(const char *text, int *pu, double *cpu)
{
	const char *p = strrchr(text, ')');
	unsigned long long ut = 0, st = 0;
	int field = 2;
	long cpu_no = -1;

	if (!p)
		return false;
	p++;
	while (*p && field < 39) {
		p += strspn(p, " ");
		field++;
		if (field == 14)
			ut = strtoull(p, NULL, 10);
		else if (field == 15)
			st = strtoull(p, NULL, 10);
		else if (field == 39)
			cpu_no = strtol(p, NULL, 10);
		p += strcspn(p, " ");
	}
	if (field < 39 || cpu_no < 0)
		return false;
	*pu = (int)cpu_no;
	*cpu = (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
	return true;
}

/* "NAME   :   VALUE" of the sched file, as a double; false if absent */
static bool sched_value(const char *text, const char *name, double *v)
{
	size_t len = strlen(name);
	const char *p = text;

	while ((p = strstr(p, name))) {
		if ((p == text || p[-1] == '\n') &&
		    (p[len] == ' ' || p[len] == ':')) {
			p += len + strspn(p + len, " :\t");
			*v = strtod(p, NULL);
			return true;
		}
		p += len;
	}
	return false;
}

/* one thread's sample; false when it is gone */
static bool read_thread(const char *dir, int pid, int tid,
			struct run_map_sample *s)
{
	char path[320], buf[4096];
	double v;

	snprintf(path, sizeof(path), "%s/%d/stat", dir, tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	s->pid = pid;
	s->tid = tid;
	s->migrations = -1;
	if (!parse_stat(buf, &s->pu, &s->cpu))
		return false;
	snprintf(path, sizeof(path), "%s/%d/sched", dir, tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return true;
	/* the scheduler's own CPU time (ms, to the ns) is finer than the
	   clock ticks of stat, which are as long as half a period */
	if (sched_value(buf, "se.sum_exec_runtime", &v) && v >= 0)
		s->cpu = v * 1e-3;
	if (sched_value(buf, "se.nr_migrations", &v) && v >= 0)
		s->migrations = (long)v;
	return true;
}

void map_start(struct ctx *c)
{
	if (!c->o->map || !c->local)
		return;
	run_map_free(c->r->map);
	c->r->map = run_map_new(RUN_MAP_PERIOD);
	c->acct.map_step = RUN_MAP_PERIOD;
	c->acct.next_map = c->t0 + c->acct.map_step;
}

static void map_task(struct ctx *c, const char *dir, int pid, int tid,
		     void *data)
{
	struct run_map_sample s;
	int *seen = data;

	if (read_thread(dir, pid, tid, &s)) {
		run_map_add(c->r->map, &s);
		(*seen)++;
	}
}

void sample_map(struct ctx *c)
{
	struct run_map *m = c->r->map;
	int seen = 0;

	if (!m)
		return;
	each_task(c, map_task, &seen);
	m->samples++;
	/* the same cost of /proc at any number of threads */
	c->acct.map_step = RUN_MAP_PERIOD;
	if (seen * RUN_MAP_PER_THREAD > c->acct.map_step)
		c->acct.map_step = seen * RUN_MAP_PER_THREAD;
	if (c->acct.map_step > m->period)
		m->period = c->acct.map_step;
}

void map_finish(struct ctx *c)
{
	struct run_map *m = c->r->map;
	int i, j;

	if (!m)
		return;
	for (i = 0; i < m->n_threads; i++) {
		struct run_map_thread *t = &m->threads[i];

		t->worker = true;
		for (j = 0; j < c->r->n_threads; j++) {
			const struct run_thread *x = &c->r->threads[j];

			if (x->tid == t->tid && x->pid == t->pid) {
				t->index = x->index;
				t->worker = x->worker;
				break;
			}
		}
	}
	run_map_finish(m);
}
