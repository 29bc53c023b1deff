/*
 * wl_loop.h - the measured loop every worker runs, as an inline template:
 * a workload that instantiates it with its own op (struct workload.loop)
 * gets the op inlined, with no call through a table per operation. fc
 * does, so that it stays the bare open/pread/close loop it stands for;
 * the others' ops take locks and cost microseconds, and use the runner's
 * generic instance.
 *
 * Per op the loop adds to the workload's own work only a branch on the
 * sample schedule and a check of the length read. The sampled ops (see
 * WL_SAMPLE_WARMUP) are timed and verified out of line, and only they
 * look at the stop flag: a stop lands within WL_SAMPLE_EVERY ops.
 */
#ifndef FCTRACE_WL_LOOP_H
#define FCTRACE_WL_LOOP_H

#include "wl_internal.h"

typedef int (*wl_op_fn)(struct wl_run *run, struct wl_thread *t, unsigned file,
			uint64_t off, void *buf);

/* wl_loop.c: a sampled op's latency and bytes; an op that did not read a
 * whole chunk; whether a stop was asked for */
void wl_sample_op(struct wl_thread *t, unsigned file, uint64_t off, int n, uint64_t lat,
		  bool missed);
void wl_odd_op(struct wl_thread *t, int n);
bool wl_stopping(void);

/* The sampled op after op i: the next one while warming up, then the next
 * multiple of WL_SAMPLE_EVERY. */
static inline uint64_t wl_next_sample(uint64_t i)
{
	return i + 1 < WL_SAMPLE_WARMUP ? i + 1 : (i | (WL_SAMPLE_EVERY - 1)) + 1;
}

/* Runs up to cfg.ops operations; returns how many ran. Each turn runs
 * one sampled op, then the stretch of plain ops up to the next sample in
 * a loop as tight as a bare one. */
static inline __attribute__((always_inline))
uint64_t wl_measured_loop(struct wl_thread *t, wl_op_fn op)
{
	struct wl_run *run = t->run;
	const uint64_t ops = run->cfg.ops, nfiles = run->nfiles;
	const uint64_t span = run->cfg.file_size - run->cfg.chunk + 1;
	const int chunk = (int)run->cfg.chunk;
	uint64_t i = 0, end, off, t0, misses;
	unsigned f;
	int n;

	while (i < ops && !wl_stopping()) {
		f = (unsigned)wl_rng_below(t->rng, nfiles);
		off = wl_rng_below(t->rng, span);
		misses = t->st.misses;
		t0 = wl_now_ns();
		n = op(run, t, f, off, t->buf);
		wl_sample_op(t, f, off, n, wl_now_ns() - t0, t->st.misses != misses);
		if (n != chunk)
			wl_odd_op(t, n);
		end = wl_next_sample(i++);
		if (end > ops)
			end = ops;
		for (; i < end; i++) {
			f = (unsigned)wl_rng_below(t->rng, nfiles);
			off = wl_rng_below(t->rng, span);
			n = op(run, t, f, off, t->buf);
			if (n != chunk)
				wl_odd_op(t, n);
		}
	}
	return i;
}

#endif
