/*
 * solo.h - what one op of a pool costs with one thread alone, measured
 * beside the run, for the what-if model (explain/whatif.c).
 *
 * A contended run's ops are dearer than the same ops alone even when they
 * neither wait nor lose their CPU: the lock's and the pool's cache lines
 * move between CPUs, and every syscall shares the machine with the
 * switching around it. Costs taken from the run alone made every cell of
 * one thread (and fc at every thread count) predicted slower than it
 * runs. So the session runs, three times, three short one-thread runs of
 * its own -
 * the same pool and files, the same pool with one channel (every get
 * misses), and fc - with the probes attached, just before they start
 * counting (so nothing of the calibration is in the window's tables): their walls per op
 * are the costs alone (a hit's and a miss's solved from the two pool
 * runs' walls and counts; the medians of their sampled ops if that
 * fails). Walls, not medians: a median leaves out the loop around the op
 * and the odd slow op, which the walls the model predicts include (fc's
 * median was 10-15 % under its wall per op here).
 */
#ifndef FCTRACE_SOLO_H
#define FCTRACE_SOLO_H

#include <stdbool.h>
#include "workload.h"

/* Ops of each calibration run: enough sampled ops (WL_SAMPLE_*) for a
 * median, a few tens of milliseconds in all. */
#define SOLO_HIT_OPS	4000
#define SOLO_MISS_OPS	1500
#define SOLO_FC_OPS	2500
/* rounds of the three: each figure is their middle */
#define SOLO_ROUNDS	3

/* Does a run of cfg get a calibration (fcp and fcp-fixed)? */
bool solo_wanted(const struct wl_config *cfg);
/* Measure: out zeroed first; a calibration run that fails leaves its
 * figure at 0 (the model then falls back on the run's own medians). */
void solo_measure(const struct wl_config *cfg, struct wl_solo *out);

#endif
