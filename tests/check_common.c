/*
 * check_common.c - PU lists, locating JSON values, writing JSON.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/util.h"

static const struct {
	int line;
	const char *in;
	const char *list;	/* NULL: must be refused */
	const char *set;
	const char *msg;	/* part of the error */
} list_rows[] = {
	{ __LINE__, "0", "0", "0", NULL },
	{ __LINE__, "1,0,1", "1,0,1", "0,1", NULL },
	{ __LINE__, "0-3,8", "0,1,2,3,8", "0-3,8", NULL },
	{ __LINE__, "5,4,3,2", "5,4,3,2", "2-5", NULL },
	{ __LINE__, "0,0,0", "0,0,0", "0", NULL },
	{ __LINE__, "", NULL, NULL, "empty PU list" },
	{ __LINE__, "1,,2", NULL, NULL, "expected a PU number at ',2'" },
	{ __LINE__, "-1", NULL, NULL, "expected a PU number" },
	{ __LINE__, "3-1", NULL, NULL, "range 3-1 runs backwards" },
	{ __LINE__, "1;2", NULL, NULL, "unexpected ';'" },
	{ __LINE__, "a", NULL, NULL, "expected a PU number at 'a'" },
	{ __LINE__, "99999999999", NULL, NULL, "out of range" },
	{ __LINE__, "1,", NULL, NULL, "at '(end)'" },
};

START_TEST(test_cpulist)
{
	struct pandia_error err;
	int *v, n;
	char *s;

	if (!list_rows[_i].list) {
		ck_assert_msg(cpulist_parse(list_rows[_i].in, &v, &n,
					    &err) == -1,
			      "line %d accepted", list_rows[_i].line);
		ck_assert_msg(strstr(err.text, list_rows[_i].msg), "line %d: %s",
			      list_rows[_i].line, err.text);
		return;
	}
	ck_assert_msg(cpulist_parse(list_rows[_i].in, &v, &n, &err) == 0,
		      "line %d: %s", list_rows[_i].line, err.text);
	s = cpulist_format(v, n);
	ck_assert_msg(!strcmp(s, list_rows[_i].list), "line %d: %s",
		      list_rows[_i].line, s);
	free(s);
	s = cpuset_format(v, n);
	ck_assert_msg(!strcmp(s, list_rows[_i].set), "line %d: %s",
		      list_rows[_i].line, s);
	free(s);
	free(v);
}
END_TEST

static const char locate_text[] =
	"{\n"
	"  \"a\": 1,\n"
	"  \"b\": {\"c\": [10, {\"d\": \"x,]}\"}, 30]},\n"
	"  \"e\": [\n"
	"    [1, 2],\n"
	"    \"s\"\n"
	"  ]\n"
	"}\n";

static const struct {
	int line;
	const char *path;
	int ret, l, c;
} locate_rows[] = {
	{ __LINE__, "a", 0, 2, 8 },
	{ __LINE__, "b.c[0]", 0, 3, 15 },
	{ __LINE__, "b.c[1].d", 0, 3, 25 },
	{ __LINE__, "b.c[2]", 0, 3, 34 },
	{ __LINE__, "e[0][1]", 0, 5, 9 },
	{ __LINE__, "e[1]", 0, 6, 5 },
	{ __LINE__, "b.zz", -1, 3, 8 },
	{ __LINE__, "b.c[7]", -1, 3, 14 },
	{ __LINE__, "", 0, 1, 1 },
};

START_TEST(test_locate)
{
	int l, c, ret;

	ret = json_locate(locate_text, locate_rows[_i].path, &l, &c);
	ck_assert_msg(ret == locate_rows[_i].ret && l == locate_rows[_i].l &&
		      c == locate_rows[_i].c, "line %d: %s gave %d at %d:%d",
		      locate_rows[_i].line, locate_rows[_i].path, ret, l, c);
}
END_TEST

START_TEST(test_json_out)
{
	json_error_t jerr;
	json_t *root = json_loads("{\"a\": [1, 2, 3], \"b\": [{\"c\": "
				  "[\"x, y\", \"]\"]}], \"d\": 0.1, "
				  "\"e\": []}", 0, &jerr);
	char *s = json_to_text(root), *again;
	json_t *back;

	ck_assert_str_eq(s, "{\n  \"a\": [1, 2, 3],\n  \"b\": [\n    {\n"
			 "      \"c\": [\"x, y\", \"]\"]\n    }\n  ],\n"
			 "  \"d\": 0.1,\n  \"e\": []\n}\n");
	back = json_loads(s, 0, &jerr);
	ck_assert_ptr_nonnull(back);
	again = json_to_text(back);
	ck_assert_str_eq(s, again);
	free(s);
	free(again);
	json_decref(root);
	json_decref(back);
}
END_TEST

START_TEST(test_median)
{
	double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };

	ck_assert_double_eq(median_of(a, 3), 3);
	ck_assert_double_eq(median_of(b, 4), 2.5);
	ck_assert_double_eq(median_of(a, 0), 0);
	ck_assert_double_eq(a[0], 5);	/* the input is not reordered */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("common");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_cpulist, 0,
			    sizeof(list_rows) / sizeof(list_rows[0]));
	tcase_add_loop_test(tc, test_locate, 0,
			    sizeof(locate_rows) / sizeof(locate_rows[0]));
	tcase_add_test(tc, test_json_out);
	tcase_add_test(tc, test_median);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
