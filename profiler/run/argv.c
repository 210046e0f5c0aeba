/*
 * argv.c - what the command is given: its argv (placeholders filled
 * in, or a runner template through /bin/sh), its environment (ours,
 * with the runner's variables and the pinning library's, protocol.h),
 * the library's files, and the library itself (run_find_shim).
 */
#include "profiler/run/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cpulist.h"
#include "common/report.h"
#include "common/shellword.h"
#include "common/util.h"

extern char **environ;

char *run_find_shim(const char *dir)
{
	char exe[4096], *cand = NULL, *abs = NULL;
	const char *env = getenv(RUN_PIN_LIB_ENV);
	ssize_t n;

	if (env && *env)
		return realpath(env, NULL);
	if (!dir) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return NULL;
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		dir = exe;
	}
	cand = xasprintf("%s/libpandia-pin.so", dir);
	abs = realpath(cand, NULL);
	free(cand);
	if (abs)
		return abs;
	cand = xasprintf("%s/../lib/pandia/libpandia-pin.so", dir);
	abs = realpath(cand, NULL);
	free(cand);
	return abs;
}

static bool overridden(const char *entry, const char *const *names)
{
	size_t n;

	for (; *names; names++) {
		n = strlen(*names);
		if (!strncmp(entry, *names, n) && entry[n] == '=')
			return true;
	}
	return false;
}

static void push_env(char ***env, int *n, char *entry)
{
	*env = xrealloc(*env, sizeof(**env) * (size_t)(*n + 2));
	(*env)[(*n)++] = entry;
	(*env)[*n] = NULL;
}

static void set_env_slot(struct ctx *c, int slot, const char *name,
			 const char *value)
{
	if (slot < 0)
		return;
	free(c->envp[slot]);
	c->envp[slot] = xasprintf("%s=%s", name, value ? value : "");
}

/* what the shim is told for this run: helpers, or every thread free */
void set_pin_env(struct ctx *c)
{
	const struct run_opts *o = c->o;
	char *skip = NULL;

	if (c->pin.env_skip < 0)
		return;
	if (o->n_skip >= 0)
		skip = cpulist_format(o->skip, o->n_skip);
	set_env_slot(c, c->pin.env_skip, RUN_PIN_SKIP_ENV, skip);
	set_env_slot(c, c->pin.env_float, RUN_PIN_FLOAT_ENV,
		     c->pin.discover ? "1" : "");
	c->pin.pinned_helpers = !c->pin.discover && o->pin == RUN_PIN_WORKERS &&
			    o->n_skip < 0 && c->r->helpers;
	set_env_slot(c, c->pin.env_helpers, RUN_PIN_HELPERS_ENV,
		     c->pin.pinned_helpers ? c->r->helpers : "");
	free(skip);
}

/* the command's environment: ours, with the runner's variables */
void build_env(struct ctx *c, const char *cpus, const char *shim)
{
	static const char *const names[] = {
		"OMP_NUM_THREADS", "PANDIA_THREADS", "PANDIA_CPUS",
		"OMP_PLACES", "OMP_PROC_BIND", RUN_PIN_CPUS_ENV,
		RUN_PIN_REPORT_ENV, RUN_PIN_SKIP_ENV, RUN_PIN_HELPERS_ENV,
		RUN_PIN_FLOAT_ENV, RUN_PIN_SHARED_ENV, "LD_PRELOAD",
		"ASAN_OPTIONS", NULL,
	};
	const char *asan = getenv("ASAN_OPTIONS");
	const struct run_opts *o = c->o;
	const char *preload = getenv("LD_PRELOAD");
	char **env = NULL;
	int n = 0, i;
	size_t k;

	for (i = 0; environ[i]; i++) {
		bool skip = overridden(environ[i], names);

		for (k = 0; o->env && o->env[k] && !skip; k++) {
			size_t len = strcspn(o->env[k], "=");

			skip = !strncmp(environ[i], o->env[k], len) &&
			       environ[i][len] == '=';
		}
		if (!skip)
			push_env(&env, &n, xstrdup(environ[i]));
	}
	push_env(&env, &n, xasprintf("OMP_NUM_THREADS=%d", o->n_cpus));
	push_env(&env, &n, xasprintf("PANDIA_THREADS=%d", o->n_cpus));
	push_env(&env, &n, xasprintf("PANDIA_CPUS=%s", cpus));
	c->pin.env_skip = c->pin.env_helpers = c->pin.env_float = -1;
	if (c->local && (o->pin == RUN_PIN_WORKERS ||
			 o->pin == RUN_PIN_THREADS)) {
		char *places = xstrdup("");

		for (i = 0; i < o->n_cpus; i++) {
			char *t = xasprintf("%s%s{%d}", places, i ? "," : "",
					    o->cpus[i]);

			free(places);
			places = t;
		}
		push_env(&env, &n, xasprintf("OMP_PLACES=%s", places));
		free(places);
		push_env(&env, &n, xstrdup("OMP_PROC_BIND=close"));
		push_env(&env, &n, xasprintf("%s=%s", RUN_PIN_CPUS_ENV,
					     cpus));
		push_env(&env, &n, xasprintf("%s=%s", RUN_PIN_REPORT_ENV,
					     c->pin.report_path));
		push_env(&env, &n, xasprintf("%s=%s", RUN_PIN_SHARED_ENV,
					     c->pin.shared_path));
		c->pin.env_skip = n;
		push_env(&env, &n, xstrdup(RUN_PIN_SKIP_ENV "="));
		c->pin.env_helpers = n;
		push_env(&env, &n, xstrdup(RUN_PIN_HELPERS_ENV "="));
		c->pin.env_float = n;
		push_env(&env, &n, xstrdup(RUN_PIN_FLOAT_ENV "="));
		push_env(&env, &n, xasprintf("LD_PRELOAD=%s%s%s", shim,
					     preload && *preload ? " " : "",
					     preload ? preload : ""));
		/*
		 * A program built with AddressSanitizer refuses to start
		 * when a preloaded library comes before its runtime: the
		 * shim interposes only pthread_create and friends, which
		 * then reach ASan's own, so the order is harmless.
		 */
		push_env(&env, &n, xasprintf("ASAN_OPTIONS=%s%s"
					     "verify_asan_link_order=0",
					     asan ? asan : "",
					     asan && *asan ? ":" : ""));
	} else {
		if (preload)
			push_env(&env, &n, xasprintf("LD_PRELOAD=%s",
						     preload));
		if (asan)
			push_env(&env, &n, xasprintf("ASAN_OPTIONS=%s",
						     asan));
	}
	for (k = 0; o->env && o->env[k]; k++)
		push_env(&env, &n, xstrdup(o->env[k]));
	c->envp = env;
}

void free_strv(char **v)
{
	int i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Whether S holds text that looks like a placeholder and names none,
   said as WHOSE ("the command's") when it does. */
static bool said_unknown(const char *whose, const char *s)
{
	const char *p;
	size_t n;

	if (!s || !(p = shell_unknown_placeholder(s, &n)))
		return false;
	report_warning("%s '%.*s' is not a placeholder (they are %s): it is "
		       "left as written", whose, (int)n, p,
		       shell_placeholders());
	return true;
}

/*
 * A text of the runner's template or of the command's words that looks
 * like a placeholder and names none ("{cpu}"), left as written: said
 * once per pandia, as it is most often a misspelt one.
 */
static void say_unknown_placeholder(const struct run_opts *o,
				    char *const *argv)
{
	static bool told;
	int i;

	if (told)
		return;
	told = said_unknown("the --runner template's", o->runner);
	for (i = 0; !told && argv && argv[i]; i++)
		told = said_unknown("the command's", argv[i]);
}

/* the variables and the argv to execute */
void build_argv(struct ctx *c, char *const *argv, const char *cpus)
{
	const struct run_opts *o = c->o;
	char *scpus = c->stress.n ? cpulist_format(c->stress.pus, c->stress.n) :
		      xstrdup("none");
	char *skind = xstrdup(""), *quoted = NULL;
	struct shell_vars v = { 0 };
	char size[32];
	int i, n = 0;

	for (i = 0; i < o->n_stress; i++) {
		char kind[64], *t;

		run_stressor_kind_name(&o->stress[i], kind, sizeof(kind));
		t = xasprintf("%s%s%s", skind, i ? "," : "", kind);
		free(skind);
		skind = t;
	}
	if (!*skind) {
		free(skind);
		skind = xstrdup("none");
	}
	v.cpus = cpus;
	v.threads = o->n_cpus;
	v.stress_cpus = scpus;
	v.stress_kind = skind;
	v.numa_maps = c->acct.numa_path;
	if (!isnan(o->size))
		v.size = shell_size(o->size, size, sizeof(size));
	say_unknown_placeholder(o, argv);
	while (argv && argv[n])
		n++;
	if (c->local) {
		c->argv = xcalloc((size_t)n + 1, sizeof(char *));
		for (i = 0; i < n; i++)
			c->argv[i] = shell_subst(argv[i], &v);
		c->r->command = shell_join(c->argv);
	} else {
		char *line, *t;

		const char *why;

		quoted = shell_join(argv);
		v.cmd = quoted;
		/* its quotes were checked (check_line()) */
		line = shell_subst_template(o->runner, &v, &why);
		if (!line)
			line = shell_subst(o->runner, &v);
		if (n && !strstr(o->runner, "{cmd}")) {
			t = xasprintf("%s %s", line, quoted);
			free(line);
			line = t;
		}
		c->argv = xcalloc(4, sizeof(char *));
		c->argv[0] = xstrdup("/bin/sh");
		c->argv[1] = xstrdup("-c");
		c->argv[2] = line;
		c->r->command = xstrdup(line);
	}
	free(quoted);
	free(scpus);
	free(skind);
}

/*
 * The files of pandias that died without removing them (SIGKILL
 * between two runs, where no init of theirs was left to): each name
 * carries its maker's pid, and one of this user's whose maker is gone
 * is removed.
 */
static void sweep_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;

	while (d && (e = readdir(d))) {
		char *end, *path;
		long pid;

		if (strncmp(e->d_name, "pandia-pin.", 11))
			continue;
		pid = strtol(e->d_name + 11, &end, 10);
		if (end == e->d_name + 11 || *end != '.' || pid <= 0 ||
		    pid == (long)getpid() ||
		    !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid())
			unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
}

/* a new empty file in $TMPDIR into *path; 0 or -1 with err */
int make_temp(struct ctx *c, char **path)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	sweep_stale(dir);
	*path = xasprintf("%s/pandia-pin.%ld.XXXXXX", dir, (long)getpid());
	fd = mkostemp(*path, O_CLOEXEC);
	if (fd < 0) {
		perr_errno(c->err, "cannot create a file in '%s'", dir);
		free(*path);
		*path = NULL;
		return -1;
	}
	close(fd);
	return 0;
}

/* the shim's report and shared-state files; 0 or -1 with err */
int make_report_file(struct ctx *c)
{
	if (make_temp(c, &c->pin.report_path) < 0)
		return -1;
	if (make_temp(c, &c->pin.shared_path) < 0) {
		unlink(c->pin.report_path);
		free(c->pin.report_path);
		c->pin.report_path = NULL;
		return -1;
	}
	return 0;
}
