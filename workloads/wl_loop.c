/*
 * wl_loop.c - what the measured loop (wl_loop.h) calls out of line: the
 * sampled ops' latency and check, the ops that did not read a whole
 * chunk, and the stop flag. The runner uses the loop; the loop uses
 * only this file, so the arrows point one way.
 */
#include "wl_loop.h"

static atomic_int stop_requested;

/* A lock-free atomic store: async-signal-safe. */
void wl_request_stop(void)
{
	atomic_store_explicit(&stop_requested, 1, memory_order_relaxed);
}

void wl_stop_reset(void)
{
	atomic_store_explicit(&stop_requested, 0, memory_order_relaxed);
}

bool wl_stopping(void)
{
	return atomic_load_explicit(&stop_requested, memory_order_relaxed);
}

/* An op that did not hand back a whole chunk: an error, or a short
 * read (as wrong as a bad byte). Whole chunks need no bookkeeping: the
 * op count and bytes read are settled once, after the loop. */
void wl_odd_op(struct wl_thread *t, int n)
{
	struct wl_thread_stats *st = &t->st;

	if (n < 0) {
		st->op_errors++;
		if (!t->first_err)
			t->first_err = -n;
		return;
	}
	t->short_reads++;
	t->short_bytes += (uint64_t)n;
	st->verify_errors++;
}

/* A sampled op: its latency, also by whether it missed, and its bytes
 * checked. */
void wl_sample_op(struct wl_thread *t, unsigned file, uint64_t off, int n, uint64_t lat,
		  bool missed)
{
	struct wl_thread_stats *st = &t->st;
	unsigned slot = fct_hist_slot(lat, WL_HIST_SLOTS);

	st->lat_timed++;
	st->lat_hist[slot]++;
	(missed ? st->op_miss_hist : st->op_hit_hist)[slot]++;
	st->lat_total_ns += lat;
	if (lat < st->lat_min_ns)
		st->lat_min_ns = lat;
	if (lat > st->lat_max_ns)
		st->lat_max_ns = lat;
	if (n > 0 && (uint64_t)n == t->run->cfg.chunk && !wl_content_ok(file, off, t->buf, (size_t)n))
		st->verify_errors++;
}
