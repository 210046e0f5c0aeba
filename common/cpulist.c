#include "common/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int parse_index(const char **p, int *out, const char *list,
		       struct pandia_error *err)
{
	const char *s = *p;
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return perr_set(err, "bad PU list '%s': expected a PU number "
				"at '%s'", list, *s ? s : "(end)");
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || v > 1 << 20)
		return perr_set(err, "bad PU list '%s': PU number out of "
				"range at '%s'", list, s);
	*out = (int)v;
	*p = end;
	return 0;
}

int cpulist_parse(const char *list, int **out, int *n,
		  struct pandia_error *err)
{
	const char *p = list;
	int *v = NULL, len = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (!list || !*list)
		return perr_set(err, "empty PU list");
	for (;;) {
		int a, b, i;

		if (parse_index(&p, &a, list, err) < 0)
			goto fail;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_index(&p, &b, list, err) < 0)
				goto fail;
			if (b < a) {
				perr_set(err, "bad PU list '%s': range %d-%d "
					 "runs backwards", list, a, b);
				goto fail;
			}
		}
		for (i = a; i <= b; i++) {
			if (len == cap) {
				cap = cap ? 2 * cap : 16;
				v = xrealloc(v, sizeof(*v) * (size_t)cap);
			}
			v[len++] = i;
		}
		if (!*p)
			break;
		if (*p != ',') {
			perr_set(err, "bad PU list '%s': unexpected '%c'",
				 list, *p);
			goto fail;
		}
		p++;
	}
	*out = v;
	*n = len;
	return 0;
fail:
	free(v);
	return -1;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t l = strlen(s);

	if (*len + l + 1 > *cap) {
		*cap = 2 * (*len + l + 1) + 64;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, s, l + 1);
	*len += l;
}

char *cpulist_format(const int *pus, int n)
{
	char *buf = NULL, num[16];
	size_t len = 0, cap = 0;
	int i;

	append(&buf, &len, &cap, "");
	for (i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%s%d", i ? "," : "", pus[i]);
		append(&buf, &len, &cap, num);
	}
	return buf;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

char *cpuset_format(const int *pus, int n)
{
	char *buf = NULL, num[32];
	size_t len = 0, cap = 0;
	int *s, m = 0, i, j;

	s = xmalloc(sizeof(*s) * (size_t)(n ? n : 1));
	memcpy(s, pus, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_int);
	for (i = 0; i < n; i++)
		if (!m || s[m - 1] != s[i])
			s[m++] = s[i];
	append(&buf, &len, &cap, "");
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && s[j] == s[j - 1] + 1; j++)
			;
		if (j - i >= 3)
			snprintf(num, sizeof(num), "%s%d-%d", i ? "," : "",
				 s[i], s[j - 1]);
		else if (j - i == 2)
			snprintf(num, sizeof(num), "%s%d,%d", i ? "," : "",
				 s[i], s[i + 1]);
		else
			snprintf(num, sizeof(num), "%s%d", i ? "," : "", s[i]);
		append(&buf, &len, &cap, num);
	}
	free(s);
	return buf;
}
