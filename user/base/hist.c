/* hist.c - percentiles from the log-linear histograms of workloads and
 * BPF (bpf/histlog.h). A percentile is reported as its slot's midpoint,
 * not interpolated inside the slot: the midpoint is never more than half
 * the slot's width off, while interpolating assumes the values spread
 * evenly and can be a whole width off when they bunch at one edge. */
#include "histlog.h"
#include "base/hist.h"

uint64_t hist_slot_lower(unsigned i)
{
	unsigned k;

	if (i < 2 * FCT_HIST_SUB)
		return i;
	k = (i >> FCT_HIST_SUB_BITS) + FCT_HIST_SUB_BITS - 1;
	if (k > 63)
		return UINT64_MAX;
	return (uint64_t)(FCT_HIST_SUB + (i & (FCT_HIST_SUB - 1))) << (k - FCT_HIST_SUB_BITS);
}

uint64_t hist_slot_width(unsigned i)
{
	unsigned k;

	if (i < 2 * FCT_HIST_SUB)
		return 1;
	k = (i >> FCT_HIST_SUB_BITS) + FCT_HIST_SUB_BITS - 1;
	return k > 63 ? 1 : 1ull << (k - FCT_HIST_SUB_BITS);
}

/* The slot's midpoint, or max for the open-ended last slot; never above max. */
static uint64_t slot_value(unsigned i, unsigned n, uint64_t max)
{
	uint64_t mid = hist_slot_lower(i) + (hist_slot_width(i) - 1) / 2;

	if (max && (i == n - 1 || mid > max))
		return max;
	return mid;
}

static uint64_t at64(const void *slots, unsigned i)
{
	return ((const uint64_t *)slots)[i];
}

static uint64_t at32(const void *slots, unsigned i)
{
	return ((const uint32_t *)slots)[i];
}

/* Nearest rank: the first slot by which p of all values are counted. */
static uint64_t percentile(uint64_t (*at)(const void *, unsigned), const void *slots,
			   unsigned n, double p, uint64_t max)
{
	uint64_t total = 0, seen = 0;

	for (unsigned i = 0; i < n; i++)
		total += at(slots, i);
	if (!total)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		seen += at(slots, i);
		if ((double)seen >= p * (double)total)
			return slot_value(i, n, max);
	}
	return slot_value(n - 1, n, max);
}

/* The same rank, placed inside its slot by assuming the slot's values
 * spread evenly over it: no step of a slot's width when the rank crosses
 * from one slot to the next. */
static double quantile(uint64_t (*at)(const void *, unsigned), const void *slots, unsigned n,
		       double p)
{
	double total = 0, seen = 0, rank;

	for (unsigned i = 0; i < n; i++)
		total += (double)at(slots, i);
	if (total <= 0)
		return 0;
	rank = p * total;
	for (unsigned i = 0; i < n; i++) {
		double in = (double)at(slots, i);

		if (in > 0 && seen + in >= rank)
			return (double)hist_slot_lower(i) +
			       (double)hist_slot_width(i) * (rank - seen) / in;
		seen += in;
	}
	return (double)hist_slot_lower(n - 1);
}

double hist_quantile(const uint64_t *slots, unsigned n, double p)
{
	return quantile(at64, slots, n, p);
}

double hist32_quantile(const uint32_t *slots, unsigned n, double p)
{
	return quantile(at32, slots, n, p);
}

uint64_t hist_percentile(const uint64_t *slots, unsigned n, double p, uint64_t max)
{
	return percentile(at64, slots, n, p, max);
}

uint64_t hist32_percentile(const uint32_t *slots, unsigned n, double p, uint64_t max)
{
	return percentile(at32, slots, n, p, max);
}

void hist_fold_log2(const uint64_t *slots, unsigned n, uint64_t *pow2, unsigned npow)
{
	for (unsigned k = 0; k < npow; k++)
		pow2[k] = 0;
	for (unsigned i = 0; i < n && npow; i++) {
		uint64_t lo = hist_slot_lower(i);
		unsigned k = lo > 1 ? fct_ilog2(lo) : 0;

		pow2[k < npow ? k : npow - 1] += slots[i];
	}
}
