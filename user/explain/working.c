/*
 * working.c - the working threads' view of a joined run (working.h).
 */
#include <stdlib.h>
#include <string.h>
#include "explain/working.h"
#include "join/wordindex.h"

/* One kept row's waits on a word, into the word's figures (the words by
 * name, join/wordindex.h: a server's 10 000 threads on 10 000 words would
 * be 10^8 compares by a walk). */
static void add_use(struct joined_run *out, const struct lock_index *x, const struct lock_use *u)
{
	int at = lock_index_find(x, u->name);
	struct lock_total *t = at >= 0 ? &out->locks[at] : NULL;

	if (!u->is_lock)
		out->event_wait_ns += u->wait_ns;
	if (!t)
		return;
	t->waits += u->waits;
	t->wait_ns += u->wait_ns;
	t->runq_ns += u->runq_ns;
	if (u->max_ns > t->max_ns)
		t->max_ns = u->max_ns;
	t->threads++;
}

/* The user words with their per-row figures zeroed, summed again from
 * the rows kept; then those no kept row waited on taken out. */
static void sum_words(struct joined_run *out)
{
	struct lock_index x;
	int kept = 0;

	for (int i = 0; i < out->nlocks; i++) {
		struct lock_total *t = &out->locks[i];

		if (t->kernel)
			continue;
		t->waits = t->wait_ns = t->runq_ns = t->max_ns = 0;
		t->threads = 0;
	}
	out->event_wait_ns = 0;
	lock_index_build(&x, out->locks, out->nlocks);	/* without memory: a walk */
	for (unsigned i = 0; i < out->nrows; i++)
		for (int j = 0; !out->rows[i].aside && j < out->rows[i].nlocks; j++)
			add_use(out, &x, &out->rows[i].locks[j]);
	lock_index_free(&x);
	for (int i = 0; i < out->nlocks; i++)
		if (out->locks[i].kernel || out->locks[i].threads)
			out->locks[kept++] = out->locks[i];
	out->nlocks = kept;
}

int working_view(const struct joined_run *m, const bool *drop, struct joined_run *out)
{
	*out = *m;
	out->rows = malloc((m->nrows ? m->nrows : 1) * sizeof(*out->rows));
	out->locks = malloc((m->nlocks ? m->nlocks : 1) * sizeof(*out->locks));
	if (!out->rows || !out->locks) {
		working_free(out);
		return -1;
	}
	if (m->nrows)	/* a run with none may have no arrays at all */
		memcpy(out->rows, m->rows, m->nrows * sizeof(*out->rows));
	if (m->nlocks)
		memcpy(out->locks, m->locks, m->nlocks * sizeof(*out->locks));
	for (unsigned i = 0; i < m->nrows; i++)
		out->rows[i].aside |= drop[i];
	join_sum_rows(out);
	/* the JVM's own threads stay what the headline counts */
	out->aside_rows = m->aside_rows;
	out->aside_cpu_ns = m->aside_cpu_ns;
	sum_words(out);
	return 0;
}

void working_free(struct joined_run *out)
{
	free(out->rows);
	free(out->locks);
	out->rows = NULL;
	out->locks = NULL;
	out->nrows = 0;
	out->nlocks = 0;
}
