/*
 * check_cgroup.c - the CPU quota read from cgroup trees the test
 * writes (v1 and v2, nested cgroups, "max", a container's mount of its
 * own cgroup, bad content named by its file), and the allowed PUs.
 */
#include <check.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cgroup.h"
#include "common/util.h"
#include "tests/lib/testkit.h"

#define V1_MOUNTS \
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n" \
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n"
#define V2_MOUNT "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
#define CG_V1 "3:cpuset:/\n1:cpu:/a/b\n0::/\n"
#define CG_V2 "1:cpu:/\n0::/a/b\n"

struct file_row {
	const char *path, *text;
};

static const struct quota_row {
	int line;
	const char *mountinfo, *cgroup;
	struct file_row files[5];
	double want;		/* PUs; 0: none */
	const char *source;	/* ends the source, or the error */
	bool fails;
} quota_rows[] = {
	/* v1: the cgroup's own quota, one CPU */
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "100000\n" },
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_period_us", "100000\n" },
	  { "sys/fs/cgroup/cpu/a/cpu.cfs_quota_us", "-1\n" },
	  { "sys/fs/cgroup/cpu/a/cpu.cfs_period_us", "100000\n" } },
	  1.0, "/sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", false },
	/* v1: the parent is tighter and binds */
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "300000\n" },
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_period_us", "100000\n" },
	  { "sys/fs/cgroup/cpu/a/cpu.cfs_quota_us", "150000\n" },
	  { "sys/fs/cgroup/cpu/a/cpu.cfs_period_us", "100000\n" } },
	  1.5, "/sys/fs/cgroup/cpu/a/cpu.cfs_quota_us", false },
	/* v1: -1 everywhere is no quota */
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "-1\n" },
	  { "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n" } },
	  0, NULL, false },
	/* v2: "QUOTA PERIOD", nested: the child binds */
	{ __LINE__, V2_MOUNT, CG_V2, {
	  { "sys/fs/cgroup/unified/a/b/cpu.max", "200000 100000\n" },
	  { "sys/fs/cgroup/unified/a/cpu.max", "max 100000\n" } },
	  2.0, "/sys/fs/cgroup/unified/a/b/cpu.max", false },
	/* v2: the grandparent binds, a level without cpu.max between */
	{ __LINE__, V2_MOUNT, CG_V2, {
	  { "sys/fs/cgroup/unified/a/b/cpu.max", "max 100000\n" },
	  { "sys/fs/cgroup/unified/a/cpu.max", "50000 20000\n" } },
	  2.5, "/sys/fs/cgroup/unified/a/cpu.max", false },
	/* v2: "max" is no quota */
	{ __LINE__, V2_MOUNT, CG_V2, {
	  { "sys/fs/cgroup/unified/a/b/cpu.max", "max 100000\n" } },
	  0, NULL, false },
	/* both: the tighter of v1 and v2 */
	{ __LINE__, V1_MOUNTS V2_MOUNT, "1:cpu:/c\n0::/d\n", {
	  { "sys/fs/cgroup/cpu/c/cpu.cfs_quota_us", "400000\n" },
	  { "sys/fs/cgroup/cpu/c/cpu.cfs_period_us", "100000\n" },
	  { "sys/fs/cgroup/unified/d/cpu.max", "300000 100000\n" } },
	  3.0, "/sys/fs/cgroup/unified/d/cpu.max", false },
	/* a container: the mount's root is its own cgroup */
	{ __LINE__, "50 40 0:29 /docker/x /sys/fs/cgroup rw - cgroup2 "
	  "cgroup2 rw\n", "0::/docker/x\n", {
	  { "sys/fs/cgroup/cpu.max", "100000 100000\n" } },
	  1.0, "/sys/fs/cgroup/cpu.max", false },
	/* a mount point with a blank, escaped in mountinfo */
	{ __LINE__, "32 31 0:29 / /cg\\040v1 rw - cgroup cgroup rw,cpuacct,"
	  "cpu\n", "2:cpu,cpuacct:/j\n", {
	  { "cg v1/j/cpu.cfs_quota_us", "50000\n" },
	  { "cg v1/j/cpu.cfs_period_us", "25000\n" } },
	  2.0, "/cg v1/j/cpu.cfs_quota_us", false },
	/* no cgroup mounted: no quota */
	{ __LINE__, "20 1 8:1 / / rw - ext4 /dev/sda1 rw\n", "0::/\n", {
	  { NULL, NULL } }, 0, NULL, false },
	/* bad content: the file named */
	{ __LINE__, V2_MOUNT, CG_V2, {
	  { "sys/fs/cgroup/unified/a/b/cpu.max", "lots\n" } },
	  0, "a/b/cpu.max: not a CPU quota and period: 'lots'", true },
	{ __LINE__, V2_MOUNT, CG_V2, {
	  { "sys/fs/cgroup/unified/a/cpu.max", "-5 100000\n" } },
	  0, "unified/a/cpu.max: not a CPU quota and period: '-5 100000'",
	  true },
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "1e5\n" } },
	  0, "a/b/cpu.cfs_quota_us: not a CPU quota: '1e5'", true },
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "100000\n" },
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_period_us", "0\n" } },
	  0, "a/b/cpu.cfs_period_us: not a CPU period: '0'", true },
	{ __LINE__, V1_MOUNTS, CG_V1, {
	  { "sys/fs/cgroup/cpu/a/b/cpu.cfs_quota_us", "100000\n" } },
	  0, "a/b/cpu.cfs_period_us", true },
};

/* Write TEXT at ROOT/PATH, making the folders on the way. */
static void put(const char *root, const char *path, const char *text)
{
	char *full = xasprintf("%s/%s", root, path), *slash;
	struct pandia_error err;
	FILE *f;

	slash = strrchr(full, '/');
	*slash = '\0';
	ck_assert_msg(make_dirs(full, &err) == 0, "%s", err.text);
	*slash = '/';
	f = fopen(full, "w");
	ck_assert_msg(f != NULL, "cannot write %s", full);
	fputs(text, f);
	fclose(f);
	free(full);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

START_TEST(test_quota)
{
	const struct quota_row *r = &quota_rows[_i];
	char *root = tk_tmpdir("cgroup");
	struct cgroup_quota q;
	struct pandia_error err;
	int i, ret;

	put(root, "proc/self/mountinfo", r->mountinfo);
	put(root, "proc/self/cgroup", r->cgroup);
	for (i = 0; i < 5 && r->files[i].path; i++)
		put(root, r->files[i].path, r->files[i].text);
	perr_clear(&err);
	ret = cgroup_cpu_quota(root, &q, &err);
	if (r->fails) {
		ck_assert_msg(ret == -1 && strstr(err.text, r->source) &&
			      strstr(err.text, root),
			      "line %d: '%s' lacks '%s'", r->line, err.text,
			      r->source);
		ck_assert_ptr_null(q.source);
	} else {
		ck_assert_msg(ret == 0, "line %d: %s", r->line, err.text);
		ck_assert_msg(fabs(q.quota - r->want) < 1e-12,
			      "line %d: quota %g, not %g", r->line, q.quota,
			      r->want);
		if (r->source)
			ck_assert_msg(q.source && strlen(q.source) >
				      strlen(r->source) &&
				      !strcmp(q.source + strlen(q.source) -
					      strlen(r->source), r->source),
				      "line %d: source %s, not %s", r->line,
				      q.source ? q.source : "(none)",
				      r->source);
		else
			ck_assert_ptr_null(q.source);
	}
	cgroup_quota_release(&q);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}
END_TEST

/* PANDIA_CGROUP_ROOT stands in for the live tree when no root is given */
START_TEST(test_env_root)
{
	char *root = tk_tmpdir("cgroup");
	struct cgroup_quota q;
	struct pandia_error err;

	put(root, "proc/self/mountinfo", V2_MOUNT);
	put(root, "proc/self/cgroup", CG_V2);
	put(root, "sys/fs/cgroup/unified/a/cpu.max", "150000 100000\n");
	setenv("PANDIA_CGROUP_ROOT", root, 1);
	ck_assert_msg(cgroup_cpu_quota(NULL, &q, &err) == 0, "%s", err.text);
	unsetenv("PANDIA_CGROUP_ROOT");
	ck_assert(fabs(q.quota - 1.5) < 1e-12);
	cgroup_quota_release(&q);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}
END_TEST

/* a tree without /proc (no cgroups known): no quota, no error */
START_TEST(test_no_proc)
{
	char *root = tk_tmpdir("cgroup");
	struct cgroup_quota q;
	struct pandia_error err;

	ck_assert_msg(cgroup_cpu_quota(root, &q, &err) == 0, "%s", err.text);
	ck_assert(q.quota == 0 && !q.source);
	tk_tmpdir_remove(root);
}
END_TEST

/* the allowed PUs are within this process's affinity, and a PU
   outside them is refused with the set named */
START_TEST(test_allowed)
{
	struct pandia_error err;
	int *pus = NULL, n = 0, bad = 4000;
	char *list;

	ck_assert_msg(cgroup_allowed_pus(&pus, &n, &err) == 0, "%s",
		      err.text);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(cgroup_check_pus(pus, n, "the placement", &err), 0);
	ck_assert_int_eq(cgroup_check_pus(&bad, 1, "the placement", &err),
			 -1);
	list = xasprintf("PU 4000 of the placement is not available here "
			 "(this process may use PUs %d", pus[0]);
	ck_assert_msg(strstr(err.text, list), "%s", err.text);
	free(list);
	free(pus);
}
END_TEST

static Suite *cgroup_suite(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("cgroup");

	tcase_add_loop_test(tc, test_quota, 0,
			    sizeof(quota_rows) / sizeof(quota_rows[0]));
	tcase_add_test(tc, test_env_root);
	tcase_add_test(tc, test_no_proc);
	tcase_add_test(tc, test_allowed);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { cgroup_suite, NULL };
