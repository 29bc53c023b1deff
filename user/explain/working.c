/*
 * working.c - the working threads' view of a joined run (working.h).
 */
#include <stdlib.h>
#include <string.h>
#include "base/places.h"
#include "explain/working.h"

/* out's user words by name, for add_use to find each row's words in:
 * a server's 10 000 threads on 10 000 words would be 10^8 compares by a
 * walk. The kernel's sites sort last and are never found. */
struct word_index {
	const struct joined_run *out;
	int *at;
	int n;		/* the user words: at's first n */
};

static int by_name(const void *a, const void *b, void *arg)
{
	const struct lock_total *l = arg;
	int i = *(const int *)a, j = *(const int *)b;

	if (l[i].kernel != l[j].kernel)
		return l[i].kernel ? 1 : -1;
	return strcmp(l[i].name, l[j].name);
}

static void index_words(struct word_index *x, struct joined_run *out)
{
	x->out = out;
	x->n = 0;
	x->at = places_sorted(out->nlocks, out->locks, by_name);
	for (int i = 0; x->at && i < out->nlocks; i++)
		x->n += !out->locks[i].kernel;
}

/* out's user word named name, or NULL. */
static struct lock_total *word_of(const struct word_index *x, const char *name)
{
	struct joined_run *out = (struct joined_run *)x->out;
	int lo = 0, hi = x->n - 1;

	if (!x->at) {	/* no memory for the index: walk */
		for (int i = 0; i < out->nlocks; i++)
			if (!out->locks[i].kernel && !strcmp(out->locks[i].name, name))
				return &out->locks[i];
		return NULL;
	}
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(out->locks[x->at[mid]].name, name);

		if (!c)
			return &out->locks[x->at[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* One kept row's waits on a word, into the word's figures. */
static void add_use(struct joined_run *out, const struct word_index *x, const struct lock_use *u)
{
	struct lock_total *t = word_of(x, u->name);

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
	struct word_index x;
	int kept = 0;

	for (int i = 0; i < out->nlocks; i++) {
		struct lock_total *t = &out->locks[i];

		if (t->kernel)
			continue;
		t->waits = t->wait_ns = t->runq_ns = t->max_ns = 0;
		t->threads = 0;
	}
	out->event_wait_ns = 0;
	index_words(&x, out);
	for (unsigned i = 0; i < out->nrows; i++)
		for (int j = 0; !out->rows[i].aside && j < out->rows[i].nlocks; j++)
			add_use(out, &x, &out->rows[i].locks[j]);
	free(x.at);
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
	memcpy(out->rows, m->rows, m->nrows * sizeof(*out->rows));
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
