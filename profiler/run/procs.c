/*
 * procs.c - the command's processes that the pinning library does not
 * report: found in /proc (every process whose parent is one we know),
 * and, where the library pins, told apart from those still loading it
 * or sharing its memory: a static program, one started without it in
 * LD_PRELOAD, or one in secure-execution mode (set-user-ID) runs
 * without it (counted and named for the warning), as does a reported
 * process whose last "exec" line no start of its main thread followed,
 * or which runs a thread the library did not report and no longer
 * maps it.
 */
#include "profiler/run/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/types.h>

#include "common/elfdeps.h"
#include "common/error.h"
#include "common/util.h"

/*
 * Process PID runs a program without the library where it pins:
 * counted once, the first one named (NAME, or else its comm).
 */
static void note_bare(struct ctx *c, pid_t pid, const char *name)
{
	char path[64], *n = c->acct.bare_name;
	FILE *f;

	if (in_list(c->acct.bare, c->acct.n_bare, pid))
		return;
	c->acct.bare = xrealloc(c->acct.bare, sizeof(*c->acct.bare) *
				(size_t)(c->acct.n_bare + 1));
	c->acct.bare[c->acct.n_bare++] = pid;
	if (c->acct.n_bare > 1)
		return;
	if (name) {
		snprintf(n, sizeof(c->acct.bare_name), "%s", name);
		return;
	}
	n[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(n, sizeof(c->acct.bare_name), f))
		n[0] = '\0';
	n[strcspn(n, "\n")] = '\0';
	fclose(f);
}

/*
 * Whether process PID maps the library at SHIM (its file): loaded, or
 * sharing the memory of a process that loaded it (a vfork's child
 * before its exec, a sanitizer's leak tracer).  One that cannot be
 * read counts as mapping it: nothing is said of it.
 */
static bool maps_library(pid_t pid, const char *shim)
{
	char path[64], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, shim) != NULL;
	fclose(f);
	return found;
}

/*
 * Whether process PID was started with SHIM in its LD_PRELOAD (true
 * when its environment cannot be read: nothing is said of it then).
 */
static bool preloads(pid_t pid, const char *shim)
{
	char path[64], *env, *p;
	struct pandia_error e;
	size_t len = 0;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	env = read_file(path, &len, &e);
	if (!env || !len) {
		free(env);
		return true;
	}
	for (p = env; p < env + len; p += strlen(p) + 1)
		if (!strncmp(p, "LD_PRELOAD=", 11) && strstr(p, shim))
			found = true;
	free(env);
	return found;
}

/*
 * Whether process PID began in secure-execution mode (AT_SECURE in its
 * auxiliary vector: set-user-ID to another user, file capabilities),
 * where the loader ignores LD_PRELOAD's paths.  False when the vector
 * cannot be read (another user's process, to a runner not root).
 */
static bool secure_exec(pid_t pid)
{
	char path[64], *aux;
	struct pandia_error e;
	unsigned long *v;
	size_t len = 0, i;
	bool secure = false;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	aux = read_file(path, &len, &e);
	if (!aux)
		return false;
	v = (unsigned long *)(void *)aux;
	for (i = 0; i + 1 < len / sizeof(*v) && v[i] != AT_NULL; i += 2)
		if (v[i] == AT_SECURE)
			secure = v[i + 1] != 0;
	free(aux);
	return secure;
}

/*
 * Whether the command's process PID, which the library has not
 * reported, runs a program that will never load it: one that does not
 * map it and is static, or dynamic but started without it in
 * LD_PRELOAD, or in secure-execution mode.  A dynamic one started with
 * it is still being loaded (it reports itself once the library's
 * constructor runs).
 */
static bool runs_bare(pid_t pid, const char *shim)
{
	char exe[64];

	if (maps_library(pid, shim))
		return false;
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	return elf_is_static(exe) || !preloads(pid, shim) ||
	       secure_exec(pid);
}

/*
 * The command's processes that the pinning library does not report:
 * every running process whose parent is one we know, to the last
 * generation (a generation more each pass; the passes stop when one
 * adds none).  Where it is not loaded (--pin set or none, a static
 * command), all of them.  Where it pins, those that do not map it: a
 * static program, a set-user-ID one or one started without LD_PRELOAD,
 * which began on the set (profiler/shim/exec.c) and whose threads only
 * /proc shows;
 * one that maps it reports itself, or is no process of the command's
 * own (a sanitizer's leak tracer, cloned at exit).  Where the library
 * pins, the scan is made while an "exec" line no start has followed
 * (the exec may have started such a program), for SCAN_AFTER_SPAWN
 * after a "spawned" line, and otherwise once every SCAN_STEP: a
 * program started by an exec it cannot see (a raw system call) and
 * gone within it is not found.
 */
void add_descendants(struct ctx *c, double now)
{
	bool lib = (c->o->pin == RUN_PIN_WORKERS ||
		    c->o->pin == RUN_PIN_THREADS) && !c->pin.static_exe;
	int pass, i, n, added = 1;
	pid_t *kids;

	if (lib && !c->pin.shim)
		return;
	/* the scan reads every process's stat: where the library pins,
	   made while an exec or a spawn it saw may have started a program
	   without it, and otherwise (an exec it cannot see) once a second */
	if (lib && !c->acct.exec_pending && now >= c->acct.scan_until &&
	    now < c->acct.next_scan)
		return;
	if (lib)
		c->acct.next_scan = now + SCAN_STEP;
	for (pass = 0; pass < 16 && added; pass++) {
		n = list_children_of(c->acct.pids, c->acct.n_pids, &kids, true);
		for (i = 0, added = 0; i < n; i++) {
			if (in_list(c->acct.pids, c->acct.n_pids, kids[i]))
				continue;
			if (lib && !runs_bare(kids[i], c->pin.shim))
				continue;
			if (lib)
				note_bare(c, kids[i], NULL);
			add_pid(c, kids[i]);
			added++;
		}
		free(kids);
	}
}

/* process PID execs NAME ("-": that failed), or (NAME NULL) started */
void exec_seen(struct execs *x, int pid, const char *name)
{
	int i;

	for (i = 0; i < x->n && x->pid[i] != pid; i++)
		;
	if (i < x->n && (!name || !strcmp(name, "-"))) {
		x->pid[i] = x->pid[--x->n];
		memcpy(x->name[i], x->name[x->n], sizeof(x->name[i]));
		return;
	}
	if (!name || !strcmp(name, "-"))
		return;
	if (i == x->n) {
		x->pid = xrealloc(x->pid, sizeof(*x->pid) * (size_t)(x->n + 1));
		x->name = xrealloc(x->name, sizeof(*x->name) *
				   (size_t)(x->n + 1));
		x->pid[x->n++] = pid;
	}
	snprintf(x->name[i], sizeof(x->name[i]), "%s", name);
}

/*
 * After the run: a process that exec'd a program without the library
 * (a wrapper that execs a static one) ran it on the set
 * (profiler/shim/exec.c): its threads are no longer where the report
 * placed them, and it is counted with those the scan found.
 */
void execs_apply(struct ctx *c, struct execs *x)
{
	int i, j;

	for (i = 0; i < x->n; i++) {
		note_bare(c, x->pid[i], x->name[i]);
		for (j = 0; j < c->r->n_threads; j++)
			if (c->r->threads[j].pid == x->pid[i])
				c->r->threads[j].cpu = -1;
	}
}

/*
 * A process the library reported that now runs a thread it did not
 * report: looked at once, in case it exec'd a program without the
 * library by a call the library cannot see (fork, then a raw execve
 * system call).  A program with the library that creates a thread
 * past it (a raw clone) still maps it, and is left as it is.
 */
void check_reported(struct ctx *c)
{
	const struct run_result *r = c->r;
	int i;

	if (!c->pin.shim || c->pin.static_exe ||
	    (c->o->pin != RUN_PIN_WORKERS && c->o->pin != RUN_PIN_THREADS))
		return;
	for (i = 0; i < r->n_threads; i++) {
		const struct run_thread *t = &r->threads[i];
		pid_t pid = t->pid;

		if (t->index >= 0 || t->program ||
		    in_list(c->acct.checked, c->acct.n_checked, pid) ||
		    in_list(c->acct.bare, c->acct.n_bare, pid))
			continue;
		c->acct.checked = xrealloc(c->acct.checked,
					   sizeof(*c->acct.checked) *
					   (size_t)(c->acct.n_checked + 1));
		c->acct.checked[c->acct.n_checked++] = pid;
		if (runs_bare(pid, c->pin.shim))
			note_bare(c, pid, NULL);
	}
}

char *run_unpinned_text(int n, const char *name)
{
	return xasprintf("%d process%s of the command (%s%s) did not load "
			 "libpandia-pin.so (statically linked, set-user-ID, "
			 "or started without LD_PRELOAD): %s threads", n,
			 n == 1 ? "" : "es", name && *name ? name : "?",
			 n == 1 ? "" : " first", n == 1 ? "its" : "their");
}
