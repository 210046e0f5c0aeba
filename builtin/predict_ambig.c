/*
 * predict_ambig.c - pandia predict: the placements whose prediction
 * depends on what the profile's runs could not tell apart (the
 * description's model.ambiguities, docs/profiling.md "Ambiguity"):
 * each one predicted again with the competing explanation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtin/predict.h"
#include "common/util.h"
#include "predictor/models.h"

/* A placement depends on an ambiguity when the two differ by this. */
#define AMBIG_DIFFER 0.05

static double num(json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

void ambig_init(struct ambig *a, const struct ctx *x, const struct space *sp)
{
	json_t *arr = x->state ? NULL : model_ambiguities(x->w), *o;
	size_t i;

	memset(a, 0, sizeof(*a));
	json_array_foreach(arr, i, o) {
		json_t *alt = json_object_get(o, "alternative");
		json_t *res = json_object_get(o, "resolved");
		struct model_params prm = x->prm;

		if (a->n == AMBIG_MAX || !json_is_object(alt) ||
		    json_is_true(res))
			continue;
		prm.p = num(alt, "p", prm.p);
		prm.o_s = num(alt, "o_s", prm.o_s);
		prm.l = num(alt, "l", prm.l);
		prm.b = num(alt, "b", prm.b);
		prm.d[WR_DRAM] = num(alt, "dram", prm.d[WR_DRAM]);
		prm.d[WR_INTERCONNECT] = num(alt, "interconnect",
					     prm.d[WR_INTERCONNECT]);
		a->between[a->n] = json_string_value(
			json_object_get(o, "between"));
		if (!a->between[a->n])
			a->between[a->n] = "?";
		model_init(&a->md[a->n++], sp, &prm);
	}
}

void ambig_release(struct ambig *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		model_release(&a->md[i]);
	a->n = 0;
}

double ambig_of(struct ambig *a, const int *pus, int n, double t,
		double *alt, const char **which)
{
	double most = 0;
	int i;

	*alt = t;
	*which = NULL;
	for (i = 0; i < a->n; i++) {
		double ta = model_time_pus(&a->md[i], pus, n);
		double d = ta > 0 && t > 0 ? fabs(log(ta / t)) : 0;

		if (d > most) {
			most = d;
			*alt = ta;
			*which = a->between[i];
		}
	}
	return exp(most) - 1;
}

bool ambig_depends(double diff)
{
	return diff > AMBIG_DIFFER;
}
