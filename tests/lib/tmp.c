/*
 * tmp.c - temporary files and directories under /tmp, named for the
 * suite that made them so that a leftover says whose it is.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "tests/lib/testkit.h"

char *tk_tmpdir(const char *name)
{
	char *dir = xasprintf("/tmp/pandia-%s-XXXXXX", name);

	ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s failed", dir);
	return dir;
}

void tk_tmpdir_remove(char *dir)
{
	DIR *d;
	struct dirent *e;

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		unlink(path);
		free(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

char *tk_tmpfile(const char *name, const char *text)
{
	char *path = xasprintf("/tmp/pandia-%s-XXXXXX", name);
	size_t len = strlen(text);
	int fd = mkstemp(path);

	ck_assert_msg(fd >= 0, "mkstemp %s failed", path);
	ck_assert(write(fd, text, len) == (ssize_t)len);
	close(fd);
	return path;
}
