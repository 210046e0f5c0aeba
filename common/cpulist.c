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

static void push(int **v, int *len, int *cap, int x)
{
	if (*len == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = xrealloc(*v, sizeof(**v) * (size_t)*cap);
	}
	(*v)[(*len)++] = x;
}

/*
 * A hex mask at *p ("0x3": bit i is PU i), its PUs appended in
 * ascending order.  The mask ends at a comma or the end.
 */
static int parse_mask(const char **p, int **v, int *len, int *cap,
		      const char *list, struct pandia_error *err)
{
	const char *s = *p + 2, *e = s;
	int bit = 0, first = *len, i, j;

	while (isxdigit((unsigned char)*e))
		e++;
	if (e == s || (*e && *e != ','))
		return perr_set(err, "bad PU list '%s': '%.*s' is not a hex "
				"mask", list, (int)strcspn(*p, ","), *p);
	if ((e - s) * 4 > (1 << 20))
		return perr_set(err, "bad PU list '%s': hex mask too long",
				list);
	for (i = (int)(e - s) - 1; i >= 0; i--) {
		int d = isdigit((unsigned char)s[i]) ? s[i] - '0' :
			tolower((unsigned char)s[i]) - 'a' + 10;

		for (j = 0; j < 4; j++, bit++)
			if (d & 1 << j)
				push(v, len, cap, bit);
	}
	if (*len == first)
		return perr_set(err, "bad PU list '%s': hex mask %.*s names "
				"no PU", list, (int)(e - *p), *p);
	*p = e;
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

		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			if (parse_mask(&p, &v, &len, &cap, list, err) < 0)
				goto fail;
			goto next;
		}
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
		for (i = a; i <= b; i++)
			push(&v, &len, &cap, i);
next:
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

char *cpulist_format_compact(const int *os, int n)
{
	size_t cap = 16 * (size_t)n + 16, len = 0;
	char *buf = xmalloc(cap);
	int i, j, k;

	buf[0] = '\0';
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && os[j] == os[j - 1] + 1; j++)
			;
		if (j - i >= 3) {
			len += (size_t)snprintf(buf + len, cap - len, "%s%d-%d",
						i ? "," : "", os[i], os[j - 1]);
			continue;
		}
		for (k = i; k < j; k++)
			len += (size_t)snprintf(buf + len, cap - len, "%s%d",
						k ? "," : "", os[k]);
	}
	return buf;
}
