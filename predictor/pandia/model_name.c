/*
 * model_name.c - names for people: resource kinds, resources and the
 * placement's bottleneck.
 */
#include "predictor/pandia/model.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/cpulist.h"
#include "predictor/pandia/model_internal.h"

static const char *const kind_names[RK_COUNT] = {
	"instructions", "PU time", "L1 link", "L2 link", "L3 link",
	"L2 aggregate", "L3 aggregate", "DRAM link", "DRAM",
	"interconnect link",
	"interconnect", "cpu quota",
};

const char *res_kind_name(int kind)
{
	return kind >= 0 && kind < RK_COUNT ? kind_names[kind] : "?";
}

static int core_name(const struct pandia_machine *m, int core, char *buf,
		     int size)
{
	const struct pandia_core *co = &m->cores[core];
	int n = snprintf(buf, (size_t)size, "core{"), i;

	for (i = 0; i < co->n_pus && n < size; i++)
		n += snprintf(buf + n, (size_t)(size - n), "%s%d", i ? "," : "",
			      m->pus[co->pus[i]].os_index);
	if (n < size)
		n += snprintf(buf + n, (size_t)(size - n), "}");
	return n;
}

const char *model_res_name(const struct model *md, int r, char *buf,
			   int size)
{
	const struct pandia_machine *m = md->sp->m;
	const struct mres *x = &md->res[r];
	char where[96];

	switch (x->kind) {
	case RK_PU:
		snprintf(where, sizeof(where), "PU %d", m->pus[x->a].os_index);
		break;
	case RK_L2_AGG:
	case RK_L3_AGG:
		if (x->a >= 0 && m->caches[x->a].n_cores > 0) {
			/* the instance by the PUs that share it */
			const struct pandia_cache *ca = &m->caches[x->a];
			int *os = NULL, n = 0, i, j;
			char *set;

			for (i = 0; i < ca->n_cores; i++) {
				const struct pandia_core *co =
					&m->cores[ca->cores[i]];

				os = xrealloc(os, sizeof(*os) *
					      (size_t)(n + co->n_pus));
				for (j = 0; j < co->n_pus; j++)
					os[n++] = m->pus[co->pus[j]].os_index;
			}
			set = cpuset_format(os, n);
			snprintf(where, sizeof(where), "shared by PU%s %s",
				 n == 1 ? "" : "s", set);
			free(set);
			free(os);
		} else {
			snprintf(where, sizeof(where), "of socket %d",
				 m->sockets[x->b].os_index);
		}
		break;
	case RK_NODE:
		if (x->a >= 0)
			snprintf(where, sizeof(where), "node %d",
				 m->numa[x->a].os_index);
		else if (x->b >= 0)
			snprintf(where, sizeof(where), "of socket %d",
				 m->sockets[x->b].os_index);
		else
			snprintf(where, sizeof(where), "of the machine");
		break;
	case RK_QUOTA:
		snprintf(where, sizeof(where), "of %g PUs", md->quota);
		break;
	case RK_PAIR:
		if (x->b >= 0)
			snprintf(where, sizeof(where), "sockets %d-%d",
				 m->sockets[x->a].os_index,
				 m->sockets[x->b].os_index);
		else
			snprintf(where, sizeof(where), "socket %d to "
				 "memory-only nodes",
				 m->sockets[x->a].os_index);
		break;
	default:
		core_name(m, x->a, where, (int)sizeof(where));
		break;
	}
	snprintf(buf, (size_t)size, "%s %s", res_kind_name(x->kind), where);
	return buf;
}

int model_bottleneck_code(const struct model *md)
{
	int c = md->slowest;

	if (!md->n_classes)
		return BN_NONE;
	if (md->fast && md->rawmax[c] > 1 + 1e-12 && md->fast_kind >= 0)
		return md->fast_kind;
	if (md->rawmax[c] > 1 + 1e-12 && md->bott[c] >= 0)
		return md->res[md->bott[c]].kind;
	if (md->sres[c] > md->cls[c].slow * (1 + 1e-12))
		return BN_CORE_SHARING;
	if (md->cls[c].slow > md->cls[c].clock * (1 + 1e-12))
		return BN_SLOW_KIND;
	if (md->cls[c].clock > 1 + 1e-12)
		return BN_CLOCK;
	if (md->comm[c] > 1e-12)
		return BN_INTER_SOCKET;
	return BN_NONE;
}

const char *bottleneck_name(int code)
{
	if (code >= 0 && code < RK_COUNT)
		return res_kind_name(code);
	switch (code) {
	case BN_CORE_SHARING:
		return "core sharing";
	case BN_INTER_SOCKET:
		return "inter-socket";
	case BN_SLOW_KIND:
		return "slower core kind";
	case BN_CLOCK:
		return "clock, cores busy";
	default:
		return "-";
	}
}

const char *model_bottleneck(const struct model *md)
{
	return bottleneck_name(model_bottleneck_code(md));
}
