/*
 * said.c - a long explanation said in full once per host, in one line
 * after.  Someone who has read why perf cannot count on this machine,
 * or why a description's demand is only a bound, gains nothing from
 * reading it again on every command; -v (--verbose) says it in full
 * again.  What was said is kept in $XDG_STATE_HOME/pandia/said (else
 * ~/.local/state/pandia/said), one "HOST<TAB>KEY" a line: a home shared
 * between hosts says each host's notes there once.  Where the file
 * cannot be read or written, everything is said in full.
 */
#include "builtin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"

static bool verbose;

void said_verbose(bool on)
{
	verbose = on;
}

/* the state file's path (new string), its folder made; NULL: none */
static char *said_path(void)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	struct pandia_error err;
	char *dir, *path = NULL;

	if (state && *state == '/')
		dir = xasprintf("%s/pandia", state);
	else if (home && *home == '/')
		dir = xasprintf("%s/.local/state/pandia", home);
	else
		return NULL;
	if (make_dirs(dir, &err) == 0)
		path = xasprintf("%s/said", dir);
	free(dir);
	return path;
}

/* "HOST<TAB>KEY" as a line, newlines in KEY made spaces (new string) */
static char *said_line(const char *key)
{
	char host[256] = "";
	char *line, *p;

	if (gethostname(host, sizeof(host) - 1) < 0)
		strcpy(host, "?");
	line = xasprintf("%s\t%s", host, key);
	for (p = line; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return line;
}

static bool in_file(FILE *f, const char *line)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	bool found = false;

	while (!found && (n = getline(&buf, &cap, f)) > 0) {
		if (buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		found = !strcmp(buf, line);
	}
	free(buf);
	return found;
}

bool said_in_full(const char *key)
{
	char *path, *line;
	bool full = true;
	FILE *f;
	int fd;

	if (verbose || !(path = said_path()))
		return true;
	line = said_line(key);
	f = fopen(path, "re");
	if (f) {
		full = !in_file(f, line);
		fclose(f);
	}
	if (full) {
		fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			  0644);
		if (fd >= 0) {
			dprintf(fd, "%s\n", line);
			close(fd);
		}
	}
	free(line);
	free(path);
	return full;
}
