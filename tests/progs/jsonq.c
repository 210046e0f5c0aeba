/*
 * jsonq - a small JSON query for the shell tests.
 *
 *   jsonq PATH [FIELD...] < FILE
 *
 * PATH is a dot-separated list of object keys and array indexes
 * ("placements.0.cpus", "." for the root).  Without FIELDs the value
 * at PATH is printed (strings bare, numbers with %.17g, arrays of
 * scalars comma-separated).  With FIELDs, PATH must be an array of
 * objects: one line per element, its FIELDs tab-separated.  Exit 1
 * when PATH or a FIELD does not exist, 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static void print_scalar(json_t *v)
{
	size_t i;

	if (json_is_string(v))
		fputs(json_string_value(v), stdout);
	else if (json_is_integer(v))
		printf("%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		printf("%.17g", json_real_value(v));
	else if (json_is_true(v))
		fputs("true", stdout);
	else if (json_is_false(v))
		fputs("false", stdout);
	else if (json_is_null(v))
		fputs("null", stdout);
	else if (json_is_array(v))
		for (i = 0; i < json_array_size(v); i++) {
			if (i)
				putchar(',');
			print_scalar(json_array_get(v, i));
		}
	else
		fputs("{...}", stdout);
}

static json_t *walk(json_t *v, const char *path)
{
	char *copy = strdup(path), *tok, *save = NULL;

	if (!strcmp(path, ".")) {
		free(copy);
		return v;
	}
	for (tok = strtok_r(copy, ".", &save); tok && v;
	     tok = strtok_r(NULL, ".", &save)) {
		char *end;
		long k = strtol(tok, &end, 10);

		if (json_is_array(v) && !*end)
			v = json_array_get(v, (size_t)k);
		else
			v = json_object_get(v, tok);
	}
	free(copy);
	return v;
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *root, *v;
	size_t i;
	int f;

	if (argc < 2) {
		fprintf(stderr, "usage: jsonq PATH [FIELD...] < FILE\n");
		return 2;
	}
	root = json_loadf(stdin, 0, &e);
	if (!root) {
		fprintf(stderr, "jsonq: line %d: %s\n", e.line, e.text);
		return 2;
	}
	v = walk(root, argv[1]);
	if (!v) {
		fprintf(stderr, "jsonq: no '%s'\n", argv[1]);
		json_decref(root);
		return 1;
	}
	if (argc == 2) {
		print_scalar(v);
		putchar('\n');
		json_decref(root);
		return 0;
	}
	if (!json_is_array(v)) {
		fprintf(stderr, "jsonq: '%s' is not an array\n", argv[1]);
		json_decref(root);
		return 1;
	}
	for (i = 0; i < json_array_size(v); i++) {
		for (f = 2; f < argc; f++) {
			json_t *x = json_object_get(json_array_get(v, i),
						    argv[f]);

			if (!x) {
				fprintf(stderr, "jsonq: no '%s' in %s.%zu\n",
					argv[f], argv[1], i);
				json_decref(root);
				return 1;
			}
			if (f > 2)
				putchar('\t');
			print_scalar(x);
		}
		putchar('\n');
	}
	json_decref(root);
	return 0;
}
