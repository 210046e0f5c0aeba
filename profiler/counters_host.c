/*
 * counters_host.c - can perf count here?  The facts that decide it
 * (perf_event_paranoid, CAP_PERFMON and CAP_SYS_ADMIN, seccomp, a core
 * PMU, test events opened), why perf is refused, what to do about it,
 * and the --counters probe alternative at the end of that advice.
 *
 * Only the perfmon headers are included for perf_event_attr: they carry
 * their own copy of the kernel's perf_event.h, which clashes with
 * <linux/perf_event.h>.
 */
#include "profiler/counters.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/util.h"

#define PARANOID_UNKNOWN	(-100)
#define CAP_SYS_ADMIN_BIT	21
#define CAP_PERFMON_BIT		38
#define PROBE_ADVICE		"use --counters probe, which needs no PMU"

static int try_open(unsigned type, unsigned long long config,
		    bool exclude_kernel)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = 1;
	fd = (int)perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

/* The number (in BASE) after "KEY:" in /proc/self/status, or false. */
static bool status_field(const char *text, const char *key, int base,
			 unsigned long long *out)
{
	size_t len = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':') {
			char *end;

			errno = 0;
			*out = strtoull(p + len + 1, &end, base);
			return !errno && end != p + len + 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* Whether the kernel lists a core PMU (cpu, cpu_core, armv8_...). */
static bool sysfs_cpu_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, "cpu") ||
		    !strncmp(de->d_name, "cpu_", 4) ||
		    !strncmp(de->d_name, "armv", 4)) {
			found = true;
			break;
		}
	}
	closedir(d);
	return found;
}

void counters_host_probe(struct counters_host *h)
{
	unsigned long long v;
	char *text;
	int p;

	memset(h, 0, sizeof(*h));
	h->paranoid = PARANOID_UNKNOWN;
	h->seccomp = -1;
	text = read_file("/proc/sys/kernel/perf_event_paranoid", NULL, NULL);
	if (text) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = '\0';
		if (parse_int(text, &p))
			h->paranoid = p;
		free(text);
	}
	text = read_file("/proc/self/status", NULL, NULL);
	if (text) {
		if (status_field(text, "CapEff", 16, &v)) {
			h->cap_sys_admin = v >> CAP_SYS_ADMIN_BIT & 1;
			h->cap_perfmon = v >> CAP_PERFMON_BIT & 1;
		}
		if (status_field(text, "Seccomp", 10, &v))
			h->seccomp = (int)v;
		free(text);
	}
	h->cpu_pmu = sysfs_cpu_pmu();
	h->sw_errno = try_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
			       true);
	h->hw_errno = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
			       true);
	h->hw_kernel_errno = h->hw_errno ? h->hw_errno :
		try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false);
}

static bool refused(int e)
{
	return e == EACCES || e == EPERM;
}

static bool no_such_event(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == EINVAL;
}

bool counters_host_usable(const struct counters_host *h, bool *kernel,
			  char **why)
{
	bool caps = h->cap_perfmon || h->cap_sys_admin;
	int e = h->sw_errno ? h->sw_errno : h->hw_errno;
	char paranoid[32];

	*why = NULL;
	*kernel = false;
	if (!h->sw_errno && !h->hw_errno) {
		*kernel = !h->hw_kernel_errno;
		return true;
	}
	if (h->paranoid == PARANOID_UNKNOWN)
		snprintf(paranoid, sizeof(paranoid), "unreadable");
	else
		snprintf(paranoid, sizeof(paranoid), "%d", h->paranoid);

	/*
	 * The kernel refuses with EACCES (perf_event_paranoid, security
	 * modules); container runtimes' seccomp profiles with EPERM or
	 * ENOSYS.
	 */
	if (h->seccomp == 2 && (e == ENOSYS || e == EPERM ||
				(e == EACCES && (caps || h->paranoid <= 2)))) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s): a seccomp filter blocks it "
				 "(Seccomp: 2 in /proc/self/status), as "
				 "container runtimes do by default; allow "
				 "perf_event_open in the container's seccomp "
				 "profile or grant it CAP_PERFMON, or "
				 PROBE_ADVICE, strerror(e));
	} else if (e == ENOSYS) {
		*why = xasprintf("perf counters unavailable: this kernel has "
				 "no perf events (perf_event_open: %s); "
				 PROBE_ADVICE, strerror(e));
	} else if (refused(e) && !caps && h->paranoid >= 2) {
		/*
		 * pandia counts its own children, user mode at least:
		 * that needs perf_event_paranoid 2 or lower; 1 or lower
		 * also counts kernel mode (page faults, system calls).
		 */
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s): /proc/sys/kernel/"
				 "perf_event_paranoid is %s and pandia has "
				 "neither CAP_PERFMON nor CAP_SYS_ADMIN; set "
				 "/proc/sys/kernel/perf_event_paranoid to 1 "
				 "or lower (sysctl kernel.perf_event_paranoid"
				 "=1), or grant CAP_PERFMON (setcap "
				 "cap_perfmon+ep on the pandia binary), or "
				 PROBE_ADVICE, strerror(e), paranoid);
	} else if (refused(e)) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "refused (%s) although perf_event_paranoid "
				 "is %s%s: a security module (SELinux, "
				 "AppArmor) or the container runtime forbids "
				 "it; allow perf_event_open for pandia, or "
				 PROBE_ADVICE, strerror(e), paranoid,
				 caps ? " and pandia has CAP_PERFMON or "
				 "CAP_SYS_ADMIN" : "");
	} else if (h->sw_errno) {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "fails even for a software event (%s); "
				 PROBE_ADVICE, strerror(e));
	} else if (no_such_event(e) && !h->cpu_pmu) {
		*why = xasprintf("perf counters unavailable: hardware events "
				 "not supported (perf_event_open: %s): no PMU "
				 "is exposed to this machine, as in most VMs "
				 "and containers (no cpu PMU in "
				 "/sys/bus/event_source/devices); enable a "
				 "virtual PMU for the VM (QEMU/KVM: -cpu "
				 "host,pmu=on) or " PROBE_ADVICE,
				 strerror(e));
	} else if (no_such_event(e)) {
		*why = xasprintf("perf counters unavailable: hardware events "
				 "not supported (perf_event_open: %s): the "
				 "kernel lists a cpu PMU but it does not count "
				 "instructions, as with some virtual PMUs; "
				 PROBE_ADVICE, strerror(e));
	} else {
		*why = xasprintf("perf counters unavailable: perf_event_open "
				 "failed for the instructions event (%s); "
				 PROBE_ADVICE, strerror(e));
	}
	return false;
}

void counters_drop_probe_advice(char *why)
{
	char *p = strstr(why, "use --counters probe");
	size_t n;

	if (!p)
		return;
	*p = '\0';
	/* "..., or " and "...; " go too: the sentence ends before them */
	for (n = strlen(why); n > 0 && strchr(" ,;", why[n - 1]); n--)
		why[n - 1] = '\0';
	if (n > 3 && !strcmp(why + n - 3, " or"))
		why[n -= 3] = '\0';
	for (; n > 0 && strchr(" ,;", why[n - 1]); n--)
		why[n - 1] = '\0';
	why[strcspn(why, "\n")] = '\0';
}

bool counters_perf_available(bool *kernel, char **why)
{
	struct counters_host h;

	counters_host_probe(&h);
	return counters_host_usable(&h, kernel, why);
}
