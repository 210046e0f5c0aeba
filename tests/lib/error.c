/*
 * error.c - error capture and the bad-file driver: a directory of
 * inputs, each refused with the message recorded beside it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "tests/lib/testkit.h"

char *tk_error_line(const struct pandia_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	perr_print(err, f);
	fclose(f);
	return buf;
}

int tk_is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* DIR/NAME is refused with exactly the message in its .expect file. */
static void refused_as_expected(const char *dir, const char *name,
				tk_loader *load)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *expect_path = xasprintf("%.*s.expect", (int)strlen(path) - 5,
				      path);
	struct pandia_error err;
	char *expect, *got;

	ck_assert_msg(!load(path, &err), "%s was accepted", path);
	got = tk_error_line(&err);
	expect = read_file(expect_path, NULL, &err);
	ck_assert_msg(expect != NULL, "%s: %s", expect_path, err.text);
	ck_assert_msg(!strcmp(got, expect), "%s:\n  got:    %s"
		      "  wanted: %s", path, got, expect);
	free(got);
	free(expect);
	free(expect_path);
	free(path);
}

void tk_bad_dir(const char *dir, int min, tk_loader *load)
{
	struct dirent **names;
	int n, i;

	n = scandir(dir, &names, tk_is_json, alphasort);
	ck_assert_int_ge(n, min);
	for (i = 0; i < n; i++) {
		refused_as_expected(dir, names[i]->d_name, load);
		free(names[i]);
	}
	free(names);
}
