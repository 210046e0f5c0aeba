/*
 * check_machine.c - the machine description: JSON round trip, a
 * directory of malformed descriptions with their expected messages,
 * atomic saving, and topologies from hwloc synthetic strings and XML.
 */
#include <check.h>
#include <dirent.h>
#include <glob.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "stress/assume.h"
#include "tests/lib/testkit.h"

#define GOOD "tests/data/machines/good.json"
#define BAD_DIR "tests/data/machine-bad"
#define ASSUME "tests/data/assume-full.json"

/* A described machine: topology SPEC plus the test assumptions. */
static struct pandia_machine *described(const char *spec)
{
	struct pandia_machine *m = tk_machine(spec, ASSUME);

	m->origin = xstrdup("topology");
	m->date = xstrdup("2026-01-01T00:00:00Z");
	m->version = xstrdup("test");
	return m;
}

START_TEST(test_round_trip_file)
{
	struct pandia_error err;
	struct pandia_machine *m = machine_load(GOOD, &err);
	char *text, *again;

	ck_assert_msg(m != NULL, "%s", err.text);
	text = read_file(GOOD, NULL, &err);
	again = machine_to_string(m);
	ck_assert_str_eq(again, text);
	free(text);
	free(again);
	machine_free(m);
}
END_TEST

/* the limits where measured are written and read back as they were;
   a file without them has none */
START_TEST(test_round_trip_limits)
{
	struct pandia_error err;
	struct pandia_machine *m = machine_load(GOOD, &err), *m2;
	char *text, *again;

	ck_assert_msg(m != NULL, "%s", err.text);
	ck_assert(!m->limits.present);
	m->limits.present = true;
	m->limits.allowed = xstrdup("0,1");
	m->limits.cpu_quota = 1.5;
	m->limits.source = xstrdup("/sys/fs/cgroup/a/cpu.max");
	text = machine_to_string(m);
	ck_assert_ptr_nonnull(strstr(text, "\"cpu_quota\": 1.5"));
	m2 = machine_parse(text, "limits", &err);
	ck_assert_msg(m2 != NULL, "%s", err.text);
	ck_assert(m2->limits.present && m2->limits.cpu_quota == 1.5);
	ck_assert_str_eq(m2->limits.allowed, "0,1");
	ck_assert_str_eq(m2->limits.source, "/sys/fs/cgroup/a/cpu.max");
	again = machine_to_string(m2);
	ck_assert_str_eq(again, text);
	free(text);
	free(again);
	machine_free(m2);
	/* no quota: null */
	m->limits.cpu_quota = 0;
	text = machine_to_string(m);
	ck_assert_ptr_nonnull(strstr(text, "\"cpu_quota\": null"));
	m2 = machine_parse(text, "limits", &err);
	ck_assert_msg(m2 != NULL, "%s", err.text);
	ck_assert(m2->limits.present && m2->limits.cpu_quota == 0);
	free(text);
	machine_free(m2);
	machine_free(m);
}
END_TEST

static const char *const round_trip_specs[] = {
	"tests/data/topologies/2socket-smt.xml",
	"tests/data/topologies/2socket-restricted.xml",
	"tests/data/topologies/4socket-smt.xml",
	"tests/data/topologies/4socket-offline.xml",
	"pack:2 core:18 pu:2",
	"pack:4 [numa(memory=1073741824)] l3:1(size=31457280) core:10 pu:2",
	"tests/data/topologies/hybrid-3kinds.xml",
	"tests/data/topologies/4socket-nosize.xml",
	"tests/data/topologies/2socket-node-excluded.xml",
	"tests/data/topologies/2socket-memonly.xml",
	"tests/data/topologies/2socket-groups.xml",
};

START_TEST(test_round_trip_topologies)
{
	struct pandia_machine *m = described(round_trip_specs[_i]), *m2;
	struct pandia_error err;
	char *s1 = machine_to_string(m), *s2;

	m2 = machine_parse(s1, "mem", &err);
	ck_assert_msg(m2 != NULL, "%s: %s", round_trip_specs[_i], err.text);
	s2 = machine_to_string(m2);
	ck_assert_str_eq(s1, s2);
	free(s1);
	free(s2);
	machine_free(m);
	machine_free(m2);
}
END_TEST

static bool load_machine(const char *path, struct pandia_error *err)
{
	struct pandia_machine *m = machine_load(path, err);
	bool ok = m != NULL;

	machine_free(m);
	return ok;
}

/* Every file in BAD_DIR is refused with exactly the message beside it. */
START_TEST(test_malformed)
{
	tk_bad_dir(BAD_DIR, 15, load_machine);
}
END_TEST

START_TEST(test_save_atomic)
{
	struct pandia_machine *m = described("pack:1 core:2 pu:1");
	char *dir = tk_tmpdir("test"), *path;
	struct pandia_error err;
	char *before, *after;
	struct dirent **names;
	int n;

	path = xasprintf("%s/m.json", dir);
	ck_assert_int_eq(machine_save(m, path, &err), 0);
	before = read_file(path, NULL, &err);
	/* an invalid description is refused and the old file stays */
	m->peak_rate = -1;
	ck_assert_int_eq(machine_save(m, path, &err), -1);
	ck_assert_msg(strstr(err.text, "core.peak_rate: must be positive"),
		      "%s", err.text);
	after = read_file(path, NULL, &err);
	ck_assert_str_eq(before, after);
	/* nothing else is left in the directory */
	n = scandir(dir, &names, tk_is_json, alphasort);
	ck_assert_int_eq(n, 1);
	free(names[0]);
	free(names);
	/* a directory that does not exist: an error naming the file */
	m->peak_rate = 1;
	ck_assert_int_eq(machine_save(m, "/nonexistent/dir/m.json", &err),
			 -1);
	ck_assert_msg(strstr(err.text, "/nonexistent/dir/m.json"), "%s",
		      err.text);
	tk_tmpdir_remove(dir);
	free(path);
	free(before);
	free(after);
	machine_free(m);
}
END_TEST

/* Topologies: what hwloc gives, described as it is. */
static const struct topo_row {
	int line;
	const char *spec;
	int pus, cores, sockets, numa, smt;
	const char *pu_set;
	const char *cores_per_socket;	/* "4,2" */
	int caches;			/* data caches L1-L3 */
} topo_rows[] = {
	{ __LINE__, "pack:2 core:18 pu:2", 72, 36, 2, 1, 2, "0-71",
	  "18,18", 0 },
	{ __LINE__, "pack:4 core:10 pu:2", 80, 40, 4, 1, 2, "0-79",
	  "10,10,10,10", 0 },
	{ __LINE__, "tests/data/topologies/2socket-smt.xml", 16, 8, 2, 2, 2,
	  "0-15", "4,4", 18 },
	{ __LINE__, "tests/data/topologies/2socket-restricted.xml", 12, 6, 2,
	  2, 2, "0-7,12-15", "4,2", 14 },
	{ __LINE__, "tests/data/topologies/4socket-smt.xml", 32, 16, 4, 4, 2,
	  "0-31", "4,4,4,4", 36 },
	{ __LINE__, "tests/data/topologies/4socket-offline.xml", 27, 14, 4,
	  4, 0, "0-4,6-19,24-31", "4,4,2,4", 32 },
	/* a memoryless NUMA node beside each socket's memory */
	{ __LINE__, "pack:2 [numa(memory=1073741824)] [numa(memory=0)] "
	  "core:2 pu:2", 8, 4, 2, 4, 2, "0-7", "2,2", 0 },
	/* no core level: every PU is a core */
	{ __LINE__, "pack:2 pu:3", 6, 6, 2, 1, 1, "0-5", "3,3", 0 },
};

START_TEST(test_topology_rows)
{
	const struct topo_row *r = &topo_rows[_i];
	struct pandia_machine *m = machine_new();
	struct pandia_error err;
	char per_socket[128] = "", *set;
	int *os, i;

	ck_assert_msg(topology_load(m, r->spec, &err) == 0, "line %d: %s",
		      r->line, err.text);
	ck_assert_msg(m->n_pus == r->pus && m->n_cores == r->cores &&
		      m->n_sockets == r->sockets && m->n_numa == r->numa &&
		      machine_smt(m) == r->smt && m->n_caches == r->caches,
		      "line %d: %d PUs %d cores %d sockets %d nodes smt %d "
		      "%d caches", r->line, m->n_pus, m->n_cores,
		      m->n_sockets, m->n_numa, machine_smt(m), m->n_caches);
	os = xmalloc(sizeof(*os) * (size_t)m->n_pus);
	for (i = 0; i < m->n_pus; i++)
		os[i] = m->pus[i].os_index;
	set = cpuset_format(os, m->n_pus);
	ck_assert_msg(!strcmp(set, r->pu_set), "line %d: PUs %s", r->line,
		      set);
	for (i = 0; i < m->n_sockets; i++)
		snprintf(per_socket + strlen(per_socket),
			 sizeof(per_socket) - strlen(per_socket), "%s%d",
			 i ? "," : "", m->sockets[i].n_cores);
	ck_assert_msg(!strcmp(per_socket, r->cores_per_socket),
		      "line %d: cores per socket %s", r->line, per_socket);
	/* the memory of a node is as described, memoryless ones too */
	for (i = 0; i < m->n_cores; i++)
		ck_assert_msg(m->cores[i].numa < 0 ||
			      m->numa[m->cores[i].numa].memory > 0 ||
			      m->n_numa == 1, "line %d: core %d's local node "
			      "has no memory", r->line, i);
	ck_assert_msg(machine_check(m, &err) == -1,
		      "no figures yet, so not a complete description");
	free(set);
	free(os);
	machine_free(m);
}
END_TEST

/*
 * NUMA nodes and kinds of core as they are (issue 19), on topologies
 * made by hwloc's tools (scripts/make-test-topologies): each node as
 * "os_index:socket:memory" (memory "?" when hwloc gives no size), each
 * core's node, the kinds' rates, and what loading warns about.
 */
static const struct mem_row {
	int line;
	const char *spec;
	const char *nodes;	/* "0:-1:?" */
	const char *core_numa;	/* "0,0,1,1" */
	const char *kinds;	/* rates in Gops/s, "" for one kind */
	const char *note;	/* in m->notes, or NULL for none */
} mem_rows[] = {
	/* one node for four sockets, no size: one node (not one per
	   socket), its size unknown, and a warning */
	{ __LINE__, "tests/data/topologies/4socket-nosize.xml", "0:-1:?",
	  "0,0,0,0,0,0,0,0", "", "no memory size for the NUMA node" },
	/* nodes under groups inside packages: the packages' sockets */
	{ __LINE__, "tests/data/topologies/2socket-groups.xml",
	  "0:0:1073741824 1:0:1073741824 2:1:1073741824 3:1:1073741824",
	  "0,0,1,1,2,2,3,3", "", NULL },
	/* nodes under groups and no package at all: socket 0, not -1 */
	{ __LINE__, "tests/data/topologies/groups-nopackage.xml",
	  "0:0:1073741824 1:0:1073741824", "0,0,1,1", "", NULL },
	/* socket 1's node excluded by the cpuset: its cores' memory is
	   node 0's, and loading says so */
	{ __LINE__, "tests/data/topologies/2socket-node-excluded.xml",
	  "0:0:1073741824", "0,0,0,0,0,0,0,0", "",
	  "socket 1 has cores with no NUMA node of their own" },
	/* a memory-only node over both sockets: no core's own */
	{ __LINE__, "tests/data/topologies/2socket-memonly.xml",
	  "0:0:1073741824 1:1:1073741824 2:-1:4294967296", "0,0,1,1", "",
	  NULL },
	/* a memoryless node beside each socket's memory: kept, 0 bytes,
	   and said */
	{ __LINE__, "pack:2 [numa(memory=1073741824)] [numa(memory=0)] "
	  "core:2 pu:2", "0:0:1073741824 1:0:0 2:1:1073741824 3:1:0",
	  "0,0,2,2", "", "NUMA node 1 has no memory size" },
	/* three kinds: rates from --assume's peak by FrequencyMaxMHz */
	{ __LINE__, "tests/data/topologies/hybrid-3kinds.xml",
	  "0:0:1073741824", "0,0,0,0,0,0,0,0", "5 7.5 10", NULL },
	/* kinds that split every core, or leave cores out: one kind,
	   said */
	{ __LINE__, "tests/data/topologies/hybrid-mixed.xml",
	  "0:0:1073741824", "0,0,0,0", "",
	  "split core 0 (PUs 0 and 1 and maybe more) between kinds" },
	{ __LINE__, "tests/data/topologies/hybrid-leftout.xml",
	  "0:0:1073741824", "0,0,0,0,0,0,0,0", "",
	  "leave core 6 (PU 6) out" },
};

START_TEST(test_topology_memory)
{
	const struct mem_row *r = &mem_rows[_i];
	struct pandia_machine *m = described(r->spec);
	char nodes[256] = "", numa[256] = "", kinds[64] = "";
	struct pandia_error err;
	int i;

	for (i = 0; i < m->n_numa; i++) {
		const struct pandia_numa *n = &m->numa[i];
		size_t l = strlen(nodes);

		if (n->memory_unknown)
			snprintf(nodes + l, sizeof(nodes) - l, "%s%d:%d:?",
				 i ? " " : "", n->os_index, n->socket);
		else
			snprintf(nodes + l, sizeof(nodes) - l, "%s%d:%d:%llu",
				 i ? " " : "", n->os_index, n->socket,
				 n->memory);
	}
	for (i = 0; i < m->n_cores; i++)
		snprintf(numa + strlen(numa), sizeof(numa) - strlen(numa),
			 "%s%d", i ? "," : "", m->cores[i].numa < 0 ? -1 :
			 m->numa[m->cores[i].numa].os_index);
	for (i = 0; i < m->n_kinds; i++)
		snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds),
			 "%s%g", i ? " " : "", m->kinds[i].rate / 1e9);
	ck_assert_msg(!strcmp(nodes, r->nodes), "line %d: nodes %s",
		      r->line, nodes);
	ck_assert_msg(!strcmp(numa, r->core_numa), "line %d: cores' nodes %s",
		      r->line, numa);
	ck_assert_msg(!strcmp(kinds, r->kinds), "line %d: kinds %s", r->line,
		      kinds);
	if (r->note)
		ck_assert_msg(m->notes && strstr(m->notes, r->note),
			      "line %d: notes %s", r->line,
			      m->notes ? m->notes : "(none)");
	else
		ck_assert_msg(!m->notes, "line %d: notes %s", r->line,
			      m->notes);
	ck_assert_msg(machine_check(m, &err) == 0, "line %d: %s", r->line,
		      err.text);
	machine_free(m);
}
END_TEST

/*
 * --assume per kind: explicit rates in hwloc's order (null: scaled by
 * frequency), refused above the peak, refused on one kind; old assume
 * files stay valid (the rows above use one).
 */
START_TEST(test_assume_kinds)
{
	static const struct {
		int line;
		/* want: the rates, or a part of the error */
		const char *spec, *kinds, *want;
	} rows[] = {
		{ __LINE__, "tests/data/topologies/hybrid-3kinds.xml",
		  "[{\"peak_rate\": 4e9}, null, {\"peak_rate\": 1e10}]",
		  "4 7.5 10" },
		{ __LINE__, "tests/data/topologies/hybrid-3kinds.xml",
		  "[null, null]", "must have 3 entries" },
		{ __LINE__, "tests/data/topologies/hybrid-3kinds.xml",
		  "[{\"peak_rate\": 2e10}, null, null]",
		  "above core.peak_rate" },
		{ __LINE__, "pack:1 core:2 pu:1", "[null, null]",
		  "one kind of core" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char got[64] = "";
		char *text = xasprintf("{\"schema\":\"pandia-assume/1\","
				       "\"core\":{\"peak_rate\":1e10,"
				       "\"kinds\":%s},\"links\":{}}",
				       rows[i].kinds);
		char *path = tk_tmpfile("assume", text);
		struct pandia_machine *m = machine_new();
		struct pandia_error err;
		int rc, k;

		ck_assert_int_eq(topology_load(m, rows[i].spec, &err), 0);
		rc = assume_apply(m, path, &err);
		for (k = 0; rc == 0 && k < m->n_kinds; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%g", k ? " " : "", m->kinds[k].rate / 1e9);
		ck_assert_msg(rc == 0 ? !strcmp(got, rows[i].want) :
			      strstr(err.text, rows[i].want) != NULL,
			      "line %d: %s", rows[i].line,
			      rc == 0 ? got : err.text);
		unlink(path);
		free(path);
		free(text);
		machine_free(m);
	}
}
END_TEST

/* A 32,768-PU synthetic machine loads in linear time (74 s before). */
START_TEST(test_topology_large)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;

	ck_assert_int_eq(topology_load(m, "pack:64 core:64 pu:8", &err), 0);
	ck_assert_int_eq(m->n_pus, 32768);
	ck_assert_int_eq(m->n_cores, 4096);
	ck_assert_int_eq(m->cores[4095].socket, 63);
	ck_assert_int_eq(m->pus[m->cores[4095].pus[7]].os_index, 32767);
	machine_free(m);
}
END_TEST

/* A name from a file is shortened in messages. */
START_TEST(test_same_host_long)
{
	struct pandia_machine *a = described("pack:1 core:2 pu:1");
	struct pandia_machine *b = described("pack:1 core:2 pu:1");
	char *why;

	free(b->host);
	b->host = xmalloc(1000001);
	memset(b->host, 'h', 1000000);
	b->host[1000000] = '\0';
	ck_assert(!machine_same_host(a, b, &why));
	ck_assert_msg(strlen(why) < 200 && strstr(why, "(1000000 bytes)"),
		      "%.300s", why);
	free(why);
	machine_free(a);
	machine_free(b);
}
END_TEST

/*
 * A CPU's brand string, padded by CPUID ("Oxide Virtual Turin-like
 * Processor" and 13 spaces, as hwloc gives it on one host): squeezed
 * where read, so that messages show none of it and a description
 * written before compares equal to this host's.
 */
START_TEST(test_model_squeezed)
{
	static const char *const rows[][2] = {
		{ "Oxide Virtual Turin-like Processor             ",
		  "Oxide Virtual Turin-like Processor" },
		{ "  Intel(R) Xeon(R) CPU           E5-2699 v3 ",
		  "Intel(R) Xeon(R) CPU E5-2699 v3" },
		{ "\tAMD\t EPYC", "AMD EPYC" },
		{ "   ", "" },
		{ "", "" },
		{ "AMD EPYC", "AMD EPYC" },
	};
	struct pandia_machine *a = described("pack:1 core:2 pu:1");
	struct pandia_machine *b;
	struct pandia_error err;
	char path[] = "/tmp/pandia-model-XXXXXX", *why = NULL;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *s = xstrdup(rows[i][0]);

		ck_assert_str_eq(squeeze_blanks(s), rows[i][1]);
		free(s);
	}
	ck_assert_ptr_null(squeeze_blanks(NULL));
	/* written padded (by an older pandia), read squeezed */
	free(a->cpu_model);
	a->cpu_model = xstrdup(rows[0][0]);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_msg(machine_save(a, path, &err) == 0, "%s", err.text);
	b = machine_load(path, &err);
	unlink(path);
	ck_assert_msg(b != NULL, "%s", err.text);
	ck_assert_str_eq(b->cpu_model, rows[0][1]);
	squeeze_blanks(a->cpu_model);
	ck_assert_msg(machine_same_host(a, b, &why), "%s", why ? why : "");
	machine_free(a);
	machine_free(b);
}
END_TEST

/* This host: exactly the PUs this process may run on. */
START_TEST(test_this_host)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;
	cpu_set_t set;
	int i;

	ck_assert_msg(topology_load(m, NULL, &err) == 0, "%s", err.text);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	ck_assert_int_eq(m->n_pus, CPU_COUNT(&set));
	for (i = 0; i < m->n_pus; i++)
		ck_assert(CPU_ISSET(m->pus[i].os_index, &set));
	ck_assert_ptr_nonnull(m->host);
	ck_assert_ptr_nonnull(m->cpu_model);
	ck_assert_msg(!strstr(m->cpu_model, "  ") && m->cpu_model[0] != ' ' &&
		      (!m->cpu_model[0] ||
		       m->cpu_model[strlen(m->cpu_model) - 1] != ' '),
		      "'%s'", m->cpu_model);
	machine_free(m);
}
END_TEST

/* A process restricted to one PU sees a one-PU machine. */
START_TEST(test_this_host_restricted)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;
	cpu_set_t set, one;
	int first = -1, i;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &set))
			first = i;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	ck_assert_msg(topology_load(m, NULL, &err) == 0, "%s", err.text);
	ck_assert_int_eq(m->n_pus, 1);
	ck_assert_int_eq(m->pus[0].os_index, first);
	ck_assert_int_eq(m->n_cores, 1);
	machine_free(m);
}
END_TEST

START_TEST(test_bad_topology_spec)
{
	struct pandia_machine *m = machine_new();
	struct pandia_error err;

	ck_assert_int_eq(topology_load(m, "pack:2 wibble:3", &err), -1);
	ck_assert_msg(strstr(err.text, "synthetic"), "%s", err.text);
	machine_free(m);
	m = machine_new();
	ck_assert_int_eq(topology_load(m, "/no/such/topo.xml", &err), -1);
	ck_assert_msg(strstr(err.text, "/no/such/topo.xml"), "%s", err.text);
	machine_free(m);
}
END_TEST

START_TEST(test_same_host)
{
	struct pandia_machine *a = described("pack:1 core:2 pu:1");
	struct pandia_machine *b = described("pack:1 core:3 pu:1");
	char *why;

	ck_assert(machine_same_host(a, a, &why));
	ck_assert(!machine_same_host(a, b, &why));
	ck_assert_msg(strstr(why, "PUs"), "%s", why);
	free(why);
	free(b->host);
	b->host = xstrdup("elsewhere");
	ck_assert(!machine_same_host(a, b, &why));
	ck_assert_msg(strstr(why, "elsewhere"), "%s", why);
	free(why);
	machine_free(a);
	machine_free(b);
}
END_TEST

/* --assume errors name file, line and field */
START_TEST(test_assume_errors)
{
	static const struct {
		int line;
		const char *text, *want;
	} rows[] = {
		{ __LINE__, "{\"schema\":\"x\"}", "schema must be" },
		{ __LINE__, "{\"schema\":\"pandia-assume/1\",\"core\":"
		  "{\"peak_rate\":-1},\"links\":{}}",
		  "core.peak_rate: must be positive" },
		{ __LINE__, "{\"schema\":\"pandia-assume/1\",\"core\":"
		  "{\"peak_rate\":1},\"links\":{\"L3\":{\"per_core_bw\":1,"
		  "\"aggregate_bw\":1}}}", "has no L3 cache" },
		{ __LINE__, "{\"schema\":\"pandia-assume/1\",\"core\":"
		  "{\"peak_rate\":1},\"links\":{\"L7\":{}}}",
		  "links.L7: unknown level" },
		{ __LINE__, "{\"schema\":\"pandia-assume/1\",\"core\":"
		  "{\"peak_rate\":1},\"links\":{},\"speed\":3}",
		  "unknown field 'speed'" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *path = tk_tmpfile("assume", rows[i].text);
		struct pandia_machine *m = machine_new();
		struct pandia_error err;

		ck_assert_int_eq(topology_load(m, "pack:1 core:2 pu:1", &err),
				 0);
		ck_assert_msg(assume_apply(m, path, &err) == -1,
			      "line %d accepted", rows[i].line);
		ck_assert_msg(strstr(err.text, rows[i].want) &&
			      !strcmp(err.source, path) && err.line == 1,
			      "line %d: %s", rows[i].line, err.text);
		unlink(path);
		free(path);
		machine_free(m);
	}
}
END_TEST

/*
 * The PUs that can load one instance of a level, and whether threads
 * at a demand fill it: two sockets of 8 cores with 2 PUs each, an L3 a
 * socket (assume-full: L3 150 GB/s, DRAM 40 GB/s).
 */
START_TEST(test_level_fills)
{
	struct pandia_machine *m = described("pack:2 l3:1 core:8 pu:2");

	ck_assert_int_eq(machine_level_pus(m, LVL_L3), 16);
	ck_assert_int_eq(machine_level_pus(m, LVL_DRAM), 32);
	ck_assert_int_eq(machine_level_pus(m, LVL_L2), 2);
	ck_assert_int_eq(machine_level_pus(m, LVL_INTERCONNECT), 0);
	/* 16 x 9 GB/s = 144 of 150; 16 x 10 = 160 */
	ck_assert(!machine_level_fills(m, LVL_L3, 9e9));
	ck_assert(machine_level_fills(m, LVL_L3, 10e9));
	/* every PU of the machine on one node: 32 x 1.2 = 38.4 of 40 */
	ck_assert(!machine_level_fills(m, LVL_DRAM, 1.2e9));
	ck_assert(machine_level_fills(m, LVL_DRAM, 1.3e9));
	/* one core's link (L3 50 GB/s a core), the aggregate out of
	   reach: its two PUs at 24 GB/s take 48, at 26 GB/s 52 */
	m->links[LVL_L3].aggregate_bw = 1e12;
	ck_assert(!machine_level_fills(m, LVL_L3, 24e9));
	ck_assert(machine_level_fills(m, LVL_L3, 26e9));
	/* one PU a core: a thread takes at most its core's link (DRAM
	   12 GB/s), so 20 GB/s is 12, and 2 x 12 of 40 fills nothing */
	machine_free(m);
	m = described("pack:1 core:2 pu:1");
	ck_assert(!machine_level_fills(m, LVL_DRAM, 20e9));
	/* what cannot be told fills */
	ck_assert(machine_level_fills(m, LVL_INTERCONNECT, 1));
	m->links[LVL_DRAM].aggregate_bw = 0;
	ck_assert(machine_level_fills(m, LVL_DRAM, 1));
	machine_free(m);
}
END_TEST

/*
 * No machine pandia describes, and no test topology, has a cache larger
 * a core than MACHINE_CACHE_MADE_PER_CORE: the rule (check_stress's
 * order, the runner's DRAM buffers) catches only a hypervisor's view (the
 * PVM guest's 508 MiB L3 a vCPU, as a synthetic topology here), and the
 * summary says so of that one alone; that one core reaches less of it
 * only where the figures read its array at DRAM's rate.
 */
static char *summary_of(const struct pandia_machine *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	machine_print_summary(m, f);
	fclose(f);
	return text;
}

START_TEST(test_virtual_cache)
{
	static const char said[] = "more a core than any processor has";
	struct pandia_error err;
	glob_t g;
	size_t i;

	ck_assert_int_eq(glob("machines/*.topology", 0, NULL, &g), 0);
	ck_assert_int_eq(glob("tests/data/topologies/*.xml", GLOB_APPEND,
			      NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, 4);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i];
		bool xml = strstr(path, ".xml") != NULL;
		char *text = xml ? NULL : read_file(path, NULL, &err), *sum;
		struct pandia_machine *m = machine_new();
		int lvl;

		ck_assert_msg(xml || text, "%s", err.text);
		if (text)
			text[strcspn(text, "\n")] = '\0';
		ck_assert_msg(topology_load(m, xml ? path : text, &err) == 0,
			      "%s: %s", path, err.text);
		for (lvl = LVL_L2; lvl <= LVL_L3; lvl++)
			ck_assert_msg(machine_cache_per_core(m, lvl) <=
				      MACHINE_CACHE_MADE_PER_CORE,
				      "%s: %s %llu MiB a core", path,
				      level_name(lvl),
				      machine_cache_per_core(m, lvl) >> 20);
		sum = summary_of(m);
		ck_assert_msg(!strstr(sum, said), "%s: %s", path, sum);
		free(sum);
		machine_free(m);
		free(text);
	}
	globfree(&g);
	{
		struct pandia_machine *m = tk_machine("Package:1 L3Cache:2("
						      "size=532676608) Core:1 "
						      "PU:1", NULL);
		char *sum;

		ck_assert_uint_eq(machine_cache_per_core(m, LVL_L3),
				  508ULL << 20);
		ck_assert(machine_cache_virtual(m, LVL_L3));
		ck_assert(!machine_cache_virtual(m, LVL_L2));
		sum = summary_of(m);
		ck_assert_msg(strstr(sum, "L3 508 MiB x 2, shared by 1 core: "
				     "more a core than any processor has"),
			      "%s", sum);
		ck_assert_msg(!strstr(sum, "reaches less"), "%s", sum);
		free(sum);
		/* its 127 MiB array read at DRAM's rate (the PVM guest's) */
		tk_pvm_figures(m);
		ck_assert_uint_eq(machine_cache_missed(m, LVL_L3), 133169152);
		sum = summary_of(m);
		ck_assert_msg(strstr(sum, "    its 127 MiB array a core read at "
				     "DRAM's rate: one core reaches less of "
				     "it\n"), "%s", sum);
		free(sum);
		/* read 18% above DRAM (the Intel guest's 480 MiB for two) */
		m->links[LVL_L3].per_core_bw = 1.18 * 32.8e9;
		ck_assert_uint_eq(machine_cache_missed(m, LVL_L3), 0);
		machine_free(m);
		/* a shared one: its aggregate must be at DRAM's rate too (the
		   Intel guest's quota description: 38.3 against 28.6) */
		m = tk_machine("Package:1 L3Cache:1(size=503316480) Core:2 "
			       "PU:1", NULL);
		ck_assert(machine_cache_virtual(m, LVL_L3));
		m->links[LVL_L3].present = m->links[LVL_DRAM].present = true;
		m->links[LVL_L3].per_core_bw = 14.73e9;
		m->links[LVL_L3].per_core.working_set = 125829120;
		m->links[LVL_L3].aggregate_bw = 38.26e9;
		m->links[LVL_DRAM].per_core_bw = 14.45e9;
		m->links[LVL_DRAM].aggregate_bw = 28.57e9;
		ck_assert_uint_eq(machine_cache_missed(m, LVL_L3), 0);
		m->links[LVL_L3].aggregate_bw = 29.0e9;
		ck_assert_uint_eq(machine_cache_missed(m, LVL_L3), 125829120);
		m->links[LVL_L3].aggregate_bw = 0;	/* not measured */
		ck_assert_uint_eq(machine_cache_missed(m, LVL_L3), 0);
		machine_free(m);
	}
}
END_TEST

static Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, test_round_trip_file);
	tcase_add_test(tc, test_round_trip_limits);
	tcase_add_loop_test(tc, test_round_trip_topologies, 0,
			    ARRAY_SIZE(round_trip_specs));
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_save_atomic);
	tcase_add_test(tc, test_same_host);
	tcase_add_test(tc, test_assume_errors);
	tcase_add_test(tc, test_assume_kinds);
	tcase_add_test(tc, test_same_host_long);
	suite_add_tcase(s, tc);
	tc = tcase_create("topology");
	tcase_set_timeout(tc, 60);	/* 32,768 PUs on a busy host */
	tcase_add_loop_test(tc, test_topology_rows, 0, ARRAY_SIZE(topo_rows));
	tcase_add_test(tc, test_this_host);
	tcase_add_test(tc, test_model_squeezed);
	tcase_add_test(tc, test_this_host_restricted);
	tcase_add_test(tc, test_bad_topology_spec);
	tcase_add_loop_test(tc, test_topology_memory, 0,
			    ARRAY_SIZE(mem_rows));
	tcase_add_test(tc, test_topology_large);
	tcase_add_test(tc, test_level_fills);
	tcase_add_test(tc, test_virtual_cache);
	suite_add_tcase(s, tc);
	return s;
}

tk_suite_fn *const tk_suites[] = { machine_suite, NULL };
