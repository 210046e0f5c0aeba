/*
 * params.h - the Pandia model's parameters in a workload description:
 * the "model" section of pandia-workload/1, read with the line and
 * column of a bad value, checked, and written back in a fixed order.
 *
 * common/ keeps the section without reading it (workload.h,
 * struct workload_model_ops); this file is its reader, installed by
 * pandia_params_install() (through models_install(), predictor/
 * models.h) before a description is loaded or saved.
 */
#ifndef PANDIA_PREDICTOR_PANDIA_PARAMS_H
#define PANDIA_PREDICTOR_PANDIA_PARAMS_H

#include <jansson.h>

#include "common/workload.h"

/* How o_s grows (model.o_s_form), what b multiplies (model.b_form)
   and where the serial work runs (model.serial_form). */
enum os_form { OS_PER_THREAD, OS_PER_FRACTION };
enum b_form { B_WHOLE, B_CORE };
enum serial_form { SERIAL_SPREAD, SERIAL_FIRST };

/* "per_remote_thread", "per_remote_fraction"; "whole", "core";
   "spread", "first" */
const char *os_form_name(enum os_form f);
const char *b_form_name(enum b_form f);
const char *serial_form_name(enum serial_form f);

/* The model (section 4 of the Pandia paper), as the file gives it. */
struct pandia_params {
	struct wl_param t1;	/* seconds, one thread alone */
	struct wl_param p;	/* parallel fraction, [0, 1] */
	struct wl_param o_s;	/* inter-socket overhead per remote thread,
				   relative to t1, >= 0 */
	struct wl_param l;	/* load-balancing factor, [0, 1] */
	struct wl_param b;	/* core burstiness, >= 0 */
	/*
	 * How o_s grows with the remote threads ("o_s_form"): per remote
	 * thread (the paper, 4.3; the default) or per remote fraction of
	 * the other threads; whether the profile tested it (a run at a
	 * second cross-socket split).
	 */
	enum os_form o_s_form;
	bool has_o_s_form;
	/*
	 * What b multiplies ("b_form"): the whole resource slowdown (the
	 * paper's Figure 7c; the default) or the core-throughput part of
	 * it only.
	 */
	enum b_form b_form;
	bool has_b_form;
	/*
	 * Where the serial work (1 - p) runs ("serial_form"): spread
	 * over every thread, slowed as they are (the paper, 4.1 and
	 * 5.5; the default), or on the first thread alone while the
	 * others wait, as a fork-join program's main thread runs it
	 * (docs/model.md, "Where the serial work runs").
	 */
	enum serial_form serial_form;
	bool has_serial_form;
	bool listed[WR_COUNT];	/* demand present in the file */
	struct wl_param demand[WR_COUNT];
	/*
	 * A counter-free estimate's noise amplification: a 1% error in
	 * its worst input is this many % in the demand
	 * ("demands_amplification"); NAN: none stated.
	 */
	double demand_amp[WR_COUNT];
	/*
	 * What the runs could not tell apart ("ambiguities", written by
	 * the fit, predictor/pandia/pandia_check.c; docs/workload-format.md):
	 * an array of objects, kept as read; NULL when none (owned).
	 */
	json_t *ambiguities;
	/*
	 * What pandia tune's runs did to the parameters ("refit", written
	 * by predictor/pandia/fit_tune.c; docs/workload-format.md): an
	 * object, kept as read, with the profile's own parameters; NULL
	 * when never refitted (owned).
	 */
	json_t *refit;
	/*
	 * What the profile's refusal tests (pandia_fit_checks()): the
	 * uncertainty of t1, p and l made from the repetitions' half
	 * ranges, as the fit weighs the runs, not the 90% range stated;
	 * set by the fit (have_spread), never written.
	 */
	bool have_spread;
	double spread[3];
};

/*
 * W's parameters (borrowed from w, which owns them: w->model_params).
 * Never NULL for a workload made or loaded after
 * pandia_params_install().
 */
struct pandia_params *pandia_params(const struct pandia_workload *w);

/* Make this file the reader and writer of every "model" section. */
void pandia_params_install(void);

/* PP runs its serial work on the first thread alone (model.serial_form
   "first"). */
static inline bool serial_first(const struct pandia_params *pp)
{
	return pp->has_serial_form && pp->serial_form == SERIAL_FIRST;
}

#endif
