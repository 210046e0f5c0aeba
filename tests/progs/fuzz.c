/*
 * fuzz - a mutation fuzzer over pandia's loaders: the machine
 * description (pandia-machine/1), the workload description
 * (pandia-workload/1) with the Pandia model or the black-box model's
 * state ("models.blackbox"), the --assume file (pandia-assume/1), the
 * runs file (pandia-scaling/1), and co-run pairs (a workload predicted
 * beside another, pandia predict -w A -w B).
 *
 *   fuzz [-n N] [-s SEED] [-o DIR] KIND:FILE...
 *
 * KIND is machine, workload, assume, runs, blackbox or mva (a workload
 * description with that model's state), or corun; each FILE a valid
 * seed.  A blackbox or mva input is sound when the model, opened on the
 * machine its seed names (machine.file), either refuses in one line or
 * predicts a finite time above zero, or refuses, for every thread
 * count at every size tried.  A corun input (a Pandia model's
 * description) is sound when, beside its own seed unchanged, every
 * division of that machine's PUs between the two (and the two on the
 * same PUs) gives both a finite time above zero or is refused in one
 * line.
 * Every loader gets N mutated inputs (JSON-aware mutations: a value
 * replaced by an odd one, a key or element dropped or doubled, a key
 * added; and one input in eight with bytes flipped, cut or inserted).
 * A rejected input must give a one-line error naming the file; an
 * accepted one must pass the semantic checks here, written apart from
 * the loaders' own: units, ranges, references between fields, and the
 * description written again reads back the same.  Before the random
 * inputs, the wrong-but-accepted values of issue 18 are tried and must
 * be refused.  Built with SANITIZE=address,undefined by 'make fuzz',
 * any sanitizer report stops it (halt_on_error).
 *
 * Prints one line of figures per loader; exits 1 when anything wrong
 * was accepted or an error was not one line (the inputs are kept in
 * DIR, default the current directory).
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/machine.h"
#include "common/topology.h"
#include "common/util.h"
#include "common/workload.h"
#include "predictor/models.h"
#include "predictor/pandia/params.h"
#include "predictor/scaling.h"
#include "stress/assume.h"

enum kind {
	K_MACHINE, K_WORKLOAD, K_ASSUME, K_RUNS, K_BLACKBOX, K_MVA, K_CORUN,
	K_COUNT
};

static const char *const kind_names[K_COUNT] = {
	"machine", "workload", "assume", "runs", "blackbox", "mva", "corun"
};

/* the model a workload kind's state is for, or NULL (the Pandia
   model's, checked by workload_ok()) */
static const char *const kind_model[K_COUNT] = {
	NULL, NULL, NULL, NULL, "blackbox", "mva", "pandia"
};

/* the co-run kind's partner: its first seed, as loaded */
static struct pandia_workload *corun_partner;

/* the machine a model kind's seed names (its machine.file) */
static struct pandia_machine *model_machine;

struct figures {
	long inputs, accepted, rejected, wrong, bad_error, seeds;
};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static const char *outdir = ".";
static char tmpfile_path[4096];

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

/* ---- mutations ----------------------------------------------------- */

/* Every container and value of the tree, with its parent and key. */
struct node {
	json_t *v, *parent;
	const char *key;	/* parent an object */
	size_t index;		/* parent an array */
};

struct nodes {
	struct node *a;
	size_t n, cap;
};

static void collect(struct nodes *ns, json_t *v, json_t *parent,
		    const char *key, size_t index)
{
	const char *k;
	json_t *x;
	size_t i;

	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? 2 * ns->cap : 256;
		ns->a = xrealloc(ns->a, ns->cap * sizeof(*ns->a));
	}
	ns->a[ns->n++] = (struct node){ v, parent, key, index };
	if (json_is_object(v))
		json_object_foreach(v, k, x)
			collect(ns, x, v, k, 0);
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			collect(ns, x, v, NULL, i);
}

/* An odd value: the edges of every type pandia reads. */
static json_t *odd_value(const struct nodes *ns)
{
	static const double reals[] = {
		-1, 0, -0.0, 1, 0.5, 1e-320, 4.9e-324, 2.2e-308, 1e-9, 1e308,
		-1e308, 1e19, 2147483648.0, 3.5, 1e-12,
	};
	static const long long ints[] = {
		-1, 0, 1, 2, 3, 7, 63, 64, 65, 1 << 20, (1 << 20) + 1,
		2147483647LL, -2147483648LL, 9223372036854775807LL,
	};
	static const char *const strs[] = {
		"", "x", "bytes/s", "ops/s", "furlongs", "L1", "L2", "L3",
		"dram", "interconnect", "0", "0-3", "0,0", "3-1", "0x3", "-1",
		"run1", "run2", "run1,run9", "local", "interleave", "node:1",
		"pandia-machine/1", "pandia-workload/1", "pandia-assume/1",
		"pandia-scaling/1", "perf", "probe", "S0:0-3", "cpu@0",
	};

	switch (below(8)) {
	case 0:
	case 1:
		return json_real(reals[below(ARRAY_SIZE(reals))]);
	case 2:
	case 3:
		return json_integer(ints[below(ARRAY_SIZE(ints))]);
	case 4:
		return json_string(strs[below(ARRAY_SIZE(strs))]);
	case 5:
		switch (below(5)) {
		case 0: return json_null();
		case 1: return json_true();
		case 2: return json_array();
		case 3: return json_object();
		default: return json_pack("[i]", (int)below(4));
		}
	default:
		/* another value of the same description */
		return json_deep_copy(ns->a[below(ns->n)].v);
	}
}

static void replace(struct node *nd, json_t *nv)
{
	if (json_is_object(nd->parent))
		json_object_set_new(nd->parent, nd->key, nv);
	else
		json_array_set_new(nd->parent, nd->index, nv);
}

/* One mutation of ROOT in place; ROOT itself is never replaced. */
static void mutate_tree(json_t *root)
{
	struct nodes ns = { NULL, 0, 0 };
	struct node *nd;

	collect(&ns, root, NULL, NULL, 0);
	if (ns.n < 2)
		goto out;
	nd = &ns.a[1 + below(ns.n - 1)];
	switch (below(10)) {
	case 0:
		/* drop it */
		if (json_is_object(nd->parent))
			json_object_del(nd->parent, nd->key);
		else
			json_array_remove(nd->parent, nd->index);
		break;
	case 1:
		/* double it (arrays) or add a key beside it */
		if (json_is_array(nd->parent))
			json_array_insert_new(nd->parent, nd->index,
					      json_deep_copy(nd->v));
		else
			json_object_set_new(nd->parent, "fuzz_extra",
					    odd_value(&ns));
		break;
	case 2:
		/* a number nudged */
		if (json_is_integer(nd->v))
			replace(nd, json_integer((json_int_t)(
				(unsigned long long)json_integer_value(nd->v) +
				(below(2) ? 1ULL : -1ULL))));
		else if (json_is_real(nd->v))
			replace(nd, json_real(json_real_value(nd->v) *
					      (below(2) ? -1 : 1e-300)));
		else
			replace(nd, odd_value(&ns));
		break;
	default:
		replace(nd, odd_value(&ns));
		break;
	}
out:
	free(ns.a);
}

/* Bytes flipped, cut or inserted: the parser's share. */
static void mutate_bytes(char **text)
{
	size_t len = strlen(*text), at = below(len + 1), k;
	char *t = *text;

	switch (below(3)) {
	case 0:
		if (len)
			t[below(len)] ^= (char)(1 << below(7));
		break;
	case 1:
		t[at] = '\0';
		break;
	default:
		t = xrealloc(t, len + 8);
		memmove(t + at + 4, t + at, len - at + 1);
		for (k = 0; k < 4; k++)
			t[at + k] = "{}[],:\"0-e9 "[below(12)];
		*text = t;
		break;
	}
}

/* ---- the semantic checks ------------------------------------------- */

static char why[512];

static bool fail_why(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static bool fail_why(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return false;
}

static bool figure(double v)
{
	return isfinite(v) && v >= 1;
}

static bool unit_ok(json_t *obj, const char *unit)
{
	json_t *u = json_object_get(obj, "unit");

	return !u || json_is_null(u) ||
		(json_is_string(u) && !strcmp(json_string_value(u), unit));
}

/* Units in the input as read: what the loaders may drop on the way. */
static bool machine_units(json_t *doc)
{
	json_t *a, *o;
	size_t i;

	if (!unit_ok(json_object_get(doc, "core"), "ops/s"))
		return fail_why("core.unit is not \"ops/s\"");
	a = json_object_get(doc, "links");
	json_array_foreach(a, i, o) {
		if (!unit_ok(o, "bytes/s"))
			return fail_why("links[%zu].unit is not \"bytes/s\"",
					i);
		if (!unit_ok(json_object_get(o, "per_core_measure"),
			     "bytes/s") ||
		    !unit_ok(json_object_get(o, "aggregate_measure"),
			     "bytes/s"))
			return fail_why("links[%zu]: a measure's unit is "
					"not \"bytes/s\"", i);
	}
	a = json_object_get(doc, "interconnect");
	json_array_foreach(a, i, o)
		if (!unit_ok(o, "bytes/s") ||
		    !unit_ok(json_object_get(o, "measure"), "bytes/s"))
			return fail_why("interconnect[%zu]: unit is not "
					"\"bytes/s\"", i);
	return true;
}

static bool measure_ok(const struct pandia_measure *ms, const char *unit)
{
	if (ms->unit && strcmp(ms->unit, unit))
		return fail_why("a measure in \"%s\", not \"%s\"", ms->unit,
				unit);
	if (ms->threads < 0 || ms->repetitions < 0 ||
	    !(ms->working_set >= 0) || !isfinite(ms->working_set) ||
	    !(ms->spread >= 0) || !isfinite(ms->spread))
		return fail_why("a measure's counts out of range");
	return true;
}

static bool machine_ok(const struct pandia_machine *m)
{
	int i, j, k;

	if (m->n_pus < 1 || m->n_cores < 1 || m->n_sockets < 1)
		return fail_why("no PU, core or socket");
	for (i = 0; i < m->n_pus; i++) {
		if (m->pus[i].os_index < 0 ||
		    (i && m->pus[i].os_index <= m->pus[i - 1].os_index))
			return fail_why("PUs not ascending");
		if (m->pus[i].core < 0 || m->pus[i].core >= m->n_cores)
			return fail_why("PU %d in no core", i);
	}
	for (i = 0; i < m->n_cores; i++) {
		const struct pandia_core *c = &m->cores[i];

		if (c->socket < 0 || c->socket >= m->n_sockets)
			return fail_why("core %d: socket out of range", i);
		if (c->numa < -1 || c->numa >= m->n_numa)
			return fail_why("core %d: NUMA node out of range", i);
		if (c->n_pus < 1)
			return fail_why("core %d has no PU", i);
		for (j = 0; j < c->n_pus; j++)
			if (c->pus[j] < 0 || c->pus[j] >= m->n_pus ||
			    m->pus[c->pus[j]].core != i)
				return fail_why("core %d: PU not its own", i);
		for (j = 0; j < 3; j++) {
			int ca = c->cache[j];
			bool listed = false;

			if (ca == -1)
				continue;
			if (ca < 0 || ca >= m->n_caches ||
			    m->caches[ca].level != j + 1)
				return fail_why("core %d: L%d cache index %d",
						i, j + 1, ca);
			for (k = 0; k < m->caches[ca].n_cores; k++)
				listed |= m->caches[ca].cores[k] == i;
			if (!listed)
				return fail_why("core %d: its L%d does not "
						"list it", i, j + 1);
		}
	}
	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *ca = &m->caches[i];

		if (ca->level < 1 || ca->level > 3 || !ca->size)
			return fail_why("cache %d: level or size", i);
		if (ca->n_cores < 1)
			return fail_why("cache %d is shared by no core", i);
		for (j = 0; j < ca->n_cores; j++)
			if (ca->cores[j] < 0 || ca->cores[j] >= m->n_cores ||
			    m->cores[ca->cores[j]].cache[ca->level - 1] != i)
				return fail_why("cache %d: core %d does not "
						"name it", i, ca->cores[j]);
	}
	for (i = 0; i < m->n_sockets; i++)
		for (j = 0; j < m->sockets[i].n_cores; j++)
			if (m->sockets[i].cores[j] < 0 ||
			    m->sockets[i].cores[j] >= m->n_cores ||
			    m->cores[m->sockets[i].cores[j]].socket != i)
				return fail_why("socket %d: core not its own",
						i);
	for (i = 0; i < m->n_numa; i++)
		if (m->numa[i].socket < -1 ||
		    m->numa[i].socket >= m->n_sockets)
			return fail_why("NUMA node %d: socket", i);
	if (m->peak_reason ? m->peak_rate != 0 : !figure(m->peak_rate))
		return fail_why("core.peak_rate %g", m->peak_rate);
	if (!m->peak_reason && !measure_ok(&m->peak, "ops/s"))
		return false;
	if (m->smt_applicable && (!figure(m->smt_rate) ||
				  !measure_ok(&m->smt, "ops/s")))
		return fail_why("core.smt_aggregate_rate %g", m->smt_rate);
	for (k = 0; k < LVL_COUNT; k++) {
		const struct pandia_link *l = &m->links[k];

		if (!l->present)
			continue;
		if (!figure(l->per_core_bw) || !figure(l->aggregate_bw))
			return fail_why("%s bandwidth %g, %g", level_name(k),
					l->per_core_bw, l->aggregate_bw);
		if (!measure_ok(&l->per_core, "bytes/s") ||
		    !measure_ok(&l->aggregate, "bytes/s"))
			return false;
	}
	for (i = 0; i < m->n_xlinks; i++) {
		const struct pandia_xlink *x = &m->xlinks[i];

		if (x->from < 0 || x->from >= m->n_sockets || x->to < 0 ||
		    x->to >= m->n_sockets || x->from == x->to ||
		    !figure(x->bw) || !measure_ok(&x->m, "bytes/s"))
			return fail_why("interconnect[%d]", i);
	}
	return true;
}

static bool param_ok(const struct wl_param *p, const char *name, double lo,
		     double hi, bool nullable)
{
	if (!p->known)
		return nullable ? true : fail_why("%s unknown", name);
	if (!isfinite(p->value) || p->value < lo || p->value > hi ||
	    (p->value != 0 && !isnormal(p->value)))
		return fail_why("%s = %g", name, p->value);
	return true;
}

static bool workload_ok(const struct pandia_workload *w)
{
	const struct pandia_params *pp = pandia_params(w);
	int i, j;

	if (!param_ok(&pp->t1, "t1", 1e-9, INFINITY, false) ||
	    !param_ok(&pp->p, "p", 0, 1, false) ||
	    !param_ok(&pp->o_s, "o_s", 0, INFINITY, true) ||
	    !param_ok(&pp->l, "l", 0, 1, true) ||
	    !param_ok(&pp->b, "b", 0, INFINITY, true))
		return false;
	for (i = 0; i < WR_COUNT; i++)
		if (pp->listed[i] && !param_ok(&pp->demand[i], "demand", 0,
					      INFINITY, true))
			return false;
	for (i = 0; i < w->n_pus; i++)
		if (w->pus[i] < 0 || (i && w->pus[i] <= w->pus[i - 1]))
			return fail_why("machine.pus not a set");
	for (i = 0; i < w->n_runs; i++) {
		const struct wl_run *r = &w->runs[i];

		if (!r->id || !*r->id || r->n_cpus < 1)
			return fail_why("runs[%d]: no id or no cpus", i);
		for (j = 0; j < i; j++)
			if (!strcmp(w->runs[j].id, r->id))
				return fail_why("run id %s twice", r->id);
		for (j = 0; j < r->n_cpus; j++)
			if (r->cpus[j] < 0)
				return fail_why("runs[%d]: PU %d", i,
						r->cpus[j]);
		for (j = 0; j < r->n_times; j++)
			if (!isfinite(r->times[j]) || r->times[j] < 0)
				return fail_why("runs[%d]: time %g", i,
						r->times[j]);
	}
	return true;
}

static bool runs_ok(const struct pandia_scaling *s)
{
	int i, j, k;

	if (!(s->frequency == 0 || (isfinite(s->frequency) &&
				    s->frequency >= 1)))
		return fail_why("frequency %g", s->frequency);
	for (i = 0; i < s->n_runs; i++) {
		const struct scaling_run *r = &s->runs[i];

		if (r->threads < 1 ||
		    (i && r->threads <= s->runs[i - 1].threads))
			return fail_why("runs[%d].threads %d", i, r->threads);
		if (!isfinite(r->time) || r->time < 1e-9)
			return fail_why("runs[%d].time %g", i, r->time);
		for (j = 0; j < r->n_times; j++)
			if (!isfinite(r->times[j]) || r->times[j] < 1e-9)
				return fail_why("runs[%d].times %g", i,
						r->times[j]);
		for (k = 0; k < s->n_categories; k++)
			if (!isfinite(r->stalls[k]) || r->stalls[k] < 0)
				return fail_why("runs[%d] stall %g", i,
						r->stalls[k]);
	}
	return true;
}

/* ---- one input through one loader ---------------------------------- */

static bool one_line(const struct pandia_error *err)
{
	return err->text[0] && !strchr(err->text, '\n') && err->source[0];
}

/*
 * Load TEXT as KIND.  Returns 1 accepted and sound, 0 rejected with a
 * good error, -1 wrong accepted (why says what), -2 a bad error.
 */
/*
 * W's model MD on model_machine: 0 when open() refuses it (err set),
 * else 1 when every thread count 1 to 64 at every size tried predicts
 * a finite time above zero or refuses, -1 (why set) when one does not.
 */
static int model_sound(const struct model_def *md,
		       const struct pandia_workload *w,
		       struct pandia_error *err)
{
	static const double sizes[] = { NAN, 1, 200, 555, 1000, 1e6 };
	void *st = md->open(model_machine, w, NULL, err);
	int pus[64], n, s, ret = 1;

	if (!st)
		return 0;
	for (n = 1; n <= 64 && ret == 1; n++) {
		pus[n - 1] = (n - 1) % model_machine->n_pus;
		for (s = 0; s < (int)ARRAY_SIZE(sizes) && ret == 1; s++) {
			struct model_prediction out;
			struct pandia_error e2;

			if (md->predict(st, pus, n, sizes[s], &out, &e2) < 0)
				continue;
			if (!isfinite(out.time) || !(out.time > 0))
				ret = fail_why("%d threads at size %g: %g s", n,
					       sizes[s], out.time) ? 1 : -1;
		}
	}
	md->close(st);
	return ret;
}

/*
 * W beside corun_partner on model_machine, both with the Pandia model:
 * 0 when open() refuses W (err set), else 1 when every division of the
 * PUs between the two (W on the first n, the partner on the rest), and
 * both on every PU, predicts finite times above zero for both or is
 * refused in one line; -1 (why set) when not.
 */
static int corun_sound(const struct pandia_workload *w,
		       struct pandia_error *err)
{
	const struct model_def *md = model_find("pandia");
	const struct pandia_machine *m = model_machine;
	void *a = md->open(m, w, NULL, err), *b;
	int *pus = xcalloc((size_t)m->n_pus + 1, sizeof(int)), n, i, ret = 1;
	struct pandia_error e2;

	if (!a) {
		free(pus);
		return 0;
	}
	b = md->open(m, corun_partner, NULL, &e2);
	if (!b) {
		fprintf(stderr, "fuzz: the co-run seed does not open: %s\n",
			e2.text);
		exit(2);
	}
	for (i = 0; i < m->n_pus; i++)
		pus[i] = i;
	for (n = 1; n <= m->n_pus && ret == 1; n++) {
		struct model_corun_part parts[2] = {
			{ a, pus, n < m->n_pus ? n : m->n_pus },
			{ b, n < m->n_pus ? pus + n : pus,
			  n < m->n_pus ? m->n_pus - n : m->n_pus }
		};
		struct model_prediction out[2];

		memset(&e2, 0, sizeof(e2));
		if (md->corun(parts, 2, out, &e2) < 0) {
			if (!e2.text[0] || strchr(e2.text, '\n'))
				ret = fail_why("co-run error not one line: "
					       "'%s'", e2.text) ? 1 : -2;
			continue;
		}
		for (i = 0; i < 2 && ret == 1; i++)
			if (!isfinite(out[i].time) || !(out[i].time > 0))
				ret = fail_why("co-run of %d and %d threads: "
					       "workload %d %g s", parts[0].n,
					       parts[1].n, i + 1, out[i].time) ?
					1 : -1;
	}
	md->close(b);
	md->close(a);
	free(pus);
	return ret;
}

static int try_input(enum kind k, const char *text, const char *name)
{
	struct pandia_error err;
	json_t *doc = json_loads(text, 0, NULL);
	int ret = -2;

	memset(&err, 0, sizeof(err));
	why[0] = '\0';
	switch (k) {
	case K_MACHINE: {
		struct pandia_machine *m = machine_parse(text, name, &err);
		char *s1, *s2 = NULL;
		struct pandia_machine *m2;

		if (!m)
			break;
		ret = machine_ok(m) && machine_units(doc) ? 1 : -1;
		s1 = machine_to_string(m);
		m2 = machine_parse(s1, "again", &err);
		if (m2)
			s2 = machine_to_string(m2);
		if (ret == 1 && (!s2 || strcmp(s1, s2)))
			ret = -1, fail_why("written again, it %s",
					   s2 ? "reads back differently" :
					   err.text);
		free(s1);
		free(s2);
		machine_free(m2);
		machine_free(m);
		goto out;
	}
	case K_WORKLOAD: {
		struct pandia_workload *w = workload_parse(text, name, &err);
		struct pandia_workload *w2;
		char *s1;

		if (!w)
			break;
		ret = workload_ok(w) ? 1 : -1;
		s1 = workload_to_string(w);
		w2 = workload_parse(s1, "again", &err);
		if (ret == 1 && !w2)
			ret = -1, fail_why("written again: %s", err.text);
		free(s1);
		workload_free(w2);
		workload_free(w);
		goto out;
	}
	case K_ASSUME: {
		struct pandia_machine *m = machine_new();
		FILE *f = fopen(tmpfile_path, "w");

		if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
			perror("fuzz: cannot write the temporary file");
			exit(2);
		}
		if (topology_load(m, "pack:2 l3:1 core:4 l2:1 l1:1 pu:2",
				  &err) < 0) {
			fprintf(stderr, "fuzz: %s\n", err.text);
			exit(2);
		}
		m->origin = xstrdup("topology");
		if (assume_apply(m, tmpfile_path, &err) < 0) {
			machine_free(m);
			break;
		}
		ret = machine_check(m, &err) == 0 && machine_ok(m) ? 1 : -1;
		if (!why[0] && ret < 0)
			fail_why("machine_check: %s", err.text);
		machine_free(m);
		goto out;
	}
	case K_RUNS: {
		struct pandia_scaling *s = scaling_parse(text, name, &err);

		if (!s)
			break;
		ret = runs_ok(s) ? 1 : -1;
		scaling_free(s);
		goto out;
	}
	case K_BLACKBOX:
	case K_MVA:
	case K_CORUN: {
		struct pandia_workload *w = workload_parse(text, name, &err);

		if (!w)
			break;
		ret = k == K_CORUN ? corun_sound(w, &err) :
			model_sound(model_find(kind_model[k]), w, &err);
		workload_free(w);
		if (ret != 0)
			goto out;
		/* refused when opened: one line, about the model */
		ret = err.text[0] && !strchr(err.text, '\n') ? 0 : -2;
		if (ret == -2)
			fail_why("open's error not one line: '%s'", err.text);
		goto out;
	}
	default:
		break;
	}
	ret = one_line(&err) ? 0 : -2;
	if (ret == -2)
		fail_why("error not one line naming the file: '%s' '%s'",
			 err.source, err.text);
out:
	json_decref(doc);
	return ret;
}

static void keep(enum kind k, long n, const char *text, const char *what)
{
	char *p = xasprintf("%s/fuzz-%s-%ld.json", outdir, kind_names[k], n);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	fprintf(stderr, "fuzz: %s: %s (kept in %s)\n", what, why, p);
	free(p);
}

/* ---- the four wrong-but-accepted values of issue 18 ----------------- */

struct targeted {
	enum kind kind;
	const char *path;	/* where: a '.'-separated path, [i] too */
	const char *value;	/* the JSON put there */
	bool refuse;		/* false: must only load without a report */
};

static const struct targeted wrongs[] = {
	{ K_MACHINE, "links[0].unit", "[1]", true },
	{ K_MACHINE, "links[0].unit", "\"furlongs\"", true },
	{ K_MACHINE, "topology.cores[0].caches.L1", "-1", true },
	{ K_MACHINE, "topology.caches[0].cores", "[]", true },
	{ K_WORKLOAD, "model.t1", "1e-320", true },
	/* no PUs: load_machine_id sorted a NULL array (UBSan); now a
	   list that is null is refused (issue 28) */
	{ K_WORKLOAD, "machine.pus", "null", true },
	{ K_ASSUME, "core.peak_rate", "1e-320", true },
	{ K_RUNS, "runs[0].time", "1e-320", true },
};

/* The value at PATH in DOC, with its parent; NULL if it is not there. */
static json_t *walk(json_t *doc, const char *path, json_t **parent,
		    char *last, size_t lsize, size_t *index)
{
	char *copy = xstrdup(path), *tok, *save = NULL;
	json_t *v = doc;

	*parent = NULL;
	for (tok = strtok_r(copy, ".", &save); tok && v;
	     tok = strtok_r(NULL, ".", &save)) {
		char *br = strchr(tok, '[');

		if (br)
			*br = '\0';
		*parent = v;
		snprintf(last, lsize, "%s", tok);
		v = json_object_get(v, tok);
		if (br && v) {
			*parent = v;
			*index = (size_t)atol(br + 1);
			last[0] = '\0';
			v = json_array_get(v, *index);
		}
	}
	free(copy);
	return v;
}

static int targeted(enum kind k, const char *seed_text, const char *seed)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(wrongs); i++) {
		json_t *doc, *parent, *nv;
		char last[64], *text, name[96];
		size_t index = 0;
		int r;

		if (wrongs[i].kind != k)
			continue;
		doc = json_loads(seed_text, 0, NULL);
		if (!doc || !walk(doc, wrongs[i].path, &parent, last,
				  sizeof(last), &index)) {
			fprintf(stderr, "fuzz: %s has no %s\n", seed,
				wrongs[i].path);
			json_decref(doc);
			bad++;
			continue;
		}
		nv = json_loads(wrongs[i].value, JSON_DECODE_ANY, NULL);
		if (last[0])
			json_object_set_new(parent, last, nv);
		else
			json_array_set_new(parent, index, nv);
		text = json_dumps(doc, JSON_INDENT(1));
		snprintf(name, sizeof(name), "%s=%s", wrongs[i].path,
			 wrongs[i].value);
		r = try_input(k, text, name);
		if (!wrongs[i].refuse && r >= 0) {
			printf("loaded   %-8s %s = %s: %s, no report\n",
			       kind_names[k], wrongs[i].path, wrongs[i].value,
			       r ? "accepted" : "refused");
		} else if (r != 0) {
			fprintf(stderr, "fuzz: %s %s = %s: %s\n",
				kind_names[k], wrongs[i].path, wrongs[i].value,
				r > 0 ? "accepted" : why);
			bad++;
		} else {
			struct pandia_error err;

			/* show the one line it was refused with */
			memset(&err, 0, sizeof(err));
			if (k == K_MACHINE) {
				machine_free(machine_parse(text, name, &err));
			} else if (k == K_WORKLOAD) {
				workload_free(workload_parse(text, name, &err));
			} else if (k == K_RUNS) {
				scaling_free(scaling_parse(text, name, &err));
			} else {
				struct pandia_machine *m = machine_new();

				topology_load(m, "pack:1 core:2 pu:1", NULL);
				assume_apply(m, tmpfile_path, &err);
				machine_free(m);
			}
			printf("refused  %-8s %s = %s: %s\n", kind_names[k],
			       wrongs[i].path, wrongs[i].value, err.text);
		}
		free(text);
		json_decref(doc);
	}
	return bad;
}

/* model_machine from SEED's machine.file.  0, or -1 said. */
static int load_model_machine(const char *seed)
{
	json_error_t je;
	json_t *doc = json_load_file(seed, 0, &je);
	const char *path = json_string_value(json_object_get(
		json_object_get(doc, "machine"), "file"));
	struct pandia_error err;

	machine_free(model_machine);
	model_machine = path ? machine_load(path, &err) : NULL;
	if (!model_machine)
		fprintf(stderr, "fuzz: %s: %s\n", seed, path ? err.text :
			"no machine.file to open its model on");
	json_decref(doc);
	return model_machine ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct figures fig[K_COUNT];
	char *seeds[K_COUNT][8];
	int nseeds[K_COUNT] = { 0 }, c, i, bad = 0;
	long n = 1000, it;
	int fd;

	models_install();
	memset(fig, 0, sizeof(fig));
	while ((c = getopt(argc, argv, "n:s:o:")) != -1) {
		switch (c) {
		case 'n': n = atol(optarg); break;
		case 's': rng = strtoull(optarg, NULL, 0) | 1; break;
		case 'o': outdir = optarg; break;
		default:
			fprintf(stderr, "usage: fuzz [-n N] [-s SEED] [-o DIR] "
				"KIND:FILE...\n");
			return 2;
		}
	}
	snprintf(tmpfile_path, sizeof(tmpfile_path), "%s/fuzz-assume-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(tmpfile_path);
	if (fd < 0) {
		perror("fuzz: mkstemp");
		return 2;
	}
	close(fd);
	for (i = optind; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		int k;

		for (k = 0; k < K_COUNT; k++)
			if (colon && (size_t)(colon - argv[i]) ==
			    strlen(kind_names[k]) &&
			    !strncmp(argv[i], kind_names[k],
				     strlen(kind_names[k])))
				break;
		if (k == K_COUNT || nseeds[k] == 8) {
			fprintf(stderr, "fuzz: '%s' is not KIND:FILE\n",
				argv[i]);
			return 2;
		}
		seeds[k][nseeds[k]++] = colon + 1;
	}
	for (c = 0; c < K_COUNT; c++) {
		char *texts[8];
		int s;

		if (!nseeds[c])
			continue;
		if (kind_model[c] && load_model_machine(seeds[c][0]) < 0)
			return 2;
		if (c == K_CORUN) {
			struct pandia_error err;

			workload_free(corun_partner);
			corun_partner = workload_load(seeds[c][0], &err);
			if (!corun_partner) {
				fprintf(stderr, "fuzz: %s\n", err.text);
				return 2;
			}
		}
		for (s = 0; s < nseeds[c]; s++) {
			struct pandia_error err;

			texts[s] = read_file(seeds[c][s], NULL, &err);
			if (!texts[s] || try_input((enum kind)c, texts[s],
						   seeds[c][s]) != 1) {
				fprintf(stderr, "fuzz: seed %s is not a good "
					"%s input: %s%s\n", seeds[c][s],
					kind_names[c], texts[s] ? why :
					err.text, "");
				return 2;
			}
			fig[c].seeds++;
		}
		bad += targeted((enum kind)c, texts[0], seeds[c][0]);
		for (it = 0; it < n; it++) {
			size_t pick = below((size_t)nseeds[c]);
			json_t *doc = json_loads(texts[pick], 0, NULL);
			int muts = 1 + (int)below(3), m, r;
			char *text;

			for (m = 0; m < muts; m++)
				mutate_tree(doc);
			text = json_dumps(doc, JSON_INDENT(1) |
					  JSON_PRESERVE_ORDER);
			json_decref(doc);
			if (!below(8))
				mutate_bytes(&text);
			r = try_input((enum kind)c, text, "fuzzed.json");
			fig[c].inputs++;
			if (r == 1) {
				fig[c].accepted++;
			} else if (r == 0) {
				fig[c].rejected++;
			} else if (r == -1) {
				fig[c].wrong++;
				keep((enum kind)c, it, text, "wrong accepted");
			} else {
				fig[c].bad_error++;
				keep((enum kind)c, it, text, "bad error");
			}
			free(text);
		}
		for (s = 0; s < nseeds[c]; s++)
			free(texts[s]);
		printf("%-8s %ld inputs from %ld seed%s: %ld accepted (all "
		       "sound), %ld rejected with a one-line error, %ld "
		       "wrong accepted, %ld bad errors\n", kind_names[c],
		       fig[c].inputs, fig[c].seeds, fig[c].seeds == 1 ? "" :
		       "s", fig[c].accepted, fig[c].rejected,
		       fig[c].wrong, fig[c].bad_error);
		bad += fig[c].wrong + fig[c].bad_error;
	}
	unlink(tmpfile_path);
	machine_free(model_machine);
	workload_free(corun_partner);
	return bad ? 1 : 0;
}
