/*
 * numamaps.c - where a workload's pages are, from /proc/PID/numa_maps
 * (profiler/numamaps.h, docs/profiling.md "Where the memory is").
 */
#include "profiler/numamaps.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static const char *const kind_names[NM_KINDS] = {
	"local", "spread", "interleave", "node"
};

const char *nm_kind_name(enum nm_kind k)
{
	return k >= 0 && k < NM_KINDS ? kind_names[k] : "?";
}

/* The policy word ("interleave=static:0-1", "prefer (many):0"). */
static int policy_of(const char *w, size_t len, enum nm_policy *p)
{
	static const struct {
		const char *name;
		enum nm_policy p;
	} names[] = {
		{ "default", NM_POL_DEFAULT },
		{ "local", NM_POL_DEFAULT },
		{ "bind", NM_POL_BIND },
		{ "prefer", NM_POL_PREFER },
		{ "preferred", NM_POL_PREFER },
		{ "interleave", NM_POL_INTERLEAVE },
		{ "weighted", NM_POL_INTERLEAVE },
	};
	size_t i, n = strcspn(w, ":= (\t\n");

	if (n > len)
		n = len;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == n &&
		    !strncmp(w, names[i].name, n)) {
			*p = names[i].p;
			return 0;
		}
	return -1;
}

/* One line into *mp; 1 a mapping, 0 not one, -1 unreadable. */
static int parse_line(char *line, struct nm_map *mp)
{
	unsigned long kb = 4;
	char *p = line, *end, *tok, *save;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#')
		return 0;
	memset(mp, 0, sizeof(*mp));
	mp->start = strtoul(p, &end, 16);
	if (end == p || (*end != ' ' && *end != '\t'))
		return -1;
	p = end + strspn(end, " \t");
	/* "prefer (many):0-1" has a blank inside the policy */
	if (policy_of(p, strlen(p), &mp->policy) < 0)
		return -1;
	if (!strncmp(p, "prefer (many)", 13) ||
	    !strncmp(p, "weighted interleave", 19))
		p = strchr(p, ' ') + 1;
	p += strcspn(p, " \t");
	for (tok = strtok_r(p, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(tok, "anon=", 5)) {
			mp->anon = true;
		} else if (!strncmp(tok, "kernelpagesize_kB=", 18)) {
			kb = strtoul(tok + 18, NULL, 10);
		} else if (tok[0] == 'N' && tok[1] >= '0' && tok[1] <= '9') {
			long node = strtol(tok + 1, &end, 10);
			double pages;

			if (*end != '=')
				continue;
			pages = strtod(end + 1, NULL);
			if (node >= 0 && node < NM_MAX_NODES && pages > 0)
				mp->on[node] += pages;
		}
	}
	for (int k = 0; k < NM_MAX_NODES; k++) {
		mp->on[k] *= (double)kb * 1024;
		mp->bytes += mp->on[k];
	}
	return 1;
}

int numamaps_parse(const char *text, struct nm_map **maps, int *n,
		   struct pandia_error *err)
{
	char *copy = xstrdup(text ? text : ""), *line, *save;
	int cap = 0, lineno = 0, ret = -1;

	*maps = NULL;
	*n = 0;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct nm_map mp;
		int rc;

		lineno++;
		rc = parse_line(line, &mp);
		if (rc < 0) {
			perr_set(err, "numa_maps line %d: not a mapping "
				 "(address, policy, N<node>=<pages>...): "
				 "'%.60s'", lineno, line);
			free(*maps);
			*maps = NULL;
			*n = 0;
			goto out;
		}
		if (!rc)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*maps = xrealloc(*maps, sizeof(**maps) * (size_t)cap);
		}
		(*maps)[(*n)++] = mp;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

int numamaps_classify(const struct nm_map *maps, int n, const bool *in_use,
		      struct nm_found *out, struct pandia_error *err)
{
	double one[NM_MAX_NODES] = { 0 }, ones = 0, top = 0;
	int i, k, used = 0, best = -1;

	memset(out, 0, sizeof(*out));
	out->node = -1;
	for (k = 0; k < NM_MAX_NODES; k++)
		used += in_use[k];
	for (i = 0; i < n; i++) {
		const struct nm_map *mp = &maps[i];
		double most = 0;
		int at = -1;

		if (!mp->anon || !(mp->bytes > 0))
			continue;
		out->bytes += mp->bytes;
		for (k = 0; k < NM_MAX_NODES; k++)
			if (mp->on[k] > most) {
				most = mp->on[k];
				at = k;
			}
		if (mp->policy == NM_POL_INTERLEAVE) {
			out->share[NM_INTERLEAVE] += mp->bytes;
		} else if (mp->policy != NM_POL_DEFAULT ||
			   most >= NM_ONE_NODE * mp->bytes || used < 2) {
			one[at] += mp->bytes;
			ones += mp->bytes;
		} else {
			out->share[NM_SPREAD] += mp->bytes;
		}
	}
	if (!(out->bytes > 0))
		return perr_set(err, "numa_maps shows no anonymous page");
	/* one-node mappings: one node's, or each thread's own */
	for (k = 0; k < NM_MAX_NODES; k++)
		if (one[k] > top) {
			top = one[k];
			best = k;
		}
	if (ones > 0 && top >= NM_DOMINANT * ones) {
		out->share[NM_NODE] = ones;
		out->node = best;
	} else {
		out->share[NM_LOCAL] = ones;
	}
	out->kind = NM_LOCAL;
	for (k = 0; k < NM_KINDS; k++) {
		out->share[k] /= out->bytes;
		if (out->share[k] > out->share[out->kind])
			out->kind = k;
	}
	out->mixed = out->share[out->kind] < NM_DOMINANT;
	return 0;
}
