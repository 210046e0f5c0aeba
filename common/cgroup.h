/*
 * cgroup.h - the limits a container or an allocation puts on this
 * process: the PUs it may use and a CPU quota.
 *
 * The allowed PUs come from hwloc (which reads the cpuset) and the
 * affinity mask; the quota, which hwloc does not give, from the cgroup
 * files: cgroup v2's cpu.max ("max 100000", "200000 100000") and v1's
 * cpu.cfs_quota_us over cpu.cfs_period_us, at the process's cgroup and
 * every ancestor up to the mount point (the tightest binds).  Mount
 * points come from /proc/self/mountinfo and the process's cgroups from
 * /proc/self/cgroup.
 *
 * A recorded tree stands in for the live one when ROOT is given (or
 * PANDIA_CGROUP_ROOT is set): ROOT/proc/self/mountinfo and
 * ROOT/proc/self/cgroup are read instead, and every mount point is
 * taken under ROOT, so the reading is tested with files a test writes.
 */
#ifndef PANDIA_CGROUP_H
#define PANDIA_CGROUP_H

#include "common/error.h"
#include "common/machine.h"

/* The quota a cgroup can set: at most QUOTA PUs' time per second. */
struct cgroup_quota {
	double quota;		/* PUs; 0 when no cgroup sets one */
	char *source;		/* the file that sets it (owned), or NULL */
};

/*
 * The tightest CPU quota of this process's cgroups (v2 and v1, each
 * cgroup and its ancestors) into *q (q->quota 0: none).  ROOT NULL:
 * the live system, or PANDIA_CGROUP_ROOT when set.  Returns 0, or -1
 * with err naming the file whose content is not a quota.  A missing
 * file (no cpu controller, no cgroup mounted) is no quota.
 */
int cgroup_cpu_quota(const char *root, struct cgroup_quota *q,
		     struct pandia_error *err);
void cgroup_quota_release(struct cgroup_quota *q);

/*
 * The OS indexes of the PUs this process may run on (hwloc's allowed
 * cpuset, which follows the cgroup cpuset, within the affinity mask),
 * ascending, into a new array *pus of *n.  Returns 0 or -1 with err.
 * hwloc's set is read once per process, the affinity at every call.
 */
int cgroup_allowed_pus(int **pus, int *n, struct pandia_error *err);

/*
 * Whether every PU of V[0..n-1] is allowed; when not, err says which
 * one is not, for WHAT ("the placement"), and names the allowed set.
 * Returns 0 or -1.
 */
int cgroup_check_pus(const int *v, int n, const char *what,
		     struct pandia_error *err);

/*
 * This process's limits as a machine description records them: the
 * allowed PUs as a list, the quota and its file, present.  L must be
 * empty (zeroed).  Returns 0 or -1 with err (a quota file that holds
 * no quota).
 */
int cgroup_limits(struct pandia_limits *l, struct pandia_error *err);

#endif
