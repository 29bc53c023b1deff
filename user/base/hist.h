/* hist.h - percentiles from the log-linear histograms of workloads and
 * BPF (layout: bpf/histlog.h). */
#ifndef FCTRACE_HIST_H
#define FCTRACE_HIST_H

#include <stdint.h>

/* The smallest value slot i holds, and how many values it holds. */
uint64_t hist_slot_lower(unsigned i);
uint64_t hist_slot_width(unsigned i);

/* The p-th percentile (0 < p <= 1, nearest rank) of a histogram of n
 * slots: the midpoint of the slot that holds it - within half a slot's
 * width, 6.25 % of the value, of any value in the slot - clamped to max
 * when given (max 0 = unknown); the last slot, which holds everything
 * above its range, answers max. 0 for an empty histogram. */
uint64_t hist_percentile(const uint64_t *slots, unsigned n, double p, uint64_t max);
uint64_t hist32_percentile(const uint32_t *slots, unsigned n, double p, uint64_t max);
/* The p-th quantile placed inside its slot as if the slot's values were
 * spread evenly over it (linear interpolation): for figures a model is
 * fitted with, where a step of a slot's width (12.5 %) between two
 * neighbouring runs would be noise. 0 for an empty histogram. */
double hist_quantile(const uint64_t *slots, unsigned n, double p);
double hist32_quantile(const uint32_t *slots, unsigned n, double p);
/* Sum a histogram's slots per power of two (pow2[k]: [2^k, 2^(k+1)), 0
 * and 1 in pow2[0]) into npow entries, the last taking the rest: for
 * charts, which draw one bar per power. */
void hist_fold_log2(const uint64_t *slots, unsigned n, uint64_t *pow2, unsigned npow);

#endif
