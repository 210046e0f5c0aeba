/*
 * check_numamaps.c - the numa_maps parser and the memory policy it
 * shows (profiler/numamaps.h), on files recorded from /proc/PID/numa_maps
 * (tests/data/numa_maps/README says which are edited and how).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "profiler/numamaps.h"
#include "tests/lib/testkit.h"

#define DIR "tests/data/numa_maps/"

static const struct {
	int line;
	const char *file;
	int nodes;		/* nodes 0..nodes-1 in use */
	int maps;		/* mappings parsed */
	enum nm_kind kind;
	int node;		/* NM_NODE: which */
	bool mixed;
	double share;		/* of kind, +- 0.02 */
} rows[] = {
	{ __LINE__, "host-default.txt", 1, 24, NM_NODE, 0, false, 1 },
	{ __LINE__, "host-interleave.txt", 1, 30, NM_INTERLEAVE, -1, false,
	  0.99 },
	{ __LINE__, "x52-spread.txt", 2, 24, NM_SPREAD, -1, false, 0.99 },
	{ __LINE__, "x52-interleave.txt", 2, 30, NM_INTERLEAVE, -1, false,
	  0.99 },
	{ __LINE__, "x52-node0.txt", 2, 24, NM_NODE, 0, false, 1 },
	{ __LINE__, "x52-local.txt", 2, 31, NM_LOCAL, -1, false, 1 },
	{ __LINE__, "x52-mixed.txt", 2, 26, NM_SPREAD, -1, true, 0.44 },
	{ __LINE__, "x24-bind1-huge.txt", 2, 24, NM_NODE, 1, false, 1 },
};

START_TEST(test_recorded)
{
	bool in_use[NM_MAX_NODES] = { false };
	struct pandia_error err;
	struct nm_found nf;
	struct nm_map *maps;
	char *path = xasprintf(DIR "%s", rows[_i].file), *text;
	int n, k;

	text = read_file(path, NULL, &err);
	free(path);
	ck_assert_msg(text != NULL, "line %d: %s", rows[_i].line, err.text);
	ck_assert_msg(numamaps_parse(text, &maps, &n, &err) == 0,
		      "line %d: %s", rows[_i].line, err.text);
	ck_assert_msg(n == rows[_i].maps, "line %d: %d mappings, not %d",
		      rows[_i].line, n, rows[_i].maps);
	for (k = 0; k < rows[_i].nodes; k++)
		in_use[k] = true;
	ck_assert_int_eq(numamaps_classify(maps, n, in_use, &nf, &err), 0);
	ck_assert_msg(nf.kind == rows[_i].kind, "line %d: %s, not %s",
		      rows[_i].line, nm_kind_name(nf.kind),
		      nm_kind_name(rows[_i].kind));
	if (rows[_i].kind == NM_NODE)
		ck_assert_msg(nf.node == rows[_i].node, "line %d: node %d",
			      rows[_i].line, nf.node);
	ck_assert_msg(nf.mixed == rows[_i].mixed, "line %d: mixed %d",
		      rows[_i].line, nf.mixed);
	ck_assert_msg(fabs(nf.share[nf.kind] - rows[_i].share) < 0.02,
		      "line %d: share %.3f, not %.2f", rows[_i].line,
		      nf.share[nf.kind], rows[_i].share);
	ck_assert(nf.bytes > 0);
	free(maps);
	free(text);
}
END_TEST

/* The numbers of one line: pages in bytes by node, policies. */
START_TEST(test_line)
{
	struct pandia_error err;
	struct nm_map *maps;
	int n;

	ck_assert_int_eq(numamaps_parse(
		"7f0000000000 interleave=static:0-3 anon=4 N1=1 N3=3 "
		"kernelpagesize_kB=2048\n"
		"# pid 7\n\n"
		"7f2000000000 prefer (many):0-1 anon=2 N0=2 "
		"kernelpagesize_kB=4\n"
		"7f3000000000 default file=/lib/x.so mapped=9 N0=9\n",
		&maps, &n, &err), 0);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(maps[0].policy, NM_POL_INTERLEAVE);
	ck_assert(maps[0].anon);
	ck_assert(maps[0].on[1] == 2048.0 * 1024);
	ck_assert(maps[0].on[3] == 3 * 2048.0 * 1024);
	ck_assert(maps[0].bytes == 4 * 2048.0 * 1024);
	ck_assert_int_eq(maps[1].policy, NM_POL_PREFER);
	ck_assert(maps[1].on[0] == 2 * 4096.0);
	ck_assert(!maps[2].anon);
	ck_assert(maps[2].start == 0x7f3000000000UL);
	free(maps);
}
END_TEST

START_TEST(test_bad)
{
	struct pandia_error err;
	struct nm_map *maps;
	bool in_use[NM_MAX_NODES] = { true, true };
	struct nm_found nf;
	char *text = read_file(DIR "bad.txt", NULL, &err);
	int n;

	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(numamaps_parse(text, &maps, &n, &err), -1);
	ck_assert_msg(strstr(err.text, "line 2") != NULL, "%s", err.text);
	ck_assert_ptr_null(maps);
	free(text);
	/* no anonymous page: nothing to tell */
	ck_assert_int_eq(numamaps_parse("7f00 default file=/x N0=3\n", &maps,
					&n, &err), 0);
	ck_assert_int_eq(numamaps_classify(maps, n, in_use, &nf, &err), -1);
	free(maps);
}
END_TEST

static Suite *numamaps_suite(void)
{
	Suite *s = suite_create("numamaps");
	TCase *tc = tcase_create("parse");

	tcase_add_loop_test(tc, test_recorded, 0,
			    (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, test_line);
	tcase_add_test(tc, test_bad);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { numamaps_suite, NULL };
