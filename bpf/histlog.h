/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * histlog.h - the log-linear histogram layout every fctrace histogram
 * uses: the BPF programs', the workloads' own op latencies, and user
 * space's percentiles. Part of the BPF/user ABI (fctrace.h includes it).
 *
 * Each power of two is cut into FCT_HIST_SUB equal sub-buckets, so a
 * bucket is at most 1/FCT_HIST_SUB of its lower edge wide (12.5 %) and
 * its midpoint is within 6.25 % of any value in it; a log2 bucket's
 * upper edge could be 2x the value. Values below 2 * FCT_HIST_SUB have a
 * slot each. Slot of v >= FCT_HIST_SUB, with k = floor(log2 v):
 *   ((k - BITS + 1) << BITS) + ((v >> (k - BITS)) & (SUB - 1))
 * Branch-free shifts and compares, no loop: cheap on the BPF hot path.
 */
#ifndef FCTRACE_HISTLOG_H
#define FCTRACE_HISTLOG_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define FCT_HIST_SUB_BITS	3
#define FCT_HIST_SUB		(1u << FCT_HIST_SUB_BITS)	/* sub-buckets per power of 2 */
/* slots that hold every value below 2^p exactly (p > FCT_HIST_SUB_BITS) */
#define FCT_HIST_SLOTS_BELOW(p)	(((p) - FCT_HIST_SUB_BITS + 1) << FCT_HIST_SUB_BITS)

/* floor(log2 v) for v > 0, by halving the range: no loop, no clz (which
 * the BPF backend would expand anyway). */
static inline __attribute__((always_inline)) __u32 fct_ilog2(__u64 v)
{
	__u32 r, shift;

	shift = (v > 0xffffffffULL) << 5; v >>= shift; r = shift;
	shift = (v > 0xffff) << 4; v >>= shift; r |= shift;
	shift = (v > 0xff) << 3; v >>= shift; r |= shift;
	shift = (v > 0xf) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	return r | (__u32)(v >> 1);
}

/* The slot of value v in a histogram of nslots slots; the last slot also
 * holds everything above its range. */
static inline __attribute__((always_inline)) __u32 fct_hist_slot(__u64 v, __u32 nslots)
{
	__u32 k, s;

	if (v < FCT_HIST_SUB)
		return (__u32)v;
	k = fct_ilog2(v);
	s = ((k - FCT_HIST_SUB_BITS + 1) << FCT_HIST_SUB_BITS) +
	    (__u32)((v >> (k - FCT_HIST_SUB_BITS)) & (FCT_HIST_SUB - 1));
	return s < nslots ? s : nslots - 1;
}

#endif /* FCTRACE_HISTLOG_H */
