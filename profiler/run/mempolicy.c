/*
 * mempolicy.c - the memory policies of --membind, --interleave,
 * --localalloc and --preferred: parsed and said here (run.h), set in
 * the command's process before it execs (exec_command).
 */
#include "profiler/run/internal.h"

#include <stdio.h>
#include <string.h>

#include <numa.h>
#include <numaif.h>

int run_mempolicy_parse(struct run_mempolicy *mp, enum run_mem mode,
			const char *nodes, struct pandia_error *err)
{
	static const char *const opt[] = {
		"", "--membind", "--interleave", "--localalloc", "--preferred"
	};
	struct bitmask *bm;
	int i, n = 0;

	memset(mp, 0, sizeof(*mp));
	mp->mode = mode;
	if (mode == RUN_MEM_DEFAULT)
		return 0;
	if (numa_available() < 0)
		return perr_set(err, "%s: this kernel has no NUMA policy "
				"support (libnuma's numa_available() failed)",
				opt[mode]);
	if (mode == RUN_MEM_LOCAL)
		return 0;
	if (!nodes || !*nodes || strlen(nodes) >= sizeof(mp->nodes))
		return perr_set(err, "%s needs a list of NUMA nodes ('0', "
				"'0-1', 'all')", opt[mode]);
	bm = numa_parse_nodestring(nodes);
	if (!bm)
		return perr_set(err, "%s '%s': not NUMA nodes of this host "
				"(it has nodes 0-%d)", opt[mode], nodes,
				numa_max_node());
	for (i = 0; i < RUN_MEM_WORDS * 64 && i < (int)bm->size; i++)
		if (numa_bitmask_isbitset(bm, (unsigned)i)) {
			mp->mask[i / 64] |= 1UL << (i % 64);
			n++;
		}
	numa_bitmask_free(bm);
	if (!n)
		return perr_set(err, "%s '%s': no node", opt[mode], nodes);
	if (mode == RUN_MEM_PREFERRED && n != 1)
		return perr_set(err, "--preferred takes one node, not '%s'",
				nodes);
	snprintf(mp->nodes, sizeof(mp->nodes), "%s", nodes);
	return 0;
}

const char *run_mempolicy_text(const struct run_mempolicy *mp, char *buf,
			       size_t size)
{
	switch (mp ? mp->mode : RUN_MEM_DEFAULT) {
	case RUN_MEM_BIND:
		snprintf(buf, size, "--membind %s", mp->nodes);
		break;
	case RUN_MEM_INTERLEAVE:
		snprintf(buf, size, "--interleave %s", mp->nodes);
		break;
	case RUN_MEM_LOCAL:
		snprintf(buf, size, "--localalloc");
		break;
	case RUN_MEM_PREFERRED:
		snprintf(buf, size, "--preferred %s", mp->nodes);
		break;
	default:
		snprintf(buf, size, "%s", "");
		break;
	}
	return buf;
}

/*
 * libnuma's own messages: pandia's library code never prints, and
 * run_mempolicy_parse() says what was wrong (libnuma lets a program
 * replace these two).
 */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

/* set_mempolicy(2) of policy mp (in the child); 0 or -1 with errno */
int apply_mempolicy(const struct run_mempolicy *mp)
{
	static const int mode[] = {
		MPOL_DEFAULT, MPOL_BIND, MPOL_INTERLEAVE, MPOL_LOCAL,
		MPOL_PREFERRED
	};

	if (!mp || mp->mode == RUN_MEM_DEFAULT)
		return 0;
	if (mp->mode == RUN_MEM_LOCAL)
		return (int)set_mempolicy(MPOL_LOCAL, NULL, 0);
	return (int)set_mempolicy(mode[mp->mode], mp->mask,
				  RUN_MEM_WORDS * 64 + 1);
}
