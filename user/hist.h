/* hist.h - percentiles from log2 histograms (slot i holds [2^i, 2^(i+1))). */
#ifndef FCTRACE_HIST_H
#define FCTRACE_HIST_H

#include <stdint.h>

/* Upper bound of the slot holding the p-th percentile (0 < p <= 1);
 * clamped to max when given (max 0 = unknown). 0 for an empty histogram. */
uint64_t hist_percentile(const uint64_t *slots, unsigned n, double p, uint64_t max);
uint64_t hist32_percentile(const uint32_t *slots, unsigned n, double p, uint64_t max);

#endif
