/*
 * check_common.c - PU lists, locating and reading JSON values, writing
 * JSON.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpuexpr.h"
#include "common/cpulist.h"
#include "common/jsonout.h"
#include "common/jsonpos.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "tests/lib/testkit.h"

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

/* ---- the getters: one wording for the same mistake ----------------- */

static const char get_text[] =
	"{\"o\": {\"n\": 3, \"z\": null, \"s\": \"x\", \"b\": true,\n"
	"       \"big\": 9000000000}}";

static const struct {
	int line;
	const char *key;
	char kind;		/* b: bool, l: long, i: int, v: value */
	bool required;
	int ret;
	long want;		/* value read, or the error's column */
	const char *msg;	/* the whole error text, or NULL */
} get_rows[] = {
	{ __LINE__, "b", 'b', true, 0, 1, NULL },
	{ __LINE__, "a", 'b', false, 0, 0, NULL },
	{ __LINE__, "z", 'b', false, 0, 0, NULL },
	{ __LINE__, "n", 'b', false, -1, 13,
	  "o.n: must be true or false, not an integer" },
	{ __LINE__, "z", 'b', true, -1, 21,
	  "o.z: must be true or false, not null" },
	{ __LINE__, "a", 'b', true, -1, 7, "o: missing field 'a'" },
	{ __LINE__, "big", 'l', true, 0, 9000000000L, NULL },
	{ __LINE__, "n", 'l', true, -1, 13,
	  "o.n: must be from 4 to 1099511627776, not 3" },
	{ __LINE__, "s", 'l', true, -1, 32,
	  "o.s: must be an integer, not a string" },
	{ __LINE__, "n", 'i', true, 0, 3, NULL },
	{ __LINE__, "big", 'i', true, -1, 15,
	  "o.big: must be from 0 to 100, not 9000000000" },
	{ __LINE__, "z", 'v', true, 0, 1, NULL },
	{ __LINE__, "a", 'v', false, 0, 0, NULL },
	{ __LINE__, "a", 'v', true, -1, 7, "o: missing field 'a'" },
};

START_TEST(test_get)
{
	struct pandia_error err;
	struct json_src c = { get_text, "g.json", &err };
	json_t *root, *o;
	long got = 0;
	bool b;
	int i, ret = 0;

	perr_clear(&err);
	root = json_src_parse(&c);
	ck_assert(root);
	o = json_object_get(root, "o");
	switch (get_rows[_i].kind) {
	case 'b':
		ret = json_get_bool(&c, o, "o", get_rows[_i].key, &b,
				    get_rows[_i].required);
		got = b;
		break;
	case 'l':
		ret = json_get_long(&c, o, "o", get_rows[_i].key, 4,
				    1L << 40, &got, get_rows[_i].required);
		break;
	case 'i':
		ret = json_get_int(&c, o, "o", get_rows[_i].key, 0, 100, &i,
				   get_rows[_i].required);
		got = i;
		break;
	default:
		got = json_get_value(&c, o, "o", get_rows[_i].key,
				     get_rows[_i].required) != NULL;
		ret = json_failed(&c) ? -1 : 0;
		break;
	}
	ck_assert_msg(ret == get_rows[_i].ret, "line %d: returned %d (%s)",
		      get_rows[_i].line, ret, err.text);
	if (get_rows[_i].msg) {
		ck_assert_msg(!strcmp(err.text, get_rows[_i].msg),
			      "line %d: %s", get_rows[_i].line, err.text);
		ck_assert_int_eq(err.column, get_rows[_i].want);
	} else {
		ck_assert_msg(got == get_rows[_i].want && !json_failed(&c),
			      "line %d: got %ld", get_rows[_i].line, got);
	}
	json_decref(root);
}
END_TEST

START_TEST(test_get_arrays)
{
	static const char text[] =
		"{\"o\": {\"s\": [\"a\", \"b\"], \"t\": [\"a\", 2],\n"
		"       \"n\": [1, 2.5], \"m\": [1, null], \"i\": [1, 9]}}";
	struct pandia_error err;
	struct json_src c = { text, "g.json", &err };
	json_t *root, *o;
	char **sv;
	double *nv;
	int *iv, n;

	perr_clear(&err);
	root = json_src_parse(&c);
	ck_assert(root);
	o = json_object_get(root, "o");
	ck_assert_int_eq(json_get_strings(&c, o, "o", "s", &sv, &n, true), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(sv[1], "b");
	ck_assert(sv[2] == NULL);
	free(sv[0]);
	free(sv[1]);
	free(sv);
	ck_assert_int_eq(json_get_nums(&c, o, "o", "n", &nv, &n, true), 0);
	ck_assert(n == 2 && nv[0] == 1 && nv[1] == 2.5);
	free(nv);
	ck_assert_int_eq(json_get_nums(&c, o, "o", "x", &nv, &n, false), 0);
	ck_assert(nv == NULL && n == 0);

	ck_assert_int_eq(json_get_strings(&c, o, "o", "t", &sv, &n, true), -1);
	ck_assert_str_eq(err.text, "o.t[1]: must be a string, not an integer");
	ck_assert(err.line == 1 && err.column == 36);
	ck_assert_int_eq(n, 1);
	free(sv[0]);
	free(sv);

	perr_clear(&err);
	ck_assert_int_eq(json_get_nums(&c, o, "o", "m", &nv, &n, true), -1);
	ck_assert_str_eq(err.text, "o.m[1]: must be a number, not null");
	ck_assert(err.line == 2 && err.column == 32);
	free(nv);

	perr_clear(&err);
	ck_assert_int_eq(json_get_nums(&c, o, "o", "x", &nv, &n, true), -1);
	ck_assert_str_eq(err.text, "o: missing field 'x'");

	perr_clear(&err);
	ck_assert_int_eq(json_get_ints(&c, o, "o", "i", 0, 9, &iv, &n, true),
			 0);
	ck_assert(n == 2 && iv[0] == 1 && iv[1] == 9);
	free(iv);
	ck_assert_int_eq(json_get_ints(&c, o, "o", "i", 0, 8, &iv, &n, true),
			 -1);
	ck_assert_str_eq(err.text, "o.i[1]: must be from 0 to 8, not 9");
	ck_assert_int_eq(n, 1);
	free(iv);
	perr_clear(&err);
	ck_assert_int_eq(json_get_ints(&c, o, "o", "n", 0, 8, &iv, &n, true),
			 -1);
	ck_assert_str_eq(err.text, "o.n[1]: must be an integer, not a number");
	free(iv);
	json_decref(root);
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
	/* a runner that did not say a rate in some repetitions */
	b[1] = NAN;
	ck_assert_double_eq(median_known(b, 4), 3);
	b[0] = b[2] = b[3] = NAN;
	ck_assert(isnan(median_known(b, 4)));
	ck_assert(isnan(median_known(b, 0)));
	/* half the range: 0 below two values */
	ck_assert_double_eq(half_range_of(a, 3), 2);
	ck_assert_double_eq(half_range_of(a, 1), 0);
	ck_assert_double_eq(half_range_of(a, 0), 0);
}
END_TEST

/*
 * CPU expressions on the shipped X5-2 (2 sockets of 18 cores, PUs i and
 * i+36 on core i) and a synthetic 2-socket, 2-node topology.
 */
static const struct {
	int line;
	const char *machine;	/* a file, a synthetic string, or NULL */
	const char *expr;
	const char *want;	/* OS list, or NULL: an error */
	const char *err;	/* part of the error */
} expr_rows[] = {
	{ __LINE__, NULL, "0x3", "0,1", NULL },
	{ __LINE__, NULL, "0x30,1", "4,5,1", NULL },
	{ __LINE__, NULL, "0xA0000000000", "41,43", NULL },
	{ __LINE__, NULL, "0x0", NULL, "names no PU" },
	{ __LINE__, NULL, "0xg", NULL, "accepted: OS PU numbers" },
	{ __LINE__, NULL, "S0:0", NULL, "needs a machine" },
	{ __LINE__, "machines/x5-2-haswell.json", "S1:0-3", "18,19,20,21", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "S0:17-18", "17,36", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "S0:0@S1:0", "0,18", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "N:35-36", "35,36", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "E:N:4:1:2", "0,1,2,3", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "E:S1:4:2:4",
	  "18,54,20,56", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "E:S0:4", "0,36,1,37", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "L:S1:1", "19", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "core:1", "1,37", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "socket:1.pu:0", "18", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "socket:1.core:2.pu:1", "56",
	  NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "pu:2-3", "1,37", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "l3:1.core:0", "18,54", NULL },
	{ __LINE__, "machines/x5-2-haswell.json", "S2:0", NULL,
	  "domain S2 does not exist" },
	{ __LINE__, "machines/x5-2-haswell.json", "S0:72", NULL,
	  "asks for PU 72 of S0, but S0 has 36 PUs, 0-35" },
	/* what was asked, not the first PU beyond the domain */
	{ __LINE__, "pack:1 core:2 pu:1", "S0:0-3", NULL,
	  "'S0:0-3' asks for PUs 0-3 of S0, but S0 has 2 PUs, 0-1" },
	{ __LINE__, "machines/x5-2-haswell.json", "E:S0:40", NULL,
	  "S0 has 36 PUs" },
	{ __LINE__, "machines/x5-2-haswell.json", "socket:2", NULL,
	  "there are 2 socket objects" },
	{ __LINE__, "machines/x5-2-haswell.json", "Q:1", NULL,
	  "not a likwid-pin domain" },
	{ __LINE__, "machines/x5-2-haswell.json", "0,99@S0:0", NULL,
	  "PU 99 is not in the machine" },
	{ __LINE__, "pack:2 numa:1 core:2 pu:1", "M1:", "2,3", NULL },
	{ __LINE__, "pack:2 numa:1 core:2 pu:1", "S:scatter", "0,2,1,3", NULL },
	{ __LINE__, "pack:2 numa:1 core:2 pu:1", "M:scatter", "0,2,1,3", NULL },
	{ __LINE__, "pack:2 numa:1 core:2 pu:1", "numa:1.pu:all", "2,3", NULL },
};

START_TEST(test_cpuexpr)
{
	struct pandia_machine *m = NULL;
	struct pandia_error err;
	int *os = NULL, n = 0;
	const char *file = expr_rows[_i].machine;

	memset(&err, 0, sizeof(err));
	if (file && strchr(file, '/')) {
		m = machine_load(file, &err);
		ck_assert_msg(m, "line %d: %s", expr_rows[_i].line, err.text);
	} else if (file) {
		m = machine_new();
		ck_assert_int_eq(topology_load(m, file, &err), 0);
	}
	if (expr_rows[_i].want) {
		char *got;

		ck_assert_msg(cpuexpr_parse(m, expr_rows[_i].expr, &os, &n,
					    &err) == 0, "line %d: %s",
			      expr_rows[_i].line, err.text);
		got = cpulist_format(os, n);
		ck_assert_msg(!strcmp(got, expr_rows[_i].want),
			      "line %d: %s is %s, not %s", expr_rows[_i].line,
			      expr_rows[_i].expr, got, expr_rows[_i].want);
		free(got);
	} else {
		ck_assert_msg(cpuexpr_parse(m, expr_rows[_i].expr, &os, &n,
					    &err) == -1 &&
			      strstr(err.text, expr_rows[_i].err),
			      "line %d: '%s' lacks '%s'", expr_rows[_i].line,
			      err.text, expr_rows[_i].err);
		ck_assert_ptr_null(os);
	}
	free(os);
	machine_free(m);
}
END_TEST

static Suite *common_suite(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("common");

	tcase_add_loop_test(tc, test_cpulist, 0,
			    sizeof(list_rows) / sizeof(list_rows[0]));
	tcase_add_loop_test(tc, test_locate, 0,
			    sizeof(locate_rows) / sizeof(locate_rows[0]));
	tcase_add_loop_test(tc, test_cpuexpr, 0,
			    sizeof(expr_rows) / sizeof(expr_rows[0]));
	tcase_add_loop_test(tc, test_get, 0,
			    sizeof(get_rows) / sizeof(get_rows[0]));
	tcase_add_test(tc, test_get_arrays);
	tcase_add_test(tc, test_json_out);
	tcase_add_test(tc, test_median);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { common_suite, NULL };
