/*
 * hostcheck.c - refuse to measure with another host's description.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "builtin.h"
#include "common/cgroup.h"
#include "common/cpulist.h"
#include "common/machdir.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"

#ifndef PANDIA_DATADIR
#define PANDIA_DATADIR "/usr/local/share/pandia"
#endif

/* The PUs of this host's topology (restricted to what this process
   may use), as a set: a new string. */
static char *allowed_text(const struct pandia_machine *h)
{
	int *os = xcalloc((size_t)h->n_pus + 1, sizeof(*os)), i;
	char *s;

	for (i = 0; i < h->n_pus; i++)
		os[i] = h->pus[i].os_index;
	s = cpuset_format(os, h->n_pus);
	free(os);
	return s;
}

int check_this_host(const struct pandia_machine *m, const char *file,
		    bool force, const char *doing, const char *hint)
{
	struct pandia_machine *h = machine_new();
	struct pandia_error err;
	char *why = NULL;
	int ret = -1;

	if (topology_load(h, NULL, &err) < 0) {
		warning("cannot read this host's "
			"topology to check '%s': %s", file, err.text);
		ret = 0;
		goto out;
	}
	if (machine_same_host(h, m, &why)) {
		warn_cpu_quota(m->n_pus, "the machine's");
		ret = 0;
		goto out;
	}
	if (force) {
		warning("'%s' describes another "
			"machine (%s); %s here anyway (--force)", file, why,
			doing);
		ret = 0;
		goto out;
	}
	if (h->n_pus < m->n_pus) {
		/* a container or an allocation: say what it allows */
		char *allowed = allowed_text(h), *more;

		more = xasprintf("%s (this process may use PUs %s: its cgroup "
				 "cpuset and affinity)", why, allowed);
		free(why);
		why = more;
		free(allowed);
	}
	error("'%s' describes another machine: %s; make "
		"one here with 'pandia machine', or pass --force%s%s", file,
		why, hint ? " " : "", hint ? hint : "");
out:
	free(why);
	machine_free(h);
	return ret;
}

void warn_cpu_quota(int threads, const char *what)
{
	struct cgroup_quota q;
	struct pandia_error err;

	if (cgroup_cpu_quota(NULL, &q, &err) < 0) {
		warning("cannot read this process's CPU quota: %s", err.text);
		return;
	}
	if (q.quota > 0 && q.quota < threads)
		warning("this process's cgroup has a CPU quota of %g PUs' time "
			"per second (%s): %s %d threads share it, and the "
			"times are the quota's, not the machine's (pandia "
			"predict --cpu-quota %g predicts them)", q.quota,
			q.source, what, threads, q.quota);
	cgroup_quota_release(&q);
}

/* The source tree's machines/ when pandia runs from its build tree. */
static char *extra_dir(void)
{
	char *d = xasprintf("%s/../machines", pandia_exe_dir());
	struct stat st;

	if (stat(d, &st) == 0 && S_ISDIR(st.st_mode))
		return d;
	free(d);
	return NULL;
}

struct pandia_machine *open_machine(const char *cmd, const char *arg,
				    bool required, char **path)
{
	struct pandia_machine *m = NULL, *h;
	struct pandia_error err;
	char *extra = extra_dir(), *user;
	const char *shared = getenv("PANDIA_MACHINES");

	if (shared && !*shared)
		shared = NULL;

	*path = NULL;
	if (arg) {
		*path = machdir_find(arg, extra, &err);
		if (*path)
			m = machine_load(*path, &err);
		if (!m)
			error_perr(&err);
		goto out;
	}
	h = machine_new();
	if (topology_load(h, NULL, &err) == 0)
		m = machdir_this_host(h, extra, path, &err);
	if (m && cmd)
		progress(cmd, "using this host's description %s", *path);
	else if (err.text[0] && required)
		error_perr(&err);
	else if (required)
		error("no description of this host%s%s%s: make one with "
		      "'pandia machine' (it is then found without -m), or "
		      "give -m FILE|NAME", h->host ? " (" : "",
		      h->host ? h->host : "", h->host ? ".json)" : "");
	else if (err.text[0])
		warning("%s; not used", err.text);
	machine_free(h);
	if (!m && (user = machdir_user()) && required && !err.text[0])
		fprintf(stderr, "pandia: (descriptions are looked up in "
			"%s%s%s and %s/machines)\n", shared ? shared : "",
			shared ? ", " : "", user, PANDIA_DATADIR);
	else
		user = NULL;
	free(user);
out:
	if (!m) {
		/* nothing opened: no path for the caller to free */
		free(*path);
		*path = NULL;
	}
	free(extra);
	return m;
}
