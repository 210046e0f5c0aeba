/*
 * partial.h - what the profiler and the simulated workload need from
 * the model beyond predicting a placement: a co-run stressor beside
 * some of the workload's threads.
 *
 * A co-runner (a CPU-bound loop on the same PU, time-sharing it, or on
 * a sibling PU of the same core) is represented in the model as a
 * reduction of the PU time left to the threads of one class: the
 * coefficient of the class's "PU time" resource is multiplied by
 * FACTOR (>= 1), so the class's load on its PU becomes
 * kappa * f * FACTOR and its resource slowdown is at least that
 * (section 5.1's "most oversubscribed resource").  FACTOR 2 is a fair
 * share of the PU with one always-busy loop; the profiler fits FACTOR
 * to run 4 and uses it for run 5 (docs/profiling.md, "Load balancing").
 *
 * Everything here works on a struct model after model_build_pus() and
 * before model_solve(); the model's own code does every computation.
 */
#ifndef PANDIA_PREDICTOR_PARTIAL_H
#define PANDIA_PREDICTOR_PARTIAL_H

#include "predictor/model.h"

/*
 * Give every thread i with BESIDE[i] true (indexes into the placement
 * of the last model_build_pus()) a co-runner that slows the threads
 * of its class by FACTOR - 1 more on their PU (one always busy process
 * time-sharing it: 2).  A class is marked once however many of its
 * threads are.  Call once between a build and a
 * solve.  Returns 0, or -1 when FACTOR is below 1, the model holds
 * no explicit placement, or it was built in the group-structured form
 * (md->merge, for ranking).
 */
int model_corun(struct model *md, const bool *beside, double factor);

/*
 * The thread-weighted mean of the classes' utilisation at the start of
 * the last iteration (md->f0) and after it (md->f), for a solved model.
 */
double model_mean_f0(const struct model *md);
double model_mean_f(const struct model *md);

/*
 * Whether any class of the built placement shares a core, so that the
 * model applies the burstiness b to it: threads on other PUs of its
 * core (SMT), or more than one thread on its PU (time-sharing).
 */
bool model_shares_core(const struct model *md);

#endif
