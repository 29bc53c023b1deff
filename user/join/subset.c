/*
 * subset.c - a joined run over some of its threads (subset.h).
 */
#include <stdlib.h>
#include <string.h>
#include "join/subset.h"

static const struct lock_total *same_word(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

/* One kept row's waits into its word's total; a new total takes the
 * word's wake-ups and holders from the whole run. */
static int add_use(struct joined_run *out, const struct joined_run *m, const struct lock_use *u)
{
	struct lock_total *t = join_lock_total(out, u->name, false, u->is_lock);
	const struct lock_total *whole = same_word(m, u->name);

	if (!t)
		return -1;
	if (!t->threads)
		t->kind = u->kind;
	if (!t->threads && whole) {
		t->turns = whole->turns;
		t->wakes = whole->wakes;
		t->wakes_by_waiters = whole->wakes_by_waiters;
		t->holders = whole->holders;
	}
	t->waits += u->waits;
	t->wait_ns += u->wait_ns;
	t->runq_ns += u->runq_ns;
	if (u->max_ns > t->max_ns)
		t->max_ns = u->max_ns;
	t->threads++;
	if (!u->is_lock)
		out->event_wait_ns += u->wait_ns;
	return 0;
}

static int sum_words(struct joined_run *out, const struct joined_run *m)
{
	for (unsigned i = 0; i < out->nrows; i++)
		for (int j = 0; !out->rows[i].aside && j < out->rows[i].nlocks; j++)
			if (add_use(out, m, &out->rows[i].locks[j]))
				return -1;
	for (int i = 0; i < m->nlocks; i++) {
		struct lock_total *t;

		if (!m->locks[i].kernel)
			continue;
		t = join_lock_total(out, m->locks[i].name, true, m->locks[i].is_lock);
		if (!t)
			return -1;
		*t = m->locks[i];
	}
	return 0;
}

int join_subset(const struct joined_run *m, const bool *drop, struct joined_run *out)
{
	*out = *m;
	out->locks = NULL;
	out->nlocks = 0;
	out->event_wait_ns = 0;
	out->rows = malloc((m->nrows ? m->nrows : 1) * sizeof(*out->rows));
	if (!out->rows)
		return -1;
	memcpy(out->rows, m->rows, m->nrows * sizeof(*out->rows));
	for (unsigned i = 0; i < m->nrows; i++)
		out->rows[i].aside |= drop[i];
	join_sum_rows(out);
	/* the JVM's own threads stay what the headline counts */
	out->aside_rows = m->aside_rows;
	out->aside_cpu_ns = m->aside_cpu_ns;
	if (sum_words(out, m)) {
		join_subset_free(out);
		return -1;
	}
	return 0;
}

void join_subset_free(struct joined_run *out)
{
	free(out->rows);
	free(out->locks);
	out->rows = NULL;
	out->locks = NULL;
	out->nrows = 0;
	out->nlocks = 0;
}
