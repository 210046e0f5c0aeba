/*
 * cpuexpr.c - likwid-pin domains and expressions, hwloc locations,
 * hex masks and plain lists as OS PU lists (see cpuexpr.h).
 *
 * Everything here works on struct pandia_machine, so an expression
 * means the same on a described machine as on this host: hwloc's
 * logical order is the order of cores[] (hwloc's own, as topology.c
 * reads it) and, inside a core, of its PUs.
 */
#include "common/cpuexpr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"

struct ilist {
	int *v;
	int n, cap;
};

static void ipush(struct ilist *l, int x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, sizeof(*l->v) * (size_t)l->cap);
	}
	l->v[l->n++] = x;
}

bool cpuexpr_needs_machine(const char *expr)
{
	return expr && strchr(expr, ':');
}

/* ---- the machine's objects as sets of cores -------------------- */

enum otype { O_MACHINE, O_SOCKET, O_NUMA, O_L1, O_L2, O_L3, O_CORE, O_PU };

static const struct {
	const char *name;
	enum otype type;
} type_names[] = {
	{ "machine", O_MACHINE }, { "socket", O_SOCKET },
	{ "package", O_SOCKET }, { "pack", O_SOCKET },
	{ "numa", O_NUMA }, { "node", O_NUMA }, { "numanode", O_NUMA },
	{ "l1", O_L1 }, { "l1d", O_L1 }, { "l1cache", O_L1 },
	{ "l1dcache", O_L1 }, { "l2", O_L2 }, { "l2cache", O_L2 },
	{ "l3", O_L3 }, { "l3cache", O_L3 }, { "core", O_CORE },
	{ "pu", O_PU },
};

static int type_of(const char *s, size_t len)
{
	size_t i, k;
	char low[16];

	if (len >= sizeof(low))
		return -1;
	for (k = 0; k < len; k++)
		low[k] = (char)tolower((unsigned char)s[k]);
	low[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(type_names); i++)
		if (!strcmp(low, type_names[i].name))
			return (int)type_names[i].type;
	return -1;
}

/*
 * The objects of TYPE, in logical order, each as a flag per core
 * (objs[i * n_cores + c]); for O_PU, object i is the i-th PU in
 * logical order and *pu_of maps it to its pus[] index.  Returns the
 * count.
 */
static int objects(const struct pandia_machine *m, enum otype type,
		   char **objs, int **pu_of)
{
	int nc = m->n_cores, n = 0, i, j, k;
	char *o = NULL;

	*pu_of = NULL;
	switch (type) {
	case O_MACHINE:
		n = 1;
		o = xcalloc((size_t)nc + 1, 1);
		memset(o, 1, (size_t)nc);
		break;
	case O_SOCKET:
		n = m->n_sockets;
		o = xcalloc((size_t)(n * nc) + 1, 1);
		for (i = 0; i < nc; i++)
			o[m->cores[i].socket * nc + i] = 1;
		break;
	case O_NUMA:
		n = m->n_numa;
		o = xcalloc((size_t)(n * nc) + 1, 1);
		for (i = 0; i < n; i++)
			for (j = 0; j < m->numa[i].n_cores; j++)
				o[i * nc + m->numa[i].cores[j]] = 1;
		break;
	case O_L1:
	case O_L2:
	case O_L3:
		o = xcalloc((size_t)(m->n_caches * nc) + 1, 1);
		for (i = 0; i < m->n_caches; i++) {
			if (m->caches[i].level != (int)(type - O_L1) + 1)
				continue;
			for (j = 0; j < m->caches[i].n_cores; j++)
				o[n * nc + m->caches[i].cores[j]] = 1;
			n++;
		}
		break;
	case O_CORE:
		n = nc;
		o = xcalloc((size_t)(n * nc) + 1, 1);
		for (i = 0; i < nc; i++)
			o[i * nc + i] = 1;
		break;
	case O_PU:
		n = m->n_pus;
		o = xcalloc((size_t)(n * nc) + 1, 1);
		*pu_of = xcalloc((size_t)n + 1, sizeof(int));
		for (i = 0, k = 0; i < nc; i++)
			for (j = 0; j < m->cores[i].n_pus && k < n; j++, k++) {
				o[k * nc + i] = 1;
				(*pu_of)[k] = m->cores[i].pus[j];
			}
		n = k;
		break;
	}
	*objs = o;
	return n;
}

/* ---- likwid-pin ------------------------------------------------- */

/*
 * The PUs (pus[] indexes) of the cores flagged in CORES: physical
 * cores first (likwid-pin's numbering), or each core's PUs together
 * (COMPACT, for E: expressions).
 */
static void domain_pus(const struct pandia_machine *m, const char *cores,
		       bool compact, struct ilist *out)
{
	int i, k, smt = 0;

	for (i = 0; i < m->n_cores; i++)
		if (cores[i] && m->cores[i].n_pus > smt)
			smt = m->cores[i].n_pus;
	if (compact) {
		for (i = 0; i < m->n_cores; i++)
			for (k = 0; cores[i] && k < m->cores[i].n_pus; k++)
				ipush(out, m->cores[i].pus[k]);
		return;
	}
	for (k = 0; k < smt; k++)
		for (i = 0; i < m->n_cores; i++)
			if (cores[i] && k < m->cores[i].n_pus)
				ipush(out, m->cores[i].pus[k]);
}

/* The objects of likwid domain letter L ('N', 'S', 'M', 'C', 'D'). */
static int likwid_kind(const struct pandia_machine *m, char l, char **objs)
{
	int *unused = NULL, n, t;

	switch (toupper((unsigned char)l)) {
	case 'N':
		t = O_MACHINE;
		break;
	case 'S':
	case 'D':
		t = O_SOCKET;
		break;
	case 'M':
		t = O_NUMA;
		break;
	case 'C':
		/* the last-level cache: L3, else L2 */
		n = objects(m, O_L3, objs, &unused);
		if (n > 0)
			return n;
		free(*objs);
		t = O_L2;
		break;
	default:
		return -1;
	}
	n = objects(m, (enum otype)t, objs, &unused);
	free(unused);
	return n;
}

/*
 * Domain "S0" (or "N") at s..e into the PUs of that domain.  Returns
 * 0 or -1 with err.
 */
static int likwid_domain(const struct pandia_machine *m, const char *expr,
			 const char *s, const char *e, bool compact,
			 struct ilist *out, struct pandia_error *err)
{
	char *objs = NULL;
	int n, idx = 0, ret = -1;
	const char *p = s + 1;

	n = likwid_kind(m, *s, &objs);
	if (n < 0 || (toupper((unsigned char)*s) != 'N' && p == e)) {
		perr_set(err, "bad CPU expression '%s': '%.*s' is not a "
			 "likwid-pin domain (N, S#, M#, C# or D#); %s", expr,
			 (int)(e - s), s, CPULIST_FORMS);
		goto out;
	}
	if (p < e) {
		char *end;
		long v;

		v = strtol(p, &end, 10);
		if (!isdigit((unsigned char)*p) || end != e) {
			perr_set(err, "bad CPU expression '%s': '%.*s' is not "
				 "a likwid-pin domain; %s", expr,
				 (int)(e - s), s, CPULIST_FORMS);
			goto out;
		}
		if (v >= n) {
			perr_set(err, "CPU expression '%s': domain %.*s does "
				 "not exist (the machine has %d of that kind, "
				 "numbered from 0)", expr, (int)(e - s), s, n);
			goto out;
		}
		idx = (int)v;
	}
	if (toupper((unsigned char)*s) == 'N')
		idx = 0;
	domain_pus(m, objs + (size_t)idx * (size_t)m->n_cores, compact, out);
	ret = 0;
out:
	free(objs);
	return ret;
}

/* DOMAIN:LIST, DOMAIN: */
static int likwid_select(const struct pandia_machine *m, const char *expr,
			 const char *part, const char *colon,
			 struct ilist *out, struct pandia_error *err)
{
	struct ilist d = { NULL, 0, 0 };
	int *sel = NULL, nsel = 0, i, ret = -1;

	if (likwid_domain(m, expr, part, colon, false, &d, err) < 0)
		goto out;
	if (!colon[1]) {
		for (i = 0; i < d.n; i++)
			ipush(out, d.v[i]);
		ret = 0;
		goto out;
	}
	if (cpulist_parse(colon + 1, &sel, &nsel, NULL) < 0 ||
	    !strncmp(colon + 1, "0x", 2)) {
		perr_set(err, "bad CPU expression '%s': '%s' is not a list of "
			 "the domain's PUs (0-3, 0,2); %s", expr, colon + 1,
			 CPULIST_FORMS);
		goto out;
	}
	for (i = 0; i < nsel; i++) {
		if (sel[i] >= d.n) {
			perr_set(err, "CPU expression '%s' asks for PU%s %s "
				 "of %.*s, but %.*s has %d PU%s, %s%d",
				 expr, nsel == 1 ? "" : "s", colon + 1,
				 (int)(colon - part), part,
				 (int)(colon - part), part, d.n,
				 d.n == 1 ? "" : "s", d.n == 1 ? "" : "0-",
				 d.n - 1);
			goto out;
		}
		ipush(out, d.v[sel[i]]);
	}
	ret = 0;
out:
	free(sel);
	free(d.v);
	return ret;
}

static bool small_number(const char *s, const char *e, int *out)
{
	long v = 0;

	if (s == e || e - s > 6)
		return false;
	for (; s < e; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = (int)v;
	return true;
}

/* E:DOMAIN:COUNT[:CHUNK:STRIDE] */
static int likwid_expr(const struct pandia_machine *m, const char *expr,
		       const char *part, struct ilist *out,
		       struct pandia_error *err)
{
	const char *f[5], *fe[5], *p = part + 2;
	struct ilist d = { NULL, 0, 0 };
	int nf = 0, count, chunk = 1, stride = 1, i, ret = -1;

	while (nf < 5) {
		f[nf] = p;
		p += strcspn(p, ":");
		fe[nf++] = p;
		if (!*p)
			break;
		p++;
	}
	if (*p || (nf != 2 && nf != 4) || !small_number(f[1], fe[1], &count) ||
	    (nf == 4 && (!small_number(f[2], fe[2], &chunk) ||
			 !small_number(f[3], fe[3], &stride))) ||
	    count < 1 || chunk < 1 || stride < chunk) {
		perr_set(err, "bad CPU expression '%s': a likwid-pin "
			 "expression is E:DOMAIN:COUNT[:CHUNK:STRIDE] with "
			 "COUNT, CHUNK >= 1 and STRIDE >= CHUNK, as "
			 "E:S0:4:1:2; %s", expr, CPULIST_FORMS);
		goto out;
	}
	if (likwid_domain(m, expr, f[0], fe[0], true, &d, err) < 0)
		goto out;
	for (i = 0; i < count; i++) {
		long pos = (long)(i / chunk) * stride + i % chunk;

		if (pos >= d.n) {
			perr_set(err, "CPU expression '%s': %.*s has %d PUs; "
				 "%d in chunks of %d every %d need %ld", expr,
				 (int)(fe[0] - f[0]), f[0], d.n, count, chunk,
				 stride, pos + 1);
			goto out;
		}
		ipush(out, d.v[pos]);
	}
	ret = 0;
out:
	free(d.v);
	return ret;
}

/* KIND:scatter */
static int likwid_scatter(const struct pandia_machine *m, const char *expr,
			  const char *part, struct ilist *out,
			  struct pandia_error *err)
{
	struct ilist *d;
	char *objs = NULL;
	int n, i, k, most = 0;

	n = part[1] == ':' ? likwid_kind(m, part[0], &objs) : -1;
	if (n < 0)
		return perr_set(err, "bad CPU expression '%s': scatter takes "
				"a domain kind, as S:scatter, M:scatter, "
				"C:scatter or N:scatter; %s", expr,
				CPULIST_FORMS);
	d = xcalloc((size_t)n + 1, sizeof(*d));
	for (i = 0; i < n; i++) {
		domain_pus(m, objs + (size_t)i * (size_t)m->n_cores, false,
			   &d[i]);
		if (d[i].n > most)
			most = d[i].n;
	}
	for (k = 0; k < most; k++)
		for (i = 0; i < n; i++)
			if (k < d[i].n)
				ipush(out, d[i].v[k]);
	for (i = 0; i < n; i++)
		free(d[i].v);
	free(d);
	free(objs);
	return 0;
}

/* ---- hwloc locations -------------------------------------------- */

static void push_core(const struct pandia_machine *m, int c,
		      struct ilist *out)
{
	int k;

	for (k = 0; k < m->cores[c].n_pus; k++)
		ipush(out, m->cores[c].pus[k]);
}

/* One level "TYPE:INDEXES" of an hwloc location, being applied. */
struct hwloc_level {
	const char *expr;	/* the whole expression, for messages */
	const char *name;	/* TYPE as written */
	int name_len;
	char *idx;		/* INDEXES (owned) */
	enum otype t;
	int n;			/* objects of type t */
	char *objs;		/* their core flags, n_cores each (owned) */
	int *pu_of;		/* for O_PU, each one's pus[] index (owned) */
	char *next;		/* the objects picked, core flags (owned) */
	int *next_pu;		/* for O_PU, their pus[] indexes (owned) */
	int nnext;
};

static void hwloc_level_release(struct hwloc_level *lv)
{
	free(lv->idx);
	free(lv->objs);
	free(lv->pu_of);
	free(lv->next);
	free(lv->next_pu);
}

/*
 * The objects of lv's type inside IN (core flags; or the PU *IN_PU
 * when the level above was of PUs), numbered within it: indexes into
 * lv->objs, *ni of them (new array).
 */
static int *objects_inside(const struct pandia_machine *m,
			   const struct hwloc_level *lv, const char *in,
			   const int *in_pu, int *ni)
{
	int nc = m->n_cores, *inside = xcalloc((size_t)lv->n + 1, sizeof(int));
	int j, k;

	*ni = 0;
	for (j = 0; j < lv->n; j++) {
		const char *o = lv->objs + (size_t)j * (size_t)nc;
		bool hit = false;

		if (lv->t == O_PU && in_pu) {
			hit = lv->pu_of[j] == *in_pu;
		} else {
			/* shares a core: a PU is inside when its core is */
			for (k = 0; k < nc && !hit; k++)
				hit = o[k] && in[k];
		}
		if (hit)
			inside[(*ni)++] = j;
	}
	return inside;
}

/* Append to lv->next the objects lv->idx picks of INSIDE (NI). */
static int pick(const struct pandia_machine *m, struct hwloc_level *lv,
		const int *inside, int ni, struct pandia_error *err)
{
	int nc = m->n_cores, *sel = NULL, nsel = 0, k, ret = -1;

	if (!strcmp(lv->idx, "all")) {
		nsel = ni;
		sel = xcalloc((size_t)ni + 1, sizeof(int));
		for (k = 0; k < ni; k++)
			sel[k] = k;
	} else if (cpulist_parse(lv->idx, &sel, &nsel, err) < 0 ||
		   !strncmp(lv->idx, "0x", 2)) {
		perr_set(err, "bad CPU expression '%s': '%s' is not a list "
			 "of logical indexes (0, 0-3, 0,2 or all); %s",
			 lv->expr, lv->idx, CPULIST_FORMS);
		goto out_free;
	}
	for (k = 0; k < nsel; k++) {
		int o;

		if (sel[k] >= ni) {
			perr_set(err, "CPU expression '%s': there %s %d %.*s "
				 "object%s there, numbered from 0; not %d",
				 lv->expr, ni == 1 ? "is" : "are", ni,
				 lv->name_len, lv->name, ni == 1 ? "" : "s",
				 sel[k]);
			goto out_free;
		}
		o = inside[sel[k]];
		lv->next = xrealloc(lv->next, (size_t)(lv->nnext + 1) *
				    (size_t)nc + 1);
		memcpy(lv->next + (size_t)lv->nnext * (size_t)nc,
		       lv->objs + (size_t)o * (size_t)nc, (size_t)nc);
		lv->next_pu = xrealloc(lv->next_pu, sizeof(int) *
				       (size_t)(lv->nnext + 1));
		lv->next_pu[lv->nnext] = lv->t == O_PU ? lv->pu_of[o] : -1;
		lv->nnext++;
	}
	ret = 0;
out_free:
	free(sel);
	return ret;
}

/*
 * Apply the level at *P (up to END) to the NCUR objects in CUR (core
 * flags; CUR_PU their PUs when they are PUs): lv->next gets the
 * objects it picks.
 */
static int hwloc_level(const struct pandia_machine *m, const char *p,
		       const char *end, const char *cur, const int *cur_pu,
		       int ncur, struct hwloc_level *lv,
		       struct pandia_error *err)
{
	const char *colon = strchr(p, ':');
	int t, i, ni, *inside, ret;

	if (!colon || colon > end ||
	    (t = type_of(p, (size_t)(colon - p))) < 0)
		return perr_set(err, "bad CPU expression '%s': '%.*s' is not "
				"an hwloc location TYPE:INDEXES (TYPE pu, "
				"core, socket, numa, l1, l2, l3 or machine); "
				"%s", lv->expr, (int)(end - p), p,
				CPULIST_FORMS);
	lv->t = (enum otype)t;
	lv->name = p;
	lv->name_len = (int)(colon - p);
	lv->n = objects(m, lv->t, &lv->objs, &lv->pu_of);
	lv->idx = xasprintf("%.*s", (int)(end - colon - 1), colon + 1);
	for (i = 0; i < ncur; i++) {
		inside = objects_inside(m, lv, cur + (size_t)i *
					(size_t)m->n_cores,
					cur_pu ? &cur_pu[i] : NULL, &ni);
		ret = pick(m, lv, inside, ni, err);
		free(inside);
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The levels of PART, "TYPE:INDEXES" joined by '.', one in another. */
static int hwloc_location(const struct pandia_machine *m, const char *expr,
			  const char *part, struct ilist *out,
			  struct pandia_error *err)
{
	int nc = m->n_cores, ncur = 1, i, j, ret = -1;
	char *cur = xcalloc((size_t)nc + 1, 1);
	int *cur_pu = NULL;
	const char *p = part;

	memset(cur, 1, (size_t)nc);
	while (*p) {
		struct hwloc_level lv = { .expr = expr };
		const char *end = p + strcspn(p, ".");

		if (hwloc_level(m, p, end, cur, cur_pu, ncur, &lv, err) < 0) {
			hwloc_level_release(&lv);
			goto out;
		}
		free(cur);
		free(cur_pu);
		cur = lv.next;
		cur_pu = lv.t == O_PU ? lv.next_pu : NULL;
		ncur = lv.nnext;
		lv.next = NULL;
		if (lv.t == O_PU)
			lv.next_pu = NULL;
		hwloc_level_release(&lv);
		p = *end ? end + 1 : end;
	}
	for (i = 0; i < ncur; i++) {
		if (cur_pu) {
			ipush(out, cur_pu[i]);
			continue;
		}
		for (j = 0; j < nc; j++)
			if (cur[(size_t)i * (size_t)nc + j])
				push_core(m, j, out);
	}
	ret = 0;
out:
	free(cur);
	free(cur_pu);
	return ret;
}

/* ---- the whole expression --------------------------------------- */

static int one_part(const struct pandia_machine *m, const char *expr,
		    const char *part, struct ilist *out,
		    struct pandia_error *err)
{
	const char *colon = strchr(part, ':');
	size_t head = colon ? (size_t)(colon - part) : 0;

	if (!strncmp(part, "L:", 2)) {
		/* likwid-pin's logical numbering: ours anyway */
		part += 2;
		colon = strchr(part, ':');
		head = colon ? (size_t)(colon - part) : 0;
	}
	if (colon && type_of(part, head) >= 0)
		return hwloc_location(m, expr, part, out, err);
	if (!strncmp(part, "E:", 2))
		return likwid_expr(m, expr, part, out, err);
	if (colon && !strcmp(colon, ":scatter"))
		return likwid_scatter(m, expr, part, out, err);
	if (colon)
		return likwid_select(m, expr, part, colon, out, err);
	return perr_set(err, "bad CPU expression '%s': '%s' is a plain "
			"list inside an expression; %s", expr, part,
			CPULIST_FORMS);
}

/* A plain list or mask; its error names the accepted forms. */
static int plain(const char *list, int **out, int *n,
		 struct pandia_error *err)
{
	struct pandia_error e;

	if (cpulist_parse(list, out, n, &e) == 0)
		return 0;
	return perr_set(err, "%s; %s", e.text, CPULIST_FORMS);
}

int cpuexpr_parse(const struct pandia_machine *m, const char *expr,
		  int **out, int *n, struct pandia_error *err)
{
	struct ilist l = { NULL, 0, 0 };
	char *copy, *part, *save = NULL;
	int i, ret = -1;

	*out = NULL;
	*n = 0;
	if (!cpuexpr_needs_machine(expr))
		return plain(expr, out, n, err);
	if (!m)
		return perr_set(err, "CPU expression '%s' needs a machine "
				"description", expr);
	copy = xstrdup(expr);
	if (copy[0] == '@' || copy[strlen(copy) - 1] == '@' ||
	    strstr(copy, "@@")) {
		perr_set(err, "bad CPU expression '%s': an empty part "
			 "between '@'; %s", expr, CPULIST_FORMS);
		goto out;
	}
	for (part = strtok_r(copy, "@", &save); part;
	     part = strtok_r(NULL, "@", &save)) {
		if (!strchr(part, ':')) {
			int *v = NULL, nv = 0;

			/* OS numbers beside domains: likwid-pin's too */
			if (plain(part, &v, &nv, err) < 0)
				goto out;
			for (i = 0; i < nv; i++) {
				if (machine_pu_index(m, v[i]) < 0) {
					perr_set(err, "CPU expression '%s': PU "
						 "%d is not in the machine",
						 expr, v[i]);
					free(v);
					goto out;
				}
				ipush(&l, machine_pu_index(m, v[i]));
			}
			free(v);
			continue;
		}
		if (one_part(m, expr, part, &l, err) < 0)
			goto out;
	}
	if (!l.n) {
		perr_set(err, "CPU expression '%s' names no PU", expr);
		goto out;
	}
	/* pus[] indexes to OS numbers, never logical ones */
	for (i = 0; i < l.n; i++)
		l.v[i] = m->pus[l.v[i]].os_index;
	*out = l.v;
	*n = l.n;
	l.v = NULL;
	ret = 0;
out:
	free(l.v);
	free(copy);
	return ret;
}
