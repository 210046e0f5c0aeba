/*
 * machdir.c - the machine descriptions' search path (see machdir.h).
 */
#include "common/machdir.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

#ifndef PANDIA_DATADIR
#define PANDIA_DATADIR "/usr/local/share/pandia"
#endif

char *machdir_user(void)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	/* the XDG base directory specification: absolute paths only */
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/pandia/machines", xdg);
	if (home && home[0])
		return xasprintf("%s/.local/share/pandia/machines", home);
	return NULL;
}

/* one more directory at the end of the search path DIRS of *N */
static void push_dir(char ***dirs, int *n, char *dir)
{
	*dirs = xrealloc(*dirs, (size_t)(*n + 2) * sizeof(**dirs));
	(*dirs)[(*n)++] = dir;
	(*dirs)[*n] = NULL;
}

/*
 * The search path (new strings, NULL-terminated): $PANDIA_MACHINES
 * first, so that the nodes of a cluster find one shared description
 * before any of their own, then the user's, the installed and EXTRA.
 */
static char **search_path(const char *extra)
{
	const char *env = getenv("PANDIA_MACHINES"), *s, *end;
	char **dirs = NULL, *user = machdir_user();
	int n = 0;

	for (s = env; s && *s; s = *end ? end + 1 : end) {
		end = strchrnul(s, ':');
		/* an empty entry, as in "a::b", names no directory */
		if (end > s)
			push_dir(&dirs, &n, xasprintf("%.*s", (int)(end - s),
						      s));
	}
	if (user)
		push_dir(&dirs, &n, user);
	push_dir(&dirs, &n, xstrdup(PANDIA_DATADIR "/machines"));
	if (extra)
		push_dir(&dirs, &n, xstrdup(extra));
	return dirs;
}

static void free_path(char **dirs)
{
	int i;

	for (i = 0; dirs[i]; i++)
		free(dirs[i]);
	free(dirs);
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static bool plain_name(const char *arg)
{
	size_t len = strlen(arg);

	return !strchr(arg, '/') && !(len >= 5 &&
				      !strcmp(arg + len - 5, ".json"));
}

char *machdir_find(const char *arg, const char *extra,
		   struct pandia_error *err)
{
	char **dirs, *found = NULL, *looked = NULL;
	int i;

	if (!arg || !arg[0]) {
		perr_set(err, "empty machine name");
		return NULL;
	}
	if (is_file(arg) || !plain_name(arg))
		return xstrdup(arg);
	dirs = search_path(extra);
	for (i = 0; dirs[i]; i++) {
		char *p = xasprintf("%s/%s.json", dirs[i], arg), *t;

		if (!found && is_file(p)) {
			found = p;
			continue;
		}
		t = xasprintf("%s%s%s", looked ? looked : "",
			      looked ? ", " : "", p);
		free(looked);
		looked = t;
		free(p);
	}
	if (!found)
		perr_set(err, "no machine description '%s': not a file, "
			 "and not in %s (make one with 'pandia machine', or "
			 "list them with 'ls %s')", arg, looked ? looked : "",
			 dirs[0]);
	free_path(dirs);
	free(looked);
	return found;
}

static bool same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

struct pandia_machine *machdir_this_host(const struct pandia_machine *this,
					 const char *extra, char **path,
					 struct pandia_error *err)
{
	struct pandia_machine *m = NULL;
	char **dirs, *p = NULL;
	int i;

	*path = NULL;
	perr_clear(err);
	if (!this->host)
		return NULL;
	dirs = search_path(extra);
	for (i = 0; dirs[i] && !p; i++) {
		p = xasprintf("%s/%s.json", dirs[i], this->host);
		if (!is_file(p)) {
			free(p);
			p = NULL;
		}
	}
	free_path(dirs);
	if (!p)
		return NULL;
	m = machine_load(p, err);
	if (m && (!same(m->host, this->host) ||
		  !same(m->cpu_model, this->cpu_model))) {
		perr_set(err, "'%s' is not of this host: it describes host "
			 "'%s' with CPU '%s', this is '%s' with '%s'", p,
			 m->host ? m->host : "?",
			 m->cpu_model ? m->cpu_model : "?", this->host,
			 this->cpu_model ? this->cpu_model : "?");
		machine_free(m);
		m = NULL;
	}
	if (m)
		*path = p;
	else
		free(p);
	return m;
}
