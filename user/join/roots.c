/*
 * roots.c - each measured lock's wait chain to its root (roots.h).
 *
 * A link's holders are judged by what their waiters waited behind
 * (lock_holders.waited_ns), not by the holds alone: a state that filled
 * the holds while nobody waited ends no wait. The chain follows a link
 * only when "waiting for another lock" leads and that lock is named and
 * measured; a chain that comes back on itself (a deadlock-prone order)
 * stops there, and says so.
 */
#include <string.h>
#include "join/join.h"
#include "join/roots.h"

static enum hold_state leading_state(const struct lock_holders *h, double *share)
{
	enum hold_state best = HS_SYSCALL;
	double all = 0;

	for (int s = 0; s < HS_N; s++) {
		all += h->waited_ns[s];
		if (h->waited_ns[s] > h->waited_ns[best])
			best = (enum hold_state)s;
	}
	*share = all > 0 ? h->waited_ns[best] / all : 0;
	return best;
}

/* The holders' call with the most time: of the calls that wait for time
 * or input when asleep (a sleep held), of all when in syscalls. */
static int leading_call(const struct lock_holders *h, enum hold_state s)
{
	double best = 0;
	int nr = -1;

	for (int i = 0; i < h->nnr; i++) {
		if (s == HS_BLOCKED && !join_idle_call(h->nr[i].nr))
			continue;
		if (h->nr[i].ns > best) {
			best = h->nr[i].ns;
			nr = h->nr[i].nr;
		}
	}
	return nr;
}

static const struct lock_total *measured_lock(const struct joined_run *m, const char *name)
{
	for (int i = 0; i < m->nlocks; i++)
		if (!m->locks[i].kernel && m->locks[i].holders.measured &&
		    !strcmp(m->locks[i].name, name))
			return &m->locks[i];
	return NULL;
}

static bool in_chain(const struct lock_root *r, const char *name)
{
	for (int i = 0; i < r->nlinks; i++)
		if (!strcmp(r->link[i], name))
			return true;
	return false;
}

static void root_of(const struct joined_run *m, const struct lock_total *l, struct lock_root *r)
{
	memset(r, 0, sizeof(*r));
	r->nr = -1;
	while (l && r->nlinks < ROOT_LINKS_MAX) {
		const struct lock_holders *h = &l->holders;
		const struct lock_total *next = NULL;
		int at = r->nlinks++;

		snprintf(r->link[at], sizeof(r->link[at]), "%s", l->name);
		r->state = leading_state(h, &r->share[at]);
		r->nr = r->state == HS_SYSCALL || r->state == HS_BLOCKED ?
			leading_call(h, r->state) : -1;
		if (r->state == HS_WAITING && h->nchain && h->chain[0].is_lock && h->chain[0].lock[0])
			next = measured_lock(m, h->chain[0].lock);
		if (next && in_chain(r, next->name)) {
			r->cycle = true;
			break;
		}
		l = next;
	}
}

void roots_join(struct joined_run *m)
{
	for (int i = 0; i < m->nlocks; i++) {
		struct lock_total *l = &m->locks[i];

		if (!l->kernel && l->holders.measured)
			root_of(m, l, &l->root);
		else
			memset(&l->root, 0, sizeof(l->root));
	}
}
