/*
 * defaults.h - the placements users get without pandia: the OS
 * scheduler over every PU, libgomp's OMP_PROC_BIND=close and spread
 * over its default place list, and the sweep of section 6.3 of the
 * Pandia paper (1 to n threads packed, and spread).  One
 * implementation, used by 'pandia predict' (its "without pandia"
 * lines) and 'pandia validate' (the defaults it measures).
 *
 * Everything here works on m->pus indexes (never OS numbers).
 */
#ifndef PANDIA_PREDICTOR_DEFAULTS_H
#define PANDIA_PREDICTOR_DEFAULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/machine.h"

/*
 * libgomp's default place list when OMP_PROC_BIND is set and
 * OMP_PLACES is not: one place per PU, in OS order of the first PU of
 * each core, the PUs of a core consecutive ({0},{36},{1},{37}... on a
 * machine that numbers SMT siblings last).  places gets m->n_pus
 * entries, m->pus indexes; returns m->n_pus.
 */
int defaults_omp_places(const struct pandia_machine *m, int *places);

/*
 * Where OMP_PROC_BIND puts N threads over P places (the initial team,
 * master on place 0), as libgomp does it: close puts thread i on place
 * i; spread cuts the places into N subpartitions of P / N places, the
 * first P % N one larger, and puts thread i on the first place of the
 * i-th; beyond P threads both give each place N / P consecutive
 * threads, the first N % P places one more.  out[i] = places[...] for
 * i < N.
 */
void defaults_omp_bind(const int *places, int p, int n, bool spread,
		       int *out);

/*
 * The sweep of section 6.3: the order in which 1, 2, ... n threads
 * fill the machine.  Packed: socket by socket, core by core, every PU
 * of a core before the next core.  Spread: one PU per socket in turn,
 * then the next core of each socket, SMT siblings only once every core
 * has a thread.  order gets m->n_pus entries, m->pus indexes; the
 * sweep's placement of t threads is order[0..t).
 */
void defaults_sweep_order(const struct pandia_machine *m, bool spread,
			  int *order);

enum default_kind {
	DEF_UNPINNED,		/* the OS scheduler */
	DEF_CLOSE,		/* OMP_PROC_BIND=close, libgomp's places */
	DEF_SPREAD,		/* OMP_PROC_BIND=spread, libgomp's places */
	DEF_COUNT
};

/*
 * The placement of N threads (1 <= n) under KIND into out[0..n):
 * close and spread as libgomp binds them (defaults_omp_bind() over
 * defaults_omp_places()); unpinned over the whole machine is every PU
 * in order, and unpinned with fewer threads is predicted where close
 * would put them (the model cannot describe a floating thread).
 */
void defaults_placement(const struct pandia_machine *m,
			enum default_kind kind, int n, int *out);

/*
 * The name of a default for people and files: "all PUs, unpinned (OS
 * scheduler)", "OMP_PROC_BIND=close", "OMP_PROC_BIND=spread, 3
 * threads" (the thread count named when N is not N_PUS).  Written
 * into buf, which is returned.
 */
const char *defaults_name(enum default_kind kind, int n, int n_pus,
			  char *buf, size_t size);

#endif
