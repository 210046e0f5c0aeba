/*
 * machine.c - the machine description in memory: level names, making
 * and freeing one, what the commands ask of it, comparing two and a
 * short summary.  Writing it as JSON is in machine_json.c, checking it
 * in machine_check.c, reading it in machine_load.c.
 */
#include "common/machine.h"

#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/util.h"

static const char *const level_names[LVL_COUNT] = {
	"L1", "L2", "L3", "dram", "interconnect"
};

const char *level_name(enum pandia_level level)
{
	return (unsigned)level < LVL_COUNT ? level_names[level] : "?";
}

int level_from_name(const char *name)
{
	int i;

	for (i = 0; i < LVL_COUNT; i++)
		if (name && !strcmp(name, level_names[i]))
			return i;
	return -1;
}

struct pandia_machine *machine_new(void)
{
	struct pandia_machine *m = xcalloc(1, sizeof(*m));

	return m;
}

void measure_release(struct pandia_measure *ms)
{
	free(ms->kernel);
	free(ms->pus);
	free(ms->unit);
	free(ms->note);
	memset(ms, 0, sizeof(*ms));
}

void machine_free(struct pandia_machine *m)
{
	int i;

	if (!m)
		return;
	free(m->host);
	free(m->cpu_model);
	free(m->kernel);
	free(m->date);
	free(m->version);
	free(m->origin);
	free(m->topology_source);
	free(m->assumptions);
	free(m->limits.allowed);
	free(m->limits.source);
	free(m->pus);
	for (i = 0; i < m->n_cores; i++)
		free(m->cores[i].pus);
	free(m->cores);
	for (i = 0; i < m->n_sockets; i++)
		free(m->sockets[i].cores);
	free(m->sockets);
	for (i = 0; i < m->n_numa; i++)
		free(m->numa[i].cores);
	free(m->numa);
	for (i = 0; i < m->n_caches; i++)
		free(m->caches[i].cores);
	free(m->caches);
	measure_release(&m->peak);
	free(m->peak_reason);
	measure_release(&m->smt);
	measure_release(&m->all_busy);
	machine_busy_free(m);
	free(m->smt_reason);
	for (i = 0; i < LVL_COUNT; i++) {
		free(m->links[i].reason);
		measure_release(&m->links[i].per_core);
		measure_release(&m->links[i].aggregate);
	}
	for (i = 0; i < m->n_xlinks; i++)
		measure_release(&m->xlinks[i].m);
	free(m->xlinks);
	for (i = 0; i < m->n_kinds; i++)
		measure_release(&m->kinds[i].m);
	free(m->kinds);
	free(m->notes);
	free(m);
}

int machine_pu_index(const struct pandia_machine *m, int os)
{
	int lo = 0, hi = m->n_pus - 1;

	/* pus[] is sorted by os_index */
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (m->pus[mid].os_index == os)
			return mid;
		if (m->pus[mid].os_index < os)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

double machine_core_slowdown(const struct pandia_machine *m, int c)
{
	double r;

	if (!m->n_kinds || c < 0 || c >= m->n_cores)
		return 1;
	r = m->kinds[m->cores[c].kind].rate;
	return r > 0 && r < m->peak_rate ? m->peak_rate / r : 1;
}

void machine_busy_free(struct pandia_machine *m)
{
	int i;

	for (i = 0; i < m->n_busy; i++)
		measure_release(&m->busy[i].m);
	free(m->busy);
	m->busy = NULL;
	m->n_busy = 0;
}

double machine_pair_bw(const struct pandia_machine *m, int a, int b)
{
	int i;

	for (i = 0; i < m->n_xlinks; i++)
		if ((m->xlinks[i].from == a && m->xlinks[i].to == b) ||
		    (m->xlinks[i].from == b && m->xlinks[i].to == a))
			return m->xlinks[i].bw;
	return m->links[LVL_INTERCONNECT].present ?
		m->links[LVL_INTERCONNECT].aggregate_bw : 0;
}

int machine_level_pus(const struct pandia_machine *m, int lvl)
{
	int i, c, n, most = 0;

	if (lvl == LVL_INTERCONNECT)
		return 0;
	if (lvl == LVL_DRAM)
		return m->n_pus;
	for (i = 0; i < m->n_caches; i++) {
		if (m->caches[i].level != lvl + 1)
			continue;
		for (c = 0, n = 0; c < m->caches[i].n_cores; c++)
			n += m->cores[m->caches[i].cores[c]].n_pus;
		if (n > most)
			most = n;
	}
	return most ? most : m->n_pus;
}

bool machine_level_fills(const struct pandia_machine *m, int lvl, double d)
{
	const struct pandia_link *lk;
	int n, c, smt = 1;

	if (lvl < 0 || lvl >= LVL_COUNT)
		return true;
	lk = &m->links[lvl];
	n = machine_level_pus(m, lvl);
	if (!lk->present || !(lk->aggregate_bw > 0) || n <= 0)
		return true;
	for (c = 0; c < m->n_cores; c++)
		if (m->cores[c].n_pus > smt)
			smt = m->cores[c].n_pus;
	if (lk->per_core_bw > 0) {
		/* no thread takes more than its core's link (the model
		   would slow it alone, where run 1 measured t1), which
		   its core's PUs share */
		if (d > lk->per_core_bw)
			d = lk->per_core_bw;
		if (smt * d > lk->per_core_bw)
			return true;
	}
	return n * d > lk->aggregate_bw;
}

double machine_link_spread(const struct pandia_link *lk)
{
	const struct pandia_measure *a = &lk->aggregate;

	return a->repetitions > 1 && a->median > 0 && a->spread > 0 ?
		a->spread / a->median : 0;
}

double machine_clock_slowdown(const struct pandia_machine *m, int s,
			      int busy)
{
	double x0 = 1, r0, x1, r1, r;
	int all, i;

	if (!(m->all_busy_rate > 0) || !(m->peak_rate > 0) || s < 0 ||
	    s >= m->n_sockets || busy < 2 ||
	    m->all_busy_rate >= m->peak_rate)
		return 1;
	all = m->sockets[s].n_cores;
	if (all < 2)
		return 1;
	if (busy > all)
		busy = all;
	r0 = m->peak_rate;
	x1 = all;
	r1 = m->all_busy_rate;
	for (i = 0; i < m->n_busy && m->busy[i].cores < all; i++) {
		if (m->busy[i].cores >= busy) {
			x1 = m->busy[i].cores;
			r1 = m->busy[i].rate;
			break;
		}
		x0 = m->busy[i].cores;
		r0 = m->busy[i].rate;
	}
	r = r0 + (r1 - r0) * (busy - x0) / (x1 - x0);
	return r > 0 && r < m->peak_rate ? m->peak_rate / r : 1;
}

int machine_fastest_kind(const struct pandia_machine *m)
{
	int i, best = 0;

	for (i = 1; i < m->n_kinds; i++) {
		const struct pandia_kind *a = &m->kinds[i];
		const struct pandia_kind *b = &m->kinds[best];
		double fa = a->freq_max > 0 ? a->freq_max : a->freq_base;
		double fb = b->freq_max > 0 ? b->freq_max : b->freq_base;

		if (a->efficiency > b->efficiency ||
		    (a->efficiency == b->efficiency && fa > fb))
			best = i;
	}
	return best;
}

int machine_smt(const struct pandia_machine *m)
{
	int i, n;

	if (!m->n_cores)
		return 0;
	n = m->cores[0].n_pus;
	for (i = 1; i < m->n_cores; i++)
		if (m->cores[i].n_pus != n)
			return 0;
	return n;
}

/* ---- comparing and printing ------------------------------------ */

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

bool machine_same_host(const struct pandia_machine *a,
		       const struct pandia_machine *b, char **why)
{
	int i;

	char s1[SHORT_BUF], s2[SHORT_BUF];

	*why = NULL;
	if (!str_eq(a->host, b->host)) {
		*why = xasprintf("host '%s' is not '%s'",
				 b->host ? shorten(b->host, s1, sizeof(s1)) :
				 "?", a->host ? shorten(a->host, s2,
							sizeof(s2)) : "?");
		return false;
	}
	if (!str_eq(a->cpu_model, b->cpu_model)) {
		*why = xasprintf("CPU '%s' is not '%s'",
				 b->cpu_model ? shorten(b->cpu_model, s1,
							sizeof(s1)) : "?",
				 a->cpu_model ? shorten(a->cpu_model, s2,
							sizeof(s2)) : "?");
		return false;
	}
	if (a->n_pus != b->n_pus) {
		*why = xasprintf("%d PUs is not %d", b->n_pus, a->n_pus);
		return false;
	}
	for (i = 0; i < a->n_pus; i++)
		if (a->pus[i].os_index != b->pus[i].os_index) {
			*why = xasprintf("PU %d is not PU %d",
					 b->pus[i].os_index,
					 a->pus[i].os_index);
			return false;
		}
	return true;
}

static const char *human_bytes(double v, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.*f %s", v < 10 && u ? 1 : 0, v, units[u]);
	return buf;
}

/* 12.34 GB/s, 512.00 kops/s: decimal prefixes for rates */
static const char *human_rate(double v, const char *unit, char *buf,
			      size_t size)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T" };
	int p = 0;

	while (v >= 1000 && p < 4) {
		v /= 1000;
		p++;
	}
	snprintf(buf, size, "%.2f %s%s", v, prefix[p], unit);
	return buf;
}

static void print_link(FILE *out, const char *name,
		       const struct pandia_link *l)
{
	char a[32], b[32];

	if (!l->present) {
		fprintf(out, "  %-13s %s\n", name,
			l->reason ? l->reason : "absent");
		return;
	}
	fprintf(out, "  %-13s per core %12s   aggregate %12s", name,
		human_rate(l->per_core_bw, "B/s", a, sizeof(a)),
		human_rate(l->aggregate_bw, "B/s", b, sizeof(b)));
	if (l->per_core.repetitions > 1)
		fprintf(out, "   (spread %.1f%%)", 100 * l->per_core.spread);
	fputc('\n', out);
}

unsigned long long machine_cache_per_core(const struct pandia_machine *m,
					  enum pandia_level level)
{
	unsigned long long most = 0, share;
	int i;

	for (i = 0; i < m->n_caches; i++) {
		const struct pandia_cache *c = &m->caches[i];

		if (c->level != (int)level + 1 || c->n_cores <= 0)
			continue;
		share = c->size / (unsigned long long)c->n_cores;
		if (share > most)
			most = share;
	}
	return most;
}

bool machine_cache_virtual(const struct pandia_machine *m,
			   enum pandia_level level)
{
	return level <= LVL_L3 &&
	       machine_cache_per_core(m, level) > MACHINE_CACHE_MADE_PER_CORE;
}

/* Whether figure A is no more than MACHINE_AT_DRAM times figure D. */
static bool at_dram(double a, double d)
{
	return a > 0 && d > 0 && a <= MACHINE_AT_DRAM * d;
}

unsigned long long machine_cache_missed(const struct pandia_machine *m,
					enum pandia_level level)
{
	const struct pandia_link *l, *d;
	int c;

	if (!machine_cache_virtual(m, level) || m->n_cores <= 0)
		return 0;
	l = &m->links[level];
	d = &m->links[LVL_DRAM];
	if (!l->present || !d->present || !(l->per_core.working_set > 0) ||
	    !at_dram(l->per_core_bw, d->per_core_bw))
		return 0;
	/*
	 * Shared: one core alone may read the level no faster than DRAM
	 * where the cores together do (an Intel guest's 480 MiB L3 for two
	 * vCPUs: 14.7 against DRAM's 14.5 GB/s per core, 38.3 against 28.6
	 * together).
	 */
	c = m->cores[0].cache[level];
	if (c >= 0 && c < m->n_caches && m->caches[c].n_cores > 1 &&
	    !at_dram(l->aggregate_bw, d->aggregate_bw))
		return 0;
	return (unsigned long long)l->per_core.working_set;
}

void machine_print_summary(const struct pandia_machine *m, FILE *out)
{
	char buf[32], *pus, s1[SHORT_BUF], s2[SHORT_BUF];
	int i, k, smt = machine_smt(m), *os;

	os = xmalloc(sizeof(*os) * (size_t)m->n_pus);
	for (i = 0; i < m->n_pus; i++)
		os[i] = m->pus[i].os_index;
	pus = cpuset_format(os, m->n_pus);
	fprintf(out, "machine %s: %s\n", m->host ? shorten(m->host, s1,
							 sizeof(s1)) : "?",
		m->cpu_model ? shorten(m->cpu_model, s2, sizeof(s2)) :
		"unknown CPU");
	fprintf(out, "  %s %s from %s\n",
		m->origin && !strcmp(m->origin, "measured") ?
		"measured" : "described",
		m->date ? m->date : "", m->topology_source ?
		m->topology_source : "?");
	fprintf(out, "  %d socket%s, %d NUMA node%s, %d core%s, %d PU%s "
		"(%s), ", m->n_sockets, m->n_sockets == 1 ? "" : "s",
		m->n_numa, m->n_numa == 1 ? "" : "s", m->n_cores,
		m->n_cores == 1 ? "" : "s", m->n_pus,
		m->n_pus == 1 ? "" : "s", pus);
	if (smt > 1)
		fprintf(out, "%d PUs per core\n", smt);
	else if (smt == 1)
		fprintf(out, "no SMT\n");
	else
		fprintf(out, "uneven PUs per core\n");
	if (m->limits.present && m->limits.cpu_quota > 0)
		fprintf(out, "  limits: PUs %s allowed, a CPU quota of %g "
			"PUs' time per second (%s)\n", m->limits.allowed,
			m->limits.cpu_quota, m->limits.source ?
			m->limits.source : "?");
	else if (m->limits.present)
		fprintf(out, "  limits: PUs %s allowed, no CPU quota\n",
			m->limits.allowed);
	for (k = 1; k <= 3; k++) {
		enum pandia_level lvl = LVL_L1 + k - 1;
		unsigned long long missed = machine_cache_missed(m, lvl);
		int count = 0, first = -1;

		for (i = 0; i < m->n_caches; i++)
			if (m->caches[i].level == k) {
				if (first < 0)
					first = i;
				count++;
			}
		if (first >= 0)
			fprintf(out, "  L%d %s x %d, shared by %d core%s%s\n",
				k, human_bytes((double)m->caches[first].size,
					       buf, sizeof(buf)), count,
				m->caches[first].n_cores,
				m->caches[first].n_cores == 1 ? "" : "s",
				machine_cache_virtual(m, lvl) ?
				": more a core than any processor has (a "
				"hypervisor's view of a socket's cache)" :
				"");
		if (first >= 0 && missed)
			fprintf(out, "    its %s array a core read at DRAM's "
				"rate: one core reaches less of it\n",
				human_bytes((double)missed, buf, sizeof(buf)));
	}
	if (m->peak_reason)
		fprintf(out, "  core rate     %s", m->peak_reason);
	else
		fprintf(out, "  core rate     %s alone",
			human_rate(m->peak_rate, "ops/s", buf, sizeof(buf)));
	if (m->all_busy_rate > 0 && m->all_busy_rate < m->peak_rate)
		fprintf(out, ", %s with its socket's cores all busy",
			human_rate(m->all_busy_rate, "ops/s", buf,
				   sizeof(buf)));
	if (m->smt_applicable)
		fprintf(out, ", %s with SMT\n",
			human_rate(m->smt_rate, "ops/s", buf, sizeof(buf)));
	else
		fprintf(out, "; SMT %s\n", m->smt_reason ?
			m->smt_reason : "not applicable");
	if (m->n_kinds) {
		fprintf(out, "  kinds of core");
		for (i = 0; i < m->n_kinds; i++)
			fprintf(out, "%s%s (efficiency %d)", i ? ", " : " ",
				human_rate(m->kinds[i].rate, "ops/s", buf,
					   sizeof(buf)),
				m->kinds[i].efficiency);
		fputc('\n', out);
	}
	for (i = 0; i < LVL_COUNT; i++)
		print_link(out, level_names[i], &m->links[i]);
	free(pus);
	free(os);
}

void machine_pair_xlinks(struct pandia_machine *m)
{
	int i, j;

	m->xlinks = xcalloc((size_t)(m->n_sockets * m->n_sockets),
			    sizeof(*m->xlinks));
	m->n_xlinks = 0;
	for (i = 0; i < m->n_sockets; i++)
		for (j = i + 1; j < m->n_sockets; j++) {
			struct pandia_xlink *x = &m->xlinks[m->n_xlinks++];

			x->from = i;
			x->to = j;
			x->bw = m->links[LVL_INTERCONNECT].aggregate_bw;
		}
}
