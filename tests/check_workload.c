/*
 * check_workload.c - the workload description (pandia-workload/1):
 * byte-identical round trips, a directory of malformed descriptions
 * with the message each must give (file:line:column: field: what),
 * atomic saving, memory policies and the machine identity check.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/machine.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/params.h"
#include "tests/lib/testkit.h"

#define FULL "tests/data/workloads/full.json"
#define PAPER "tests/data/paper-section4-workload.json"
#define BAD_DIR "tests/data/workload-bad"

/* Saved text, loaded and saved again, is the same bytes. */
static const char *const round_trip_files[] = {
	FULL, PAPER,
	/* memory "spread", memory_found, model.o_s_form and b_form: a
	   profile of tests/data/mechsim/comm.sim on the X5-2 */
	"tests/data/workloads/mechsim-comm.json",
	/* model.demands_amplification: the same, with the estimates'
	   noise amplification (--counters probe) */
	"tests/data/workloads/mechsim-comm-amp.json",
};

START_TEST(test_round_trip)
{
	struct pandia_error err;
	struct pandia_workload *w = workload_load(round_trip_files[_i], &err);
	struct pandia_workload *w2;
	char *s1, *s2;

	ck_assert_msg(w != NULL, "%s", err.text);
	s1 = workload_to_string(w);
	w2 = workload_parse(s1, "saved", &err);
	ck_assert_msg(w2 != NULL, "%s: %s", round_trip_files[_i], err.text);
	s2 = workload_to_string(w2);
	ck_assert_str_eq(s1, s2);
	free(s1);
	free(s2);
	workload_free(w);
	workload_free(w2);
}
END_TEST

/* What the full file holds, field by field. */
START_TEST(test_full_fields)
{
	struct pandia_error err;
	struct pandia_workload *w = workload_load(FULL, &err);
	struct pandia_params *pp = pandia_params(w);

	ck_assert_msg(w != NULL, "%s", err.text);
	ck_assert_int_eq(w->n_command, 5);
	ck_assert_str_eq(w->command[2], "{threads}");
	ck_assert_str_eq(w->host, "testhost");
	ck_assert_int_eq(w->n_pus, 4);
	ck_assert_str_eq(w->counters, "probe");
	ck_assert(w->has_memory);
	ck_assert_int_eq(w->memory.kind, MEM_NODE);
	ck_assert_int_eq(w->memory.node, 0);
	ck_assert_int_eq(w->n_runs, 2);
	ck_assert_int_eq(w->runs[1].n_cpus, 2);
	ck_assert_int_eq(w->runs[1].cpus[1], 2);
	ck_assert_str_eq(w->runs[1].stress[0], "cpu@1");
	ck_assert_int_eq(w->runs[0].n_counters, 2);
	ck_assert(pp->t1.known && pp->t1.value == 10.0);
	ck_assert(pp->t1.uncertainty == 0.15);
	ck_assert_str_eq(pp->p.source, "run2");
	ck_assert(!pp->o_s.known);
	ck_assert_str_eq(pp->o_s.status, "not measured: one socket");
	ck_assert(isnan(pp->l.uncertainty));
	ck_assert(pp->listed[WR_L1] && !pp->listed[WR_L2]);
	ck_assert(pp->listed[WR_L3] && !pp->demand[WR_L3].known);
	ck_assert(pp->demand[WR_DRAM].uncertainty == 5e8);
	ck_assert_ptr_nonnull(strstr(pp->demand[WR_DRAM].status,
				     "upper bound"));
	/* the model's stand-ins for what was not measured */
	ck_assert(wl_value(&pp->o_s, 0) == 0);
	ck_assert(wl_value(&pp->p, 0) == 0.9);
	/* no noise amplification stated */
	ck_assert(isnan(pp->demand_amp[WR_DRAM]));
	workload_free(w);
}
END_TEST

/* model.demands_amplification, by resource, and only there. */
START_TEST(test_demand_amplification)
{
	struct pandia_error err;
	struct pandia_workload *w = workload_load(
		"tests/data/workloads/mechsim-comm-amp.json", &err);
	struct pandia_params *pp;

	ck_assert_msg(w != NULL, "%s", err.text);
	pp = pandia_params(w);
	ck_assert(pp->demand_amp[WR_DRAM] > 200);
	ck_assert(pp->demand_amp[WR_L3] > 100);
	ck_assert(isnan(pp->demand_amp[WR_L2]));
	ck_assert(*model_demand_amplification(w, WR_DRAM) ==
		  pp->demand_amp[WR_DRAM]);
	workload_free(w);
}
END_TEST

static bool load_workload(const char *path, struct pandia_error *err)
{
	struct pandia_workload *w = workload_load(path, err);
	bool ok = w != NULL;

	workload_free(w);
	return ok;
}

/* Every file in BAD_DIR is refused with exactly the message beside it. */
START_TEST(test_malformed)
{
	tk_bad_dir(BAD_DIR, 20, load_workload);
}
END_TEST

/* Saving checks first; a refused save leaves the old file as it was. */
START_TEST(test_save_atomic)
{
	char *dir, *path;
	struct pandia_error err;
	struct pandia_workload *w = workload_load(FULL, &err);
	struct pandia_params *pp = pandia_params(w);
	struct pandia_workload *again;
	char *before, *after, *text;

	ck_assert_ptr_nonnull(w);
	dir = tk_tmpdir("wl");
	path = xasprintf("%s/w.json", dir);
	ck_assert_int_eq(workload_save(w, path, &err), 0);
	before = read_file(path, NULL, &err);
	text = workload_to_string(w);
	ck_assert_str_eq(before, text);
	again = workload_load(path, &err);
	ck_assert_msg(again != NULL, "%s", err.text);
	free(text);
	text = workload_to_string(again);
	ck_assert_str_eq(before, text);

	pp->p.value = 1.5;
	ck_assert_int_eq(workload_save(w, path, &err), -1);
	ck_assert_msg(strstr(err.text, "model.p: must be between 0 and 1"),
		      "%s", err.text);
	after = read_file(path, NULL, &err);
	ck_assert_str_eq(before, after);
	tk_tmpdir_remove(dir);
	free(before);
	free(after);
	free(text);
	free(path);
	workload_free(again);
	workload_free(w);
}
END_TEST

/* A workload built in memory, as the profiler will, saves and loads. */
/*
 * A description with only other models' parameters ("models", no
 * "model": pandia profile --model mva writes it) is valid, and is
 * written back without a "model" object.
 */
START_TEST(test_models_only)
{
	static const char text[] =
		"{\"schema\": \"pandia-workload/1\",\n"
		" \"runs\": [{\"id\": \"run1\", \"cpus\": \"0\", "
		"\"times\": [2.5]}],\n"
		" \"models\": {\"mva\": {\"cpu_demand\": 2, "
		"\"mem_demand\": 0.5}}}\n";
	struct pandia_workload *w, *w2;
	struct pandia_error err;
	char *out;

	w = workload_parse(text, "m.json", &err);
	ck_assert_msg(w != NULL, "%s", err.text);
	ck_assert(!pandia_params(w)->t1.known);
	ck_assert_int_eq(workload_check(w, &err), 0);
	out = workload_to_string(w);
	ck_assert_ptr_null(strstr(out, "\"model\":"));
	ck_assert_ptr_nonnull(strstr(out, "\"models\":"));
	w2 = workload_parse(out, "again.json", &err);
	ck_assert_msg(w2 != NULL, "%s", err.text);
	ck_assert_ptr_nonnull(json_object_get(w2->models, "mva"));
	workload_free(w2);
	free(out);
	workload_free(w);
}
END_TEST

START_TEST(test_build_in_memory)
{
	struct pandia_workload *w = workload_new(), *w2;
	struct pandia_params *pp = pandia_params(w);
	struct pandia_error err;
	char *s, *s2;

	wl_param_set(&pp->t1, 2.5, 0.01, NULL);
	wl_param_set(&pp->p, 0.95, NAN, NULL);
	wl_param_set(&pp->l, 1, NAN, NULL);
	pp->o_s.status = xstrdup("not measured: one socket");
	pp->b.status = xstrdup("not measured: no SMT");
	pp->listed[WR_DRAM] = true;
	wl_param_set(&pp->demand[WR_DRAM], 1e9, NAN, NULL);
	ck_assert_int_eq(workload_check(w, &err), 0);
	s = workload_to_string(w);
	w2 = workload_parse(s, "mem", &err);
	ck_assert_msg(w2 != NULL, "%s\n%s", err.text, s);
	s2 = workload_to_string(w2);
	ck_assert_str_eq(s, s2);
	ck_assert(!pandia_params(w2)->o_s.known && !pandia_params(w2)->b.known);
	/* null without a reason is refused */
	free(pp->b.status);
	pp->b.status = NULL;
	ck_assert_int_eq(workload_check(w, &err), -1);
	ck_assert_msg(strstr(err.text, "model.b: null"), "%s", err.text);
	free(s);
	free(s2);
	workload_free(w);
	workload_free(w2);
}
END_TEST

static const struct mem_row {
	int line;
	const char *text;
	int ok;
	enum mem_kind kind;
	int node;
} mem_rows[] = {
	{ __LINE__, "local", 1, MEM_LOCAL, -1 },
	{ __LINE__, "interleave", 1, MEM_INTERLEAVE, -1 },
	{ __LINE__, "spread", 1, MEM_SPREAD, -1 },
	{ __LINE__, "even", 1, MEM_EVEN, -1 },
	{ __LINE__, "node:0", 1, MEM_NODE, 0 },
	{ __LINE__, "node:17", 1, MEM_NODE, 17 },
	{ __LINE__, "node:", 0, 0, 0 },
	{ __LINE__, "node:-1", 0, 0, 0 },
	{ __LINE__, "node:x", 0, 0, 0 },
	{ __LINE__, "Local", 0, 0, 0 },
	{ __LINE__, "", 0, 0, 0 },
};

START_TEST(test_mempolicy)
{
	const struct mem_row *r = &mem_rows[_i];
	struct pandia_mempolicy mp;
	struct pandia_error err;
	char buf[32];
	int rc = mempolicy_parse(r->text, &mp, &err);

	ck_assert_msg((rc == 0) == r->ok, "line %d: '%s'", r->line, r->text);
	if (!r->ok) {
		ck_assert_msg(strstr(err.text, "unknown memory policy"),
			      "line %d: %s", r->line, err.text);
		return;
	}
	ck_assert_msg(mp.kind == r->kind && (mp.kind != MEM_NODE ||
					     mp.node == r->node),
		      "line %d", r->line);
	ck_assert_str_eq(mempolicy_format(&mp, buf, sizeof(buf)), r->text);
}
END_TEST

static const struct res_row {
	int line;
	const char *name;
	int res;
} res_rows[] = {
	{ __LINE__, "instructions", WR_INSTRUCTIONS },
	{ __LINE__, "L1", WR_L1 },
	{ __LINE__, "L2", WR_L2 },
	{ __LINE__, "L3", WR_L3 },
	{ __LINE__, "dram", WR_DRAM },
	{ __LINE__, "interconnect", WR_INTERCONNECT },
	{ __LINE__, "DRAM", -1 },
	{ __LINE__, "l1", -1 },
	{ __LINE__, "L4", -1 },
};

START_TEST(test_resource_names)
{
	const struct res_row *r = &res_rows[_i];

	ck_assert_msg(wl_resource_from_name(r->name) == r->res, "line %d",
		      r->line);
	if (r->res >= 0)
		ck_assert_str_eq(wl_resource_name(r->res), r->name);
}
END_TEST

static struct pandia_machine *machine_with(const char *host,
					   const char *cpu, int n_pus)
{
	struct pandia_machine *m = machine_new();
	int i;

	m->host = xstrdup(host);
	m->cpu_model = xstrdup(cpu);
	m->n_pus = n_pus;
	m->pus = xcalloc((size_t)n_pus, sizeof(*m->pus));
	for (i = 0; i < n_pus; i++)
		m->pus[i].os_index = i;
	return m;
}

static const struct id_row {
	int line;
	const char *host, *cpu;
	int n_pus;
	bool same;
	const char *why;
} id_rows[] = {
	{ __LINE__, "testhost", "test CPU, 2.5 GHz", 4, true, NULL },
	{ __LINE__, "otherhost", "test CPU, 2.5 GHz", 4, false,
	  "host 'otherhost' is not 'testhost'" },
	{ __LINE__, "testhost", "other CPU", 4, false, "CPU 'other CPU'" },
	{ __LINE__, "testhost", "test CPU, 2.5 GHz", 8, false,
	  "8 PUs is not 4" },
};

START_TEST(test_machine_identity)
{
	const struct id_row *r = &id_rows[_i];
	struct pandia_error err;
	struct pandia_workload *w = workload_load(FULL, &err);
	struct pandia_machine *m = machine_with(r->host, r->cpu, r->n_pus);
	char *why = NULL;

	ck_assert_ptr_nonnull(w);
	ck_assert_msg(workload_machine_matches(w, m, &why) == r->same,
		      "line %d", r->line);
	if (r->why)
		ck_assert_msg(why && strstr(why, r->why), "line %d: %s",
			      r->line, why ? why : "(none)");
	else
		ck_assert_ptr_null(why);
	free(why);
	/* a workload that names no machine fits any */
	free(w->host);
	free(w->cpu_model);
	free(w->pus);
	w->host = w->cpu_model = NULL;
	w->pus = NULL;
	w->n_pus = 0;
	ck_assert(workload_machine_matches(w, m, &why));
	machine_free(m);
	workload_free(w);
}
END_TEST

static Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("json");

	tcase_add_loop_test(tc, test_round_trip, 0,
			    ARRAY_SIZE(round_trip_files));
	tcase_add_test(tc, test_full_fields);
	tcase_add_test(tc, test_demand_amplification);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_save_atomic);
	tcase_add_test(tc, test_build_in_memory);
	tcase_add_test(tc, test_models_only);
	tcase_add_loop_test(tc, test_mempolicy, 0, ARRAY_SIZE(mem_rows));
	tcase_add_loop_test(tc, test_resource_names, 0,
			    ARRAY_SIZE(res_rows));
	tcase_add_loop_test(tc, test_machine_identity, 0,
			    ARRAY_SIZE(id_rows));
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { workload_suite, NULL };
