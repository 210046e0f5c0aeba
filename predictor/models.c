/*
 * models.c - the table of models (predictor/models.h).
 */
#include "predictor/models.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "predictor/pandia/params.h"

static const struct model_def *const models[] = {
	&model_pandia,
	&model_blackbox,
	&model_mva,
};

void models_install(void)
{
	pandia_params_install();
}

const struct model_def *const *model_list(int *n)
{
	*n = (int)ARRAY_SIZE(models);
	return models;
}

const struct model_def *model_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(models); i++)
		if (!strcmp(models[i]->name, name))
			return models[i];
	return NULL;
}

const char *model_names(void)
{
	static char buf[256];
	size_t i, len = 0;

	if (buf[0])
		return buf;
	for (i = 0; i < ARRAY_SIZE(models); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? ", " : "", models[i]->name);
	return buf;
}

const struct model_def *model_default(void)
{
	return models[0];
}

void model_runs_free(struct model_run *runs, int n)
{
	int i;

	for (i = 0; i < n && runs; i++) {
		free(runs[i].id);
		free(runs[i].purpose);
		free(runs[i].pus);
		free(runs[i].corun);
		free(runs[i].corun_kind);
	}
	free(runs);
}
