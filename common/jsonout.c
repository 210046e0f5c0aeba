#include "common/jsonout.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpulist.h"
#include "common/report.h"
#include "common/util.h"

/*
 * Rewrite jansson's indented text so that an array holding no object
 * or array is printed on one line: "[0, 1, 2]".
 */
static char *collapse_scalar_arrays(const char *in)
{
	size_t len = strlen(in), o = 0, i = 0;
	char *out = xmalloc(len + 2);

	while (i < len) {
		char ch = in[i];

		if (ch == '"') {
			/* copy a string verbatim */
			out[o++] = in[i++];
			while (i < len && in[i] != '"') {
				if (in[i] == '\\')
					out[o++] = in[i++];
				out[o++] = in[i++];
			}
			out[o++] = in[i++];
			continue;
		}
		if (ch == '[') {
			size_t j = i + 1;
			bool scalar = true, in_str = false;

			for (; j < len; j++) {
				if (in_str) {
					if (in[j] == '\\')
						j++;
					else if (in[j] == '"')
						in_str = false;
					continue;
				}
				if (in[j] == '"')
					in_str = true;
				else if (in[j] == '[' || in[j] == '{') {
					scalar = false;
					break;
				} else if (in[j] == ']')
					break;
			}
			if (scalar && j < len) {
				/* copy [ ... ] dropping newlines+indent */
				out[o++] = '[';
				for (i++, in_str = false; i <= j; i++) {
					char c = in[i];

					if (in_str) {
						out[o++] = c;
						if (c == '\\')
							out[o++] = in[++i];
						else if (c == '"')
							in_str = false;
						continue;
					}
					if (c == '"')
						in_str = true;
					if (c == '\n' || c == ' ')
						continue;
					out[o++] = c;
					if (c == ',')
						out[o++] = ' ';
				}
				continue;
			}
		}
		out[o++] = in[i++];
	}
	out[o++] = '\n';
	out[o] = '\0';
	return out;
}

char *json_to_text(const json_t *root)
{
	char *s, *out;

	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		       JSON_REAL_PRECISION(10));
	if (!s)
		report_fatal("out of memory");
	out = collapse_scalar_arrays(s);
	free(s);
	return out;
}

void json_set_cpus(json_t *obj, const int *os, int n)
{
	json_t *a = json_array();
	char *text = cpulist_format_compact(os, n);
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(os[i]));
	json_object_set_new(obj, "cpus", a);
	json_object_set_new(obj, "cpus_text", json_string(text));
	free(text);
}

void json_set_cpus_text(json_t *obj, const char *text)
{
	int *os = NULL, n = 0;

	if (text && cpulist_parse(text, &os, &n, NULL) == 0) {
		json_set_cpus(obj, os, n);
		free(os);
		return;
	}
	json_object_set_new(obj, "cpus", json_array());
	json_object_set_new(obj, "cpus_text", text ? json_string(text) :
			    json_null());
}

void json_set_str(json_t *obj, const char *key, const char *s)
{
	if (s)
		json_object_set_new(obj, key, json_string(s));
}
