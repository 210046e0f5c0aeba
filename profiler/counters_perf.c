/*
 * counters_perf.c - counting a run with perf: the events of every role
 * opened on the calling thread (inherited, enabled on exec, as
 * counters.h describes), one run of the command, the counts read and
 * scaled by the time they were on a counter; and counters_demands(),
 * the profiler's call, which first decides between perf and probe.
 *
 * Only the perfmon headers are included for perf_event_attr: they carry
 * their own copy of the kernel's perf_event.h, which clashes with
 * <linux/perf_event.h>.
 */
#include "profiler/counters.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/util.h"
#include "profiler/counters_internal.h"

struct live {
	char *name;
	int fd;			/* -1: not open */
	char *error;		/* why it could not be opened */
	bool used;		/* part of a role's chosen alternative */
};

struct session {
	const char *pmu;
	bool kernel;
	int n;
	struct live *ev;
};

/* Index of event NAME in s, opening it first if new. */
static int session_event(struct session *s, const char *name)
{
	struct perf_event_attr attr;
	struct live *e;
	int i, ret;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ev[i].name, name))
			return i;
	s->ev = xrealloc(s->ev, (size_t)(s->n + 1) * sizeof(*s->ev));
	e = &s->ev[s->n];
	e->name = xstrdup(name);
	e->fd = -1;
	e->error = NULL;
	e->used = false;
	ret = counters_encode_one(name, s->kernel, &attr, NULL);
	if (ret != PFM_SUCCESS) {
		e->error = xasprintf("libpfm4 cannot encode it: %s",
				     pfm_strerror(ret));
		return s->n++;
	}
	attr.disabled = 1;
	attr.inherit = 1;
	attr.enable_on_exec = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->fd = (int)perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (e->fd < 0) {
		int saved = errno;

		e->fd = -1;
		e->error = xasprintf("the kernel refuses it (%s)",
				     strerror(saved));
	}
	return s->n++;
}

/*
 * Open, for every role, the first alternative whose events all open;
 * close what no chosen alternative uses.
 */
static void session_open(struct session *s)
{
	int r, i;

	for (r = 0; r < CR_COUNT; r++) {
		const struct counters_alt *alt[2];
		const char *prefix[2];
		int na = counters_alternatives(s->pmu, r, alt, prefix), a;

		for (a = 0; a < na; a++) {
			int idx[COUNTERS_MAX_PARTS], np = 0;
			bool ok = true;

			for (i = 0; i < COUNTERS_MAX_PARTS &&
			     alt[a]->parts[i]; i++) {
				char *q = counters_qualified(prefix[a],
							     alt[a]->parts[i]);

				idx[np] = session_event(s, q);
				if (s->ev[idx[np]].fd < 0)
					ok = false;
				np++;
				free(q);
			}
			if (!ok)
				continue;
			for (i = 0; i < np; i++)
				s->ev[idx[i]].used = true;
			break;
		}
	}
	for (i = 0; i < s->n; i++) {
		if (s->ev[i].fd >= 0 && !s->ev[i].used) {
			close(s->ev[i].fd);
			s->ev[i].fd = -1;
		}
	}
}

static void session_close(struct session *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->ev[i].fd >= 0)
			close(s->ev[i].fd);
		free(s->ev[i].name);
		free(s->ev[i].error);
	}
	free(s->ev);
	s->ev = NULL;
	s->n = 0;
}

/*
 * Read every event into rd: opened ones with their scaled counts (or
 * why they have none), failed ones with their error; events opened but
 * not used are left out.
 */
static void session_read(struct session *s, struct counters_reading *rd)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct live *e = &s->ev[i];
		uint64_t v[3];
		ssize_t got;

		if (e->fd < 0) {
			if (e->error)
				counters_reading_add(rd, e->name, false, 0, 0,
						     0, e->error);
			continue;
		}
		got = read(e->fd, v, sizeof(v));
		if (got != (ssize_t)sizeof(v)) {
			char *why = xasprintf("cannot read it (%s)",
					      got < 0 ? strerror(errno) :
					      "short read");

			counters_reading_add(rd, e->name, false, 0, 0, 0, why);
			free(why);
		} else if (v[1] == 0) {
			counters_reading_add(rd, e->name, false, 0, 0, 0,
					     "never enabled: the command did "
					     "not start counting");
		} else if (v[2] == 0) {
			counters_reading_add(rd, e->name, false, 0,
					     (double)v[1], 0,
					     "never on a counter: more events "
					     "than the PMU has counters");
		} else {
			counters_reading_add(rd, e->name, true,
					     (double)v[0] * ((double)v[1] /
							     (double)v[2]),
					     (double)v[1], (double)v[2],
					     NULL);
		}
	}
}

static double line_size(void)
{
	long l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return l > 0 ? (double)l : COUNTERS_DEFAULT_LINE_BYTES;
}

/*
 * One run of ARGV as o says (one repetition, no warm-up) with s's
 * events counting, read into rd (reset first; its pmu is s->pmu).
 */
static int session_run(struct session *s, const struct run_opts *o,
		       char *const *argv, struct counters_reading *rd,
		       struct run_result *r, struct pandia_error *err)
{
	struct run_opts once = *o;
	double t0, wall;

	once.repetitions = 1;
	once.warmup = false;
	t0 = now_seconds();
	if (run_execute(&once, argv, r, err) < 0)
		return -1;
	wall = now_seconds() - t0;

	counters_reading_release(rd);
	rd->pmu = xstrdup(s->pmu);
	rd->kernel = s->kernel;
	rd->line_bytes = line_size();
	/*
	 * The counts cover the whole process: divide by its wall time.
	 * With --time-from the run's time is the program's own figure
	 * for a part of it, so take the time around the run instead.
	 */
	rd->seconds = o->time_from || !(r->median > 0) ? wall : r->median;
	session_read(s, rd);
	return 0;
}

int counters_count(const char *const *events, int n_events, bool kernel,
		   const struct run_opts *o, char *const *argv,
		   struct counters_reading *rd, struct run_result *r,
		   struct pandia_error *err)
{
	struct session s = { 0 };
	int i, ret = -1;

	perr_clear(err);
	if (counters_pfm_start(err) < 0)
		return -1;
	s.pmu = "perf";
	s.kernel = kernel;
	for (i = 0; i < n_events; i++) {
		int k = session_event(&s, events[i]);	/* may move s.ev */

		s.ev[k].used = true;
	}
	if (session_run(&s, o, argv, rd, r, err) < 0)
		goto out;
	ret = 0;
out:
	session_close(&s);
	return ret;
}

/* ---- the call the profiler makes ---------------------------------- */

int counters_demands(enum counters_mode mode, const struct pandia_machine *m,
		     const struct run_opts *o, char *const *argv,
		     const char *source, struct counters_result *res,
		     struct pandia_error *err)
{
	struct session s = { 0 };
	bool kernel = false;
	int ret = -1;

	perr_clear(err);
	if (mode == COUNTERS_PROBE) {
		res->why = xstrdup("--counters probe was asked for");
		return COUNTERS_UNAVAILABLE;
	}
	if (o->runner) {
		res->why = xstrdup("perf counters unavailable: a command run "
				   "through --runner may run on another "
				   "machine, where counters opened here cannot "
				   "see it; use --counters probe");
	} else if (!counters_perf_available(&kernel, &res->why)) {
		/* res->why is set */
	} else if (!(s.pmu = counters_host_pmu(err))) {
		res->why = xasprintf("perf counters unavailable: %s",
				     err ? err->text : "libpfm4 failed");
	}
	if (res->why) {
		if (mode == COUNTERS_AUTO) {
			perr_clear(err);
			return COUNTERS_UNAVAILABLE;
		}
		return perr_set(err, "%s", res->why);
	}

	s.kernel = kernel;
	session_open(&s);
	if (session_run(&s, o, argv, &res->reading, &res->run, err) < 0)
		goto out;
	if (m && m->cpu_model)
		res->reading.cpu_model = xstrdup(m->cpu_model);
	if (counters_result_fill(res, m, source, err) < 0)
		goto out;
	ret = COUNTERS_MEASURED;
out:
	session_close(&s);
	return ret;
}
