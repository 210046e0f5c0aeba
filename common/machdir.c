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

/* The search path: up to three directories (new strings). */
static int search_path(const char *extra, char *dirs[3])
{
	int n = 0;

	dirs[n] = machdir_user();
	if (dirs[n])
		n++;
	dirs[n++] = xstrdup(PANDIA_DATADIR "/machines");
	if (extra)
		dirs[n++] = xstrdup(extra);
	return n;
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
	char *dirs[3], *found = NULL, *looked = NULL;
	int n, i;

	if (!arg || !arg[0]) {
		perr_set(err, "empty machine name");
		return NULL;
	}
	if (is_file(arg) || !plain_name(arg))
		return xstrdup(arg);
	n = search_path(extra, dirs);
	for (i = 0; i < n; i++) {
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
	for (i = 0; i < n; i++)
		free(dirs[i]);
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
	char *dirs[3], *p = NULL;
	int n, i;

	*path = NULL;
	perr_clear(err);
	if (!this->host)
		return NULL;
	n = search_path(extra, dirs);
	for (i = 0; i < n && !p; i++) {
		p = xasprintf("%s/%s.json", dirs[i], this->host);
		if (!is_file(p)) {
			free(p);
			p = NULL;
		}
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
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
