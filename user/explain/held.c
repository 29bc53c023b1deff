/*
 * held.c - the holder's side of a lock in words (held.h). Every sentence
 * is made of figures measured in the run; none depends on which program
 * ran.
 */
#include <stdio.h>
#include <string.h>
#include "base/sysnames.h"
#include "explain/held.h"
#include "explain/roles.h"
#include "explain/words.h"

/* States below this share of the held time are not worth a word. */
#define HELD_MIN_PART	0.01

const char *held_state_key(char *buf, size_t n, const char *of, enum hold_state s)
{
	static const char *const names[HS_N] = {
		[HS_SYSCALL] = "syscall", [HS_BLOCKED] = "blocked", [HS_PREEMPTED] = "preempted",
		[HS_USER] = "user", [HS_WAITING] = "waiting",
	};

	snprintf(buf, n, "%s_%s_share", of, (unsigned)s < HS_N ? names[s] : "other");
	return buf;
}

double held_share(const struct lock_holders *h, enum hold_state s)
{
	return fig_ratio(h->state_ns[s], h->held_ns);
}

enum hold_state held_main_state(const struct lock_holders *h)
{
	enum hold_state best = HS_SYSCALL;

	for (int s = 0; s < HS_N; s++)
		if (h->state_ns[s] > h->state_ns[best])
			best = (enum hold_state)s;
	return best;
}

/* "openat, newfstatat, close": the most frequent calls made holding it. */
static void call_names(char *buf, size_t n, const struct lock_holders *h, int max)
{
	char tmp[32];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < h->nnr && i < max && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
					syscall_name(h->nr[i].nr, tmp, sizeof(tmp)));
}

/* The share of the time held a holder's disk request was in flight. */
static double disk_share(const struct lock_holders *h)
{
	return h->disk_measured ? fig_ratio(h->disk_ns, h->held_ns) : 0;
}

/* Where the disk group ran and no request was made holding it, the
 * sleep was something else. */
static void blocked_words(char *buf, size_t n, const struct lock_holders *h)
{
	if (h->disk_measured && !h->disk_ios)
		snprintf(buf, n, "asleep (not on the disk: a sleep, a socket or pipe, a fault)");
	else
		snprintf(buf, n, "asleep (I/O, a page-cache miss, a sleep or a fault)");
}

void held_state_words(char *buf, size_t n, const struct lock_holders *h, enum hold_state s)
{
	char calls[128];

	switch (s) {
	case HS_SYSCALL:
		call_names(calls, sizeof(calls), h, 3);
		snprintf(buf, n, h->nnr ? "in syscalls (%s)" : "in syscalls", calls);
		break;
	case HS_BLOCKED:
		blocked_words(buf, n, h);
		break;
	case HS_PREEMPTED:
		snprintf(buf, n, "preempted (runnable, not running)");
		break;
	case HS_USER:
		snprintf(buf, n, "on CPU in user space");
		break;
	default:
		/* a lock chain named; glibc's own condvar bookkeeping (a
		 * signaller's wait on __g_refs) is no other lock */
		if (h->nchain && h->chain[0].is_lock)
			snprintf(buf, n, "waiting for another lock (%s%s)", h->nchain > 1 ?
				 "mostly " : "", h->chain[0].lock);
		else
			snprintf(buf, n, "waiting for another lock");
		break;
	}
}

/* "80.8 k calls: openat 27.0 k, newfstatat 27.0 k, close 26.9 k" */
static void call_counts(char *buf, size_t n, const struct lock_holders *h)
{
	char tmp[32];
	size_t len = (size_t)snprintf(buf, n, "%s call%s", fig_cnt((double)h->syscalls),
				      fig_plural((double)h->syscalls));

	for (int i = 0; i < h->nnr && i < 4 && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%s%s %s", i ? ", " : ": ",
					syscall_name(h->nr[i].nr, tmp, sizeof(tmp)),
					fig_cnt((double)h->nr[i].count));
}

/* The states by share, largest first, those that matter: "in syscalls
 * 50 % of the time (...), preempted 36 %, on CPU in user space 14 %". */
static void inside_words(char *buf, size_t n, const struct lock_holders *h)
{
	bool done[HS_N] = { false };
	char words[200], calls[200];
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < HS_N && len < n; k++) {
		int best = -1;

		for (int s = 0; s < HS_N; s++)
			if (!done[s] && (best < 0 || h->state_ns[s] > h->state_ns[best]))
				best = s;
		done[best] = true;
		if (held_share(h, best) < HELD_MIN_PART)
			break;
		held_state_words(words, sizeof(words), h, best);
		if (best == HS_SYSCALL) {
			call_counts(calls, sizeof(calls), h);
			len += (size_t)snprintf(buf + len, n - len, "%sin syscalls %s of the time (%s)",
						k ? ", " : "", fig_pct(held_share(h, best)), calls);
		} else {
			len += (size_t)snprintf(buf + len, n - len, "%s%s %s", k ? ", " : "", words,
						fig_pct(held_share(h, best)));
		}
	}
}

/* What a holder was doing, as the waiters' time behind it is told. */
static const char *const behind[HS_N] = {
	[HS_SYSCALL] = "in syscalls", [HS_BLOCKED] = "asleep",
	[HS_PREEMPTED] = "preempted", [HS_USER] = "on CPU in user space",
	[HS_WAITING] = "waiting for another lock",
};

/* Of the waiters' time: behind which state of the holder, and hand-off. */
static void waited_words(char *buf, size_t n, const struct lock_holders *h)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int s = 0; s < HS_N && len < n; s++)
		if (fig_ratio(h->waited_ns[s], h->waiter_ns) >= HELD_MIN_PART)
			len += (size_t)snprintf(buf + len, n - len, "%s while the holder was %s, ",
						fig_pct(fig_ratio(h->waited_ns[s], h->waiter_ns)),
						behind[s]);
}

/* The holders' disk requests, across the states above: a request's time
 * runs from its submission in a syscall to its completion, on CPU and
 * asleep alike. */
static void disk_evidence(struct diag_cause *c, const struct lock_total *l)
{
	const struct lock_holders *h = &l->holders;

	if (!h->disk_measured || !h->disk_ios)
		return;
	evidence_add(c, "A disk request its holder had submitted was in flight %s of the time %s "
		     "was held (%s request%s, %s), and %s of its waiters' time passed then.",
		     fig_pct(fig_ratio(h->disk_ns, h->held_ns)), l->name,
		     fig_cnt((double)h->disk_ios), fig_plural((double)h->disk_ios),
		     fig_ns(h->disk_ns), fig_pct(fig_ratio(h->disk_waited_ns, h->waiter_ns)));
}

void held_disk_link(struct diag_cause *c, const struct joined_run *m)
{
	const struct lock_total *best = NULL;

	for (int i = 0; i < m->nlocks; i++) {
		const struct lock_holders *h = &m->locks[i].holders;

		if (h->disk_measured && h->disk_ios &&
		    (!best || h->disk_waited_ns > best->holders.disk_waited_ns))
			best = &m->locks[i];
	}
	if (!best)
		return;
	cause_fig(c, "lock_disk_ios", (double)best->holders.disk_ios);
	cause_fig(c, "lock_disk_waited_ns", best->holders.disk_waited_ns);
	cause_fig(c, "lock_disk_waited_share",
		  fig_ratio(best->holders.disk_waited_ns, best->holders.waiter_ns));
	evidence_add(c, "%s of the threads' disk requests were submitted holding %s: while one was in flight "
		     "its waiters waited %s (%s of their time on it), which that lock's cause "
		     "counts.", fig_cnt((double)best->holders.disk_ios), best->name,
		     fig_ns(best->holders.disk_waited_ns),
		     fig_pct(fig_ratio(best->holders.disk_waited_ns, best->holders.waiter_ns)));
}

/* What the root's holders did: "asleep in clock_nanosleep". */
static void root_state_words(char *buf, size_t n, const struct lock_root *r)
{
	const char *what = r->state == HS_WAITING ? "waiting for a lock not measured" :
			   behind[r->state];
	char call[32];

	if (r->nr >= 0)
		snprintf(buf, n, "%s in %s", what, syscall_name((unsigned)r->nr, call, sizeof(call)));
	else
		snprintf(buf, n, "%s", what);
}

/* A chain of two or more locks, link by link to the root (roots.h). */
static void chain_evidence(struct diag_cause *c, const struct lock_root *r)
{
	char text[900], state[80];
	size_t len = 0;

	if (r->nlinks < 2)
		return;
	text[0] = '\0';
	for (int i = 0; i + 1 < r->nlinks && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s's waiters waited %s "
					"behind holders waiting for %s", i ? "; " : "", r->link[i],
					fig_pct(r->share[i]), r->link[i + 1]);
	root_state_words(state, sizeof(state), r);
	if (r->cycle)
		evidence_add(c, "The chain to its root: %s, whose holders wait for a lock already "
			     "in the chain: the locks are taken in both orders.", text);
	else
		evidence_add(c, "The chain to its root: %s; %s's waiters waited %s behind holders "
			     "%s. That is the root: shortening it shortens every hold along the "
			     "chain.", text, r->link[r->nlinks - 1],
			     fig_pct(r->share[r->nlinks - 1]), state);
}

/* The disk's and the chain's figures: said only where their sentences are
 * (a disk measured with no request: disk_ios 0, the sleep not the disk's). */
static void disk_chain_figures(struct diag_cause *c, const struct lock_total *l)
{
	const struct lock_holders *h = &l->holders;
	const struct lock_root *r = &l->root;

	if (h->disk_measured)
		cause_fig(c, "disk_ios", (double)h->disk_ios);
	if (h->disk_measured && h->disk_ios) {
		cause_fig(c, "disk_in_flight_share", fig_ratio(h->disk_ns, h->held_ns));
		if (h->waiter_ns > 0)
			cause_fig(c, "disk_waited_share", fig_ratio(h->disk_waited_ns, h->waiter_ns));
	}
	if (r->nlinks < 2 || h->waiter_ns <= 0)
		return;
	cause_fig(c, "chain_links", r->nlinks);
	if (r->cycle)
		cause_fig(c, "chain_cycle", 1);
	else
		cause_fig(c, "root_share", r->share[r->nlinks - 1]);
}

/*
 * In the order a cause keeps them when it has no room for all: what the
 * lock costs, what its holders did holding it, what its waiters waited
 * behind. The states below HELD_MIN_PART are not said, nor set.
 */
void held_figures(struct diag_cause *c, const struct lock_total *l, const struct held_ctx *x)
{
	const struct lock_holders *h = &l->holders;
	char key[sizeof(c->figs[0].key)];

	cause_fig(c, "held_ns", h->held_ns);
	cause_fig(c, "busy_share", fig_ratio(h->held_ns, x->wall_ns));
	for (int s = 0; s < HS_N; s++)
		if (held_share(h, s) >= HELD_MIN_PART)
			cause_fig(c, held_state_key(key, sizeof(key), "holders", s), held_share(h, s));
	if (held_share(h, HS_WAITING) >= HELD_MIN_PART && h->nchain && h->chain[0].is_lock)
		cause_fig(c, "inner_lock_share", fig_ratio(h->chain[0].ns, h->held_ns));
	cause_fig(c, "holders_syscalls", (double)h->syscalls);
	if (h->waiter_ns > 0) {
		cause_fig(c, "waiters_wait_ns", h->waiter_ns);
		cause_fig(c, "handoff_share", fig_ratio(holders_handoff_ns(h), h->waiter_ns));
	}
	disk_chain_figures(c, l);
	for (int s = 0; s < HS_N && h->waiter_ns > 0; s++)
		if (fig_ratio(h->waited_ns[s], h->waiter_ns) >= HELD_MIN_PART)
			cause_fig(c, held_state_key(key, sizeof(key), "behind", s),
				  fig_ratio(h->waited_ns[s], h->waiter_ns));
}

void held_evidence(struct diag_cause *c, const struct lock_total *l, const struct held_ctx *x)
{
	const struct lock_holders *h = &l->holders;
	double busy = fig_ratio(h->held_ns, x->wall_ns), handoff = holders_handoff_ns(h);
	char inside[400], waited[300];

	held_figures(c, l, x);
	evidence_add(c, "%s was held %s of the %s window (%s busy), as the holders probes estimate "
		     "it: syscalls and time off CPU exact, time on CPU outside syscalls from %s "
		     "cpu-clock samples.", l->name, fig_ns(h->held_ns), fig_ns(x->wall_ns),
		     fig_pct(busy), fig_cnt((double)h->samples));
	inside_words(inside, sizeof(inside), h);
	if (inside[0])
		evidence_add(c, "Holding it, its holders were %s.", inside);
	if (busy > 0.05)
		evidence_add(c, "A lock busy %s of the window caps the program at %.1f x its speed "
			     "however many threads run: only shorter holds raise the cap.",
			     fig_pct(busy), 1 / busy);
	if (h->waiter_ns <= 0)
		return;
	waited_words(waited, sizeof(waited), h);
	evidence_add(c, "Threads waited for it %s (%s of thread time): %sand %s in hand-off, the "
		     "lock released and the next waiter woken but not yet running.",
		     fig_ns(h->waiter_ns), fig_pct(fig_ratio(h->waiter_ns, x->thread_ns)), waited,
		     fig_pct(fig_ratio(handoff, h->waiter_ns)));
	disk_evidence(c, l);
	chain_evidence(c, &l->root);
	if (l->waits && handoff > 0)
		evidence_add(c, "That hand-off is %s per wait over %s wait%s%s.",
			     fig_ns(handoff / (double)l->waits), fig_cnt((double)l->waits),
			     fig_plural((double)l->waits),
			     x->threads > x->ncpus ? ", mostly a woken waiter queued for a CPU: more "
			     "runnable threads than CPUs" : ": a futex wake-up and a context switch");
}

void held_fix(char *buf, size_t n, const struct lock_total *l)
{
	const struct lock_holders *h = &l->holders;
	char calls[128];

	switch (held_main_state(h)) {
	case HS_SYSCALL:
		call_names(calls, sizeof(calls), h, 3);
		snprintf(buf, n, "Make the syscalls (%s) before or after holding %s, and hold it only "
			 "to read or publish their results.", calls, l->name);
		break;
	case HS_BLOCKED:
		if (disk_share(h) >= 0.5 * held_share(h, HS_BLOCKED))
			snprintf(buf, n, "Its holders wait for the disk holding %s (%s requests in "
				 "flight %s of the time held): read or write before taking it, or "
				 "keep the data in memory.", l->name, fig_cnt((double)h->disk_ios),
				 fig_pct(disk_share(h)));
		else
			snprintf(buf, n, "Its holders sleep holding %s: do the I/O (or whatever they "
				 "wait for) outside it.", l->name);
		break;
	case HS_PREEMPTED:
		snprintf(buf, n, "Its holders are preempted holding %s: run no more busy threads "
			 "than CPUs, or shorten what is done holding it.", l->name);
		break;
	case HS_USER:
		snprintf(buf, n, "Do less holding %s, or split it so that threads working on "
			 "different data take different locks.", l->name);
		break;
	default:
		if (l->root.nlinks >= 2 && !l->root.cycle) {
			char state[80];

			root_state_words(state, sizeof(state), &l->root);
			snprintf(buf, n, "Holders of %s wait for %s while holding it, and the chain "
				 "ends at %s's holders %s: shorten that, or take no lock while "
				 "holding %s.", l->name, l->root.link[1],
				 l->root.link[l->root.nlinks - 1], state, l->name);
			break;
		}
		snprintf(buf, n, "Holders of %s wait for %s while holding it: shorten the inner "
			 "lock's holds or take the two in one step.", l->name,
			 l->holders.nchain && l->holders.chain[0].is_lock ?
			 l->holders.chain[0].lock : "another lock");
		break;
	}
}

/* ---- a gate: held while its holder sleeps ------------------------------- */

/* Only sleeps in calls that wait for time or input: a futex wait on
 * another word while holding (HS_WAITING) is a lock chain or glibc's own
 * condvar bookkeeping (a signaller's wait on __g_refs), no gate. */
double held_parked_ns(const struct lock_holders *h, int *nr)
{
	double ns = 0, best = 0;

	*nr = -1;
	for (int i = 0; i < h->nnr; i++) {
		if (!join_idle_call(h->nr[i].nr))
			continue;
		ns += h->nr[i].ns;
		if (h->nr[i].ns > best) {
			best = h->nr[i].ns;
			*nr = h->nr[i].nr;
		}
	}
	return ns < h->held_ns ? ns : h->held_ns;
}

bool held_is_gate(const struct lock_holders *h)
{
	int nr;

	return h->measured && h->held_ns > 0 &&
	       held_parked_ns(h, &nr) >= HELD_GATE_SHARE * h->held_ns;
}

static void gate_call(char *buf, size_t n, const struct lock_holders *h)
{
	int nr;

	held_parked_ns(h, &nr);
	if (nr < 0)
		snprintf(buf, n, "a wait for time or input");
	else
		snprintf(buf, n, "%s", syscall_name((unsigned)nr, buf, (unsigned)n));
}

void held_gate_evidence(struct diag_cause *c, const struct lock_total *l)
{
	const struct lock_holders *h = &l->holders;
	char call[64];
	int nr;

	gate_call(call, sizeof(call), h);
	cause_fig(c, "held_ns", h->held_ns);
	cause_fig(c, "parked_ns", held_parked_ns(h, &nr));
	cause_fig(c, "parked_share", fig_ratio(held_parked_ns(h, &nr), h->held_ns));
	cause_fig(c, "waiter_threads", l->threads);
	cause_fig(c, "wait_ns", (double)l->wait_ns);
	evidence_add(c, "%s was held %s in all, and %s of that (%s) its holder slept outside it, "
		     "most in %s: a thread does not sleep for input or time holding a lock it "
		     "means to hand on, so this lock is a gate that parks its waiters on purpose.",
		     l->name, fig_ns(h->held_ns), fig_pct(fig_ratio(held_parked_ns(h, &nr), h->held_ns)),
		     fig_ns(held_parked_ns(h, &nr)), call);
	evidence_add(c, "Its %u waiting thread%s waited %s: parked until the holder opens the gate, "
		     "not queued behind work done under the lock.", l->threads,
		     fig_plural(l->threads), fig_ns((double)l->wait_ns));
}

void held_gate_fix(char *buf, size_t n, const struct lock_total *l)
{
	snprintf(buf, n, "%s is a gate, not contention to shorten: the threads parked on it run "
		 "only when its holder releases it. If they should be working, find what makes the "
		 "program open the gate (more load, a setting that enables them); otherwise their "
		 "wait costs nothing.", l->name);
}
