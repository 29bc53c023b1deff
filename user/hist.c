/* hist.c - percentiles from the log2 histograms of workloads and BPF. */
#include "hist.h"

static uint64_t slot_upper(unsigned i, uint64_t max)
{
	uint64_t up = i >= 63 ? UINT64_MAX : (2ull << i) - 1;

	return max && up > max ? max : up;
}

uint64_t hist_percentile(const uint64_t *slots, unsigned n, double p, uint64_t max)
{
	uint64_t total = 0, seen = 0;

	for (unsigned i = 0; i < n; i++)
		total += slots[i];
	if (!total)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		seen += slots[i];
		if ((double)seen >= p * (double)total)
			return slot_upper(i, max);
	}
	return slot_upper(n - 1, max);
}

uint64_t hist32_percentile(const uint32_t *slots, unsigned n, double p, uint64_t max)
{
	uint64_t wide[64] = { 0 };

	for (unsigned i = 0; i < n && i < 64; i++)
		wide[i] = slots[i];
	return hist_percentile(wide, n < 64 ? n : 64, p, max);
}
