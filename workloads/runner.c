/*
 * runner.c - one run: check the settings, make the data files, set the
 * workload up, start the workers together, let each time its own window
 * and operations, then collect, tear down and remove the files.
 *
 * Inside a worker's window (fctrace_thread_begin .. fctrace_thread_end)
 * the only syscalls are the workload's own: the kernel-side tests count
 * them exactly. Clock reads go through the vDSO; nothing is allocated.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wl_loop.h"

static void settle_counts(struct wl_thread *t, uint64_t ops, uint64_t chunk)
{
	struct wl_thread_stats *st = &t->st;

	st->ops = ops;
	st->bytes_read = (ops - st->op_errors - t->short_reads) * chunk + t->short_bytes;
}

/* The generic instance of the measured loop: the op through the table. */
static uint64_t table_loop(struct wl_thread *t)
{
	return wl_measured_loop(t, t->run->wl->op);
}

/* The measured window: nothing but the workload's syscalls in here, and
 * per op no more than fc's bare loop would do beside them (make bench). */
static void run_ops(struct wl_thread *t)
{
	const struct workload *wl = t->run->wl;
	uint64_t ops;

	t->st.lat_min_ns = UINT64_MAX;
	t->st.start_ns = wl_now_ns();
	fctrace_thread_begin(t->st.start_ns, t->st.index);
	ops = wl->loop ? wl->loop(t) : table_loop(t);
	t->st.end_ns = wl_now_ns();
	fctrace_thread_end(t->st.end_ns, t->st.index);
	settle_counts(t, ops, t->run->cfg.chunk);
	if (!t->st.lat_timed)
		t->st.lat_min_ns = 0;
}

/* Report ready; wait for go. Returns false when the run was called off. */
static bool gate_wait(struct wl_run *run)
{
	bool go;

	pthread_mutex_lock(&run->gate_mu);
	run->ready++;
	pthread_cond_broadcast(&run->gate_cv);
	while (!run->go)
		pthread_cond_wait(&run->gate_cv, &run->gate_mu);
	go = !run->abort;
	pthread_mutex_unlock(&run->gate_mu);
	return go;
}

static void *worker(void *arg)
{
	struct wl_thread *t = arg;
	struct wl_run *run = t->run;

	t->st.tid = gettid();
	if (run->wl->thread_init)
		t->init_err = run->wl->thread_init(run, t);
	if (gate_wait(run) && !t->init_err)
		run_ops(t);
	if (run->wl->thread_fini)
		run->wl->thread_fini(run, t);
	return NULL;
}

static void gate_open(struct wl_run *run, bool abort)
{
	pthread_mutex_lock(&run->gate_mu);
	run->abort = abort;
	run->go = true;
	pthread_cond_broadcast(&run->gate_cv);
	pthread_mutex_unlock(&run->gate_mu);
}

static int new_thread(struct wl_run *run, unsigned i)
{
	struct wl_thread *t;

	t = aligned_alloc(64, (sizeof(*t) + 63) & ~(size_t)63);
	if (!t)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->run = run;
	t->st.index = i;
	t->own_fd = -1;
	wl_rng_seed(t->rng, run->cfg.seed, i);
	run->threads[i] = t;
	t->buf = malloc(run->cfg.chunk);
	if (!t->buf)
		return -ENOMEM;
	return -pthread_create(&t->pt, NULL, worker, t);
}

/* Start every worker and wait until each has its tid and is ready. */
static int threads_start(struct wl_run *run)
{
	int err = 0;

	run->threads = calloc(run->cfg.threads, sizeof(*run->threads));
	if (!run->threads)
		return -ENOMEM;
	for (unsigned i = 0; i < run->cfg.threads && !err; i++) {
		err = new_thread(run, i);
		if (!err)
			run->nthreads = i + 1;
	}
	pthread_mutex_lock(&run->gate_mu);
	while (run->ready < run->nthreads)
		pthread_cond_wait(&run->gate_cv, &run->gate_mu);
	pthread_mutex_unlock(&run->gate_mu);
	for (unsigned i = 0; i < run->nthreads && !err; i++)
		err = -run->threads[i]->init_err;
	if (err)
		fprintf(stderr, "fctrace: starting %s workers: %s\n",
			run->wl->name, strerror(-err));
	return err;
}

static void threads_free(struct wl_run *run)
{
	for (unsigned i = 0; i < run->cfg.threads && run->threads; i++) {
		if (run->threads[i])
			free(run->threads[i]->buf);
		free(run->threads[i]);
	}
	free(run->threads);
	run->threads = NULL;
}

static void threads_join(struct wl_run *run)
{
	for (unsigned i = 0; i < run->nthreads; i++)
		pthread_join(run->threads[i]->pt, NULL);
}

/* tids known, workers waiting: cold start, hooks, pressure, then go */
static int window(struct wl_run *run, const struct wl_hooks *hooks,
		  struct wl_result *res)
{
	struct wl_pressure *pressure = NULL;
	int err = 0;

	for (unsigned i = 0; i < run->nthreads; i++)
		res->threads[i] = run->threads[i]->st;
	if (run->cfg.cache == WL_CACHE_COLD)
		res->cold_pages_resident = wl_cold_evict(run);
	if (hooks && hooks->window_open)
		err = hooks->window_open(hooks->arg, res->threads, run->nthreads);
	if (!err && run->cfg.pressure > 0 &&
	    !(pressure = wl_pressure_start(run, run->cfg.pressure)))
		err = -EAGAIN;
	gate_open(run, err != 0);
	threads_join(run);
	res->pressure_pages_dropped = wl_pressure_stop(pressure);
	if (hooks && hooks->window_close)
		hooks->window_close(hooks->arg);
	if (err == -EAGAIN)
		fprintf(stderr, "fctrace: cannot start the pressure thread\n");
	return err;
}

static void collect(struct wl_run *run, struct wl_result *res)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (unsigned i = 0; i < run->nthreads; i++) {
		struct wl_thread_stats *st = &res->threads[i];

		*st = run->threads[i]->st;
		if (st->start_ns && st->start_ns < first)
			first = st->start_ns;
		if (st->end_ns > last)
			last = st->end_ns;
	}
	res->start_ns = first == UINT64_MAX ? 0 : first;
	res->end_ns = last;
	res->wall_ns = last > res->start_ns ? last - res->start_ns : 0;
	res->interrupted = wl_stopping();
	run->wl->totals(run, &res->totals);
	res->nlocks = run->wl->locks(run, res->locks, WL_MAX_LOCKS);
}

/* After the run: a wrong byte or a failed operation fails the run. */
static int check_errors(struct wl_run *run, const struct wl_result *res)
{
	uint64_t bad = 0, failed = 0, ops = 0;
	int first = 0;

	for (unsigned i = 0; i < res->nthreads; i++) {
		bad += res->threads[i].verify_errors;
		failed += res->threads[i].op_errors;
		ops += res->threads[i].ops;
		if (!first)
			first = run->threads[i]->first_err;
	}
	/* one line for the whole failure: what failed first, and how often */
	if (failed)
		fprintf(stderr, "fctrace: %s: %llu of %llu operations failed (first: %s)%s\n",
			run->wl->name, (unsigned long long)failed, (unsigned long long)ops,
			strerror(first), bad ? "; some reads returned wrong data too" : "");
	else if (bad)
		fprintf(stderr, "fctrace: %s: %llu of %llu reads returned wrong data\n",
			run->wl->name, (unsigned long long)bad, (unsigned long long)ops);
	return failed ? -EIO : bad ? -EILSEQ : 0;
}

static int run_init(struct wl_run *run, const struct wl_config *cfg,
		    const struct wl_io *io, struct wl_result *res)
{
	res->cfg = *cfg;
	run->cfg = *cfg;
	run->wl = wl_find(cfg->workload);
	run->io = io ? *io : wl_sys_io;
	run->plain_io = !io || io == &wl_sys_io;
	run->nfiles = cfg->shared_file ? 1 : cfg->files;
	run->parent_fd = run->dir_fd = run->lock_fd = -1;
	pthread_mutex_init(&run->gate_mu, NULL);
	pthread_cond_init(&run->gate_cv, NULL);
	res->threads = calloc(cfg->threads, sizeof(*res->threads));
	return res->threads ? 0 : -ENOMEM;
}

int wl_run(const struct wl_config *cfg, const struct wl_io *io,
	   const struct wl_hooks *hooks, struct wl_result *res)
{
	struct wl_run run = { 0 };
	bool set_up = false;
	int err;

	memset(res, 0, sizeof(*res));	/* wl_result_free is always safe */
	if ((err = wl_config_check(cfg)))
		return err;
	if ((err = run_init(&run, cfg, io, res))) {
		fprintf(stderr, "fctrace: out of memory\n");
		goto out;
	}
	if ((err = wl_datadir_create(&run, hooks)))
		goto out;
	snprintf(res->data_dir, sizeof(res->data_dir), "%s", run.dir);
	set_up = true;		/* teardown copes with a half-done setup */
	if ((err = run.wl->setup(&run)))
		goto out;
	err = threads_start(&run);
	res->nthreads = run.nthreads;
	if (err) {
		gate_open(&run, true);
		threads_join(&run);
		goto out;
	}
	if (!(err = window(&run, hooks, res))) {
		collect(&run, res);
		err = check_errors(&run, res);
	}
out:
	if (set_up)
		run.wl->teardown(&run);
	threads_free(&run);
	wl_datadir_remove(&run);
	pthread_cond_destroy(&run.gate_cv);
	pthread_mutex_destroy(&run.gate_mu);
	return err;
}

void wl_result_free(struct wl_result *res)
{
	free(res->threads);
	res->threads = NULL;
}
