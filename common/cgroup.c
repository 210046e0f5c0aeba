/*
 * cgroup.c - the PUs this process may use and the CPU quota its
 * cgroups set (cgroup.h says where each comes from).
 */
#include "common/cgroup.h"

#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/util.h"

/* One cgroup hierarchy of this process: where it is mounted, and the
   process's cgroup in it. */
struct cg_hier {
	bool v2;
	char *mnt;		/* the mount point (under the root) */
	char *mroot;		/* the mount's root within the hierarchy */
	char *path;		/* the process's cgroup in the hierarchy */
};

/* mountinfo escapes blanks and backslashes as \ooo; undo it in place */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* Whether the comma-separated LIST holds WORD. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * The v2 hierarchy (V2) or the v1 one with the cpu controller from
 * one line of mountinfo: its mount point and root.  False if the line
 * is another mount.
 */
static bool mount_of(char *line, bool v2, char **mnt, char **mroot)
{
	char *f[6], *dash, *fstype, *opts, *save = NULL;
	int i;

	dash = strstr(line, " - ");
	if (!dash)
		return false;
	*dash = '\0';
	fstype = strtok_r(dash + 3, " \n", &save);
	strtok_r(NULL, " \n", &save);	/* the source */
	opts = strtok_r(NULL, " \n", &save);
	if (!fstype || !opts)
		return false;
	if (v2 ? strcmp(fstype, "cgroup2") :
	    strcmp(fstype, "cgroup") || !has_word(opts, "cpu"))
		return false;
	save = NULL;
	for (i = 0; i < 5; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			return false;
	}
	unescape(f[3]);
	unescape(f[4]);
	*mroot = xstrdup(f[3]);
	*mnt = xstrdup(f[4]);
	return true;
}

/* The process's cgroup in the v2 hierarchy or the v1 cpu one, from
   /proc/self/cgroup's text; NULL when it has none. */
static char *cgroup_path(char *text, bool v2)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		*c2 = '\0';
		if (v2 ? c1 == line + 1 && *line == '0' && c2 == c1 + 1 :
		    has_word(c1 + 1, "cpu"))
			return xstrdup(c2 + 1);
		*c2 = ':';
	}
	return NULL;
}

/* Find hierarchy H (H->v2 says which) from the root's proc files. */
static int find_hier(const char *root, struct cg_hier *h,
		     struct pandia_error *err)
{
	char *path = xasprintf("%s/proc/self/mountinfo", root);
	char *text = NULL, *line, *save = NULL;
	int ret = -1;

	/* no /proc (or a recorded tree without it): no cgroups known */
	if (access(path, F_OK) < 0) {
		ret = 0;
		goto out;
	}
	text = read_file(path, NULL, err);
	if (!text)
		goto out;
	for (line = strtok_r(text, "\n", &save); line && !h->mnt;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mnt, *mroot;

		if (!mount_of(line, h->v2, &mnt, &mroot))
			continue;
		h->mnt = xasprintf("%s%s", root, mnt);
		h->mroot = mroot;
		free(mnt);
	}
	free(text);
	text = NULL;
	free(path);
	path = xasprintf("%s/proc/self/cgroup", root);
	if (!h->mnt || access(path, F_OK) < 0) {
		ret = 0;
		goto out;
	}
	text = read_file(path, NULL, err);
	if (!text)
		goto out;
	h->path = cgroup_path(text, h->v2);
	ret = 0;
out:
	free(text);
	free(path);
	return ret;
}

/* A whole number of microseconds from TEXT; false if it is not one. */
static bool read_us(const char *text, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(text, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	return !errno && end != text && !*end;
}

/* The error for FILE, whose content TEXT is not WHAT. */
static int not_a(struct pandia_error *err, const char *file,
		 const char *text, const char *what)
{
	return perr_set(err, "%s: not a CPU %s: '%.*s'", file, what,
			(int)strcspn(text, "\n"), text);
}

/*
 * The quota that the files of cgroup directory DIR set, into *q (0:
 * none).  -1 with err naming the file when one holds no quota.
 */
static int dir_quota(const char *dir, bool v2, double *q,
		     struct pandia_error *err)
{
	char *qf = xasprintf("%s/%s", dir, v2 ? "cpu.max" :
			     "cpu.cfs_quota_us");
	char *pf = xasprintf("%s/cpu.cfs_period_us", dir);
	char *qt, *pt = NULL, *sp;
	long long quota, period;
	int ret = 0;

	*q = 0;
	qt = read_file(qf, NULL, NULL);
	if (!qt)
		goto out;	/* no cpu controller here: no quota */
	if (v2) {
		/* "max 100000" or "200000 100000" */
		sp = strchr(qt, ' ');
		if (!sp || !read_us(sp + 1, &period) || period <= 0) {
			ret = not_a(err, qf, qt, "quota and period");
			goto out;
		}
		*sp = '\0';
		if (!strcmp(qt, "max"))
			goto out;
		if (!read_us(qt, &quota) || quota <= 0) {
			*sp = ' ';
			ret = not_a(err, qf, qt, "quota and period");
			goto out;
		}
	} else {
		/* -1: none */
		if (!read_us(qt, &quota) || quota == 0 || quota < -1) {
			ret = not_a(err, qf, qt, "quota");
			goto out;
		}
		if (quota == -1)
			goto out;
		pt = read_file(pf, NULL, err);
		if (!pt) {
			ret = -1;
			goto out;
		}
		if (!read_us(pt, &period) || period <= 0) {
			ret = not_a(err, pf, pt, "period");
			goto out;
		}
	}
	*q = (double)quota / (double)period;
out:
	free(qt);
	free(pt);
	free(qf);
	free(pf);
	return ret;
}

/* Walk H from the process's cgroup up to the mount point; the
   tightest quota goes into *q. */
static int hier_quota(const struct cg_hier *h, struct cgroup_quota *q,
		      struct pandia_error *err)
{
	size_t lr = strlen(h->mroot), lm = strlen(h->mnt);
	const char *rel = h->path;
	char *dir, *slash;
	int ret = 0;

	/* the mount shows the hierarchy from its root on (a container
	   sees its own cgroup as /) */
	if (!strcmp(h->mroot, "/"))
		lr = 0;
	if (lr && !strncmp(rel, h->mroot, lr) &&
	    (rel[lr] == '/' || !rel[lr]))
		rel += lr;
	else if (lr)
		rel = "";
	dir = xasprintf("%s%s", h->mnt, rel);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	for (;;) {
		double v;

		if (dir_quota(dir, h->v2, &v, err) < 0) {
			ret = -1;
			break;
		}
		if (v > 0 && (!(q->quota > 0) || v < q->quota)) {
			q->quota = v;
			free(q->source);
			q->source = xasprintf("%s/%s", dir, h->v2 ? "cpu.max" :
					      "cpu.cfs_quota_us");
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= lm || !slash || slash == dir)
			break;
		*slash = '\0';
	}
	free(dir);
	return ret;
}

int cgroup_cpu_quota(const char *root, struct cgroup_quota *q,
		     struct pandia_error *err)
{
	int v, ret = 0;

	q->quota = 0;
	q->source = NULL;
	if (!root)
		root = getenv("PANDIA_CGROUP_ROOT");
	if (!root)
		root = "";
	for (v = 0; v < 2 && !ret; v++) {
		struct cg_hier h = { .v2 = v == 1 };

		if (find_hier(root, &h, err) < 0)
			ret = -1;
		else if (h.mnt && h.path && hier_quota(&h, q, err) < 0)
			ret = -1;
		free(h.mnt);
		free(h.mroot);
		free(h.path);
	}
	if (ret < 0)
		cgroup_quota_release(q);
	return ret;
}

void cgroup_quota_release(struct cgroup_quota *q)
{
	free(q->source);
	q->source = NULL;
	q->quota = 0;
}

/*
 * hwloc's allowed cpuset of this host, loaded once: the runner checks
 * every run's placement against it, and loading a topology costs
 * milliseconds on a small host and far more on a large one.  NULL
 * with err when hwloc cannot load it.
 */
static hwloc_const_bitmap_t host_allowed(struct pandia_error *err)
{
	static hwloc_bitmap_t allowed;
	hwloc_topology_t topo;

	if (allowed)
		return allowed;
	if (hwloc_topology_init(&topo) < 0) {
		perr_errno(err, "cannot initialise hwloc");
		return NULL;
	}
	if (hwloc_topology_load(topo) < 0)
		perr_errno(err, "hwloc cannot load this host's topology");
	else
		allowed = hwloc_bitmap_dup(
			hwloc_topology_get_allowed_cpuset(topo));
	hwloc_topology_destroy(topo);
	return allowed;
}

int cgroup_allowed_pus(int **pus, int *n, struct pandia_error *err)
{
	hwloc_const_bitmap_t set = host_allowed(err);
	cpu_set_t aff;
	bool have_aff;
	int i;

	*pus = NULL;
	*n = 0;
	if (!set)
		return -1;
	/* the affinity is read each time: pandia may have changed it */
	have_aff = sched_getaffinity(0, sizeof(aff), &aff) == 0;
	hwloc_bitmap_foreach_begin(i, set) {
		if (have_aff && (i >= CPU_SETSIZE || !CPU_ISSET(i, &aff)))
			continue;
		*pus = xrealloc(*pus, sizeof(**pus) * (size_t)(*n + 1));
		(*pus)[(*n)++] = i;
	} hwloc_bitmap_foreach_end();
	return 0;
}

int cgroup_check_pus(const int *v, int n, const char *what,
		     struct pandia_error *err)
{
	int *ok = NULL, n_ok = 0, i, j, ret = 0;
	char *have;

	if (cgroup_allowed_pus(&ok, &n_ok, err) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n_ok && ok[j] != v[i]; j++)
			;
		if (j < n_ok)
			continue;
		have = cpuset_format(ok, n_ok);
		ret = perr_set(err, "PU %d of %s is not available here (this "
			       "process may use PUs %s: its cgroup cpuset "
			       "and affinity)", v[i], what, have);
		free(have);
		break;
	}
	free(ok);
	return ret;
}

int cgroup_limits(struct pandia_limits *l, struct pandia_error *err)
{
	struct cgroup_quota q;
	int *pus, n;

	if (cgroup_allowed_pus(&pus, &n, err) < 0)
		return -1;
	if (cgroup_cpu_quota(NULL, &q, err) < 0) {
		free(pus);
		return -1;
	}
	l->present = true;
	l->allowed = cpulist_format_compact(pus, n);
	l->cpu_quota = q.quota;
	l->source = q.source;
	free(pus);
	return 0;
}
