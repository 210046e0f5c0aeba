/*
 * shellword.c - placeholders and quoting for /bin/sh (shellword.h).
 */
#include "common/shellword.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

char *shell_subst(const char *s, const struct shell_vars *v)
{
	size_t cap = strlen(s) + 64, len = 0;
	char *out = xmalloc(cap);
	char num[32];

	snprintf(num, sizeof(num), "%d", v->threads);
	while (*s) {
		const char *val = NULL;
		size_t skip = 0, n;

		if (*s == '{') {
			static const char *const names[] = {
				"{cpus}", "{threads}", "{stress_cpus}",
				"{stress_kind}", "{cmd}", "{size}",
				"{numa_maps}",
			};
			const char *vals[] = {
				v->cpus, num, v->stress_cpus, v->stress_kind,
				v->cmd, v->size, v->numa_maps,
			};
			size_t i;

			for (i = 0; i < ARRAY_SIZE(names); i++) {
				n = strlen(names[i]);
				if (vals[i] && !strncmp(s, names[i], n)) {
					val = vals[i];
					skip = n;
					break;
				}
			}
		}
		if (!val) {
			val = s;
			skip = 1;
			n = 1;
		} else {
			n = strlen(val);
		}
		if (len + n + 1 > cap) {
			cap = 2 * (len + n + 1);
			out = xrealloc(out, cap);
		}
		memcpy(out + len, val, n);
		len += n;
		s += skip;
	}
	out[len] = '\0';
	return out;
}

const char *shell_size(double size, char *buf, size_t n)
{
	/* the shortest text that reads back as the same size */
	snprintf(buf, n, "%.15g", size);
	if (strtod(buf, NULL) != size)
		snprintf(buf, n, "%.17g", size);
	return buf;
}

char *shell_quote(const char *s)
{
	size_t len = 2, i;
	char *out, *p;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			 "_-+=./,:@%^") == strlen(s))
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		len += s[i] == '\'' ? 4 : 1;
	p = out = xmalloc(len + 1);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

char *shell_join(char *const *argv)
{
	char *out = xstrdup(""), *q, *t;
	int i;

	for (i = 0; argv && argv[i]; i++) {
		q = shell_quote(argv[i]);
		t = xasprintf("%s%s%s", out, i ? " " : "", q);
		free(q);
		free(out);
		out = t;
	}
	return out;
}
