/*
 * holders.c - a watched lock's kernel figures (struct fct_hold_lock) as
 * the partition holders.h describes.
 *
 * The probes keep overlapping views: a syscall's time (entry to exit)
 * holds the time it spent off CPU, asleep or preempted, and the futex
 * waits on other words among them. The partition takes the off-CPU time
 * out of the syscalls, and the futex waits (mostly asleep) out of the
 * blocked time, so that the states add up to the time held.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "join/holders.h"

#define SAMPLE_NS	(1e9 / FCT_CPUCLOCK_HZ)

static const char *const state_names[HS_N] = {
	[HS_SYSCALL] = "syscall", [HS_BLOCKED] = "blocked", [HS_PREEMPTED] = "preempted",
	[HS_USER] = "user", [HS_WAITING] = "waiting",
};

const char *hold_state_name(enum hold_state s)
{
	return s < HS_N ? state_names[s] : "?";
}

const char *holders_method(const struct lock_holders *h)
{
	if (h->java)
		return "owner field (HotSpot's ObjectMonitor::_owner, against each thread's "
		       "JavaThread) read at the holder's state edges, from the monitor's fourth "
		       "blocking enter: syscalls and time off CPU exact, time on CPU outside "
		       "syscalls from cpu-clock samples";
	return "owner field (glibc's __owner) read at the holder's state edges: syscalls and "
	       "time off CPU exact, time on CPU outside syscalls from cpu-clock samples";
}

/* One field of a state's figures: 0 all of it, 1 the waiters' time in it. */
static double part(const struct fct_hold_time *t, int f, bool sampled)
{
	double v = f ? (double)t->waiter_ns : (double)t->ns;

	return sampled ? v * SAMPLE_NS : v;
}

static double clamp0(double v)
{
	return v > 0 ? v : 0;
}

/*
 * The most a charged syscall's entry and exit paths (outside its
 * tracepoints, fctrace's own programs included) take: 2.6 us a call on
 * this retpoline VM under the full set (holdprog's own clocks against the
 * tracepoints' time, 80 k calls). Kernel samples past that many calls
 * are faults and interrupts in the holder's user code: a lock held with
 * no syscall is not "in syscalls" because a page fault was sampled.
 */
#define HOLD_PATH_MAX_NS	10000.0

double holders_path_share(const struct fct_hold_lock *k)
{
	double paths = ((double)k->samples_kernel.ns + (double)k->samples_sc_return.ns) * SAMPLE_NS;
	double most = (double)k->sc_count * HOLD_PATH_MAX_NS;

	return paths <= most ? 1 : most / paths;
}

/*
 * The least its charged syscalls' paths outside their tracepoints took:
 * by number, the shortest span measured in place from such a call's exit
 * to the same thread's next entry still holding (its exit path with the
 * task work there, the next entry's path, fctrace's programs' parts
 * outside their clock reads, and the least user code between two calls);
 * a number with no span, the shortest of any. A span longer than any
 * path is user work between the calls: not a path.
 */
static double edges_least_ns(const struct fct_hold_lock *k)
{
	double least = 0, sum = 0;
	uint64_t spanned = 0;

	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++) {
		double g = (double)k->nr[nr].gap_min_ns;

		if (!g || g > HOLD_PATH_MAX_NS)
			continue;
		if (!least || g < least)
			least = g;
		sum += (double)k->nr[nr].count * g;
		spanned += k->nr[nr].count;
	}
	return sum + (double)(k->sc_count > spanned ? k->sc_count - spanned : 0) * least;
}

/*
 * Of a word's user-mode samples, the share that is its charged syscalls'
 * paths seen late: what the kernel samples did not see of their least
 * time (edges_least_ns), the timer saw in user mode past the return (on
 * this VM the samples put 8-15 points of an all-syscall hold there).
 */
double holders_edge_share(const struct fct_hold_lock *k)
{
	double user = (double)k->samples_user.ns * SAMPLE_NS;
	double seen = ((double)k->samples_kernel.ns + (double)k->samples_sc_return.ns) *
		      SAMPLE_NS * holders_path_share(k) + (double)k->span.ns;
	double unseen = k->gaps ? edges_least_ns(k) - seen : 0;

	if (user <= 0 || unseen <= 0)
		return 0;
	return unseen >= user ? 1 : unseen / user;
}

/*
 * A span from a charged syscall's exit to its thread's next edge, past
 * the paths' bound the probes allow it, holds either user work between
 * the calls or what interrupted the paths: an IPI or a timer interrupt
 * costs 15-40 us in this VM, a wake-up IPI lands in a holder's span
 * hundreds of times a second when 8 threads contend, and the program's
 * clock counts it in the call it interrupted. Each falls where the time
 * is, so the samples inside the spans say which: in user mode off a
 * syscall's return point, user work. No sample, no evidence of paths:
 * user. (The samples over-count user mode in the paths here, by ~20 % of
 * them against ~3 % of the spans' time by the program's clock: the share
 * errs toward user.)
 */
double holders_span_user_share(const struct fct_hold_lock *k)
{
	if (!k->span_samples || k->span_samples_user >= k->span_samples)
		return 1;	/* (more user than all: a torn read, as no sample) */
	return (double)k->span_samples_user / (double)k->span_samples;
}

/* The partition of one word's figures, all of it (f 0) or the waiters'
 * time (f 1). A preemption on a charged syscall's way back to user space
 * is the syscall's: it leaves the lock with the call. So is a span from a
 * charged exit to the next entry or switch out holding the lock, up to
 * the paths' bound (holders.bpf.h): its exit path and the next entry's. */
static void partition(const struct fct_hold_lock *k, int f, double out[HS_N])
{
	double sc = part(&k->sc, f, false), sc_b = part(&k->sc_blocked, f, false);
	double sc_p = part(&k->sc_preempted, f, false), sc_f = part(&k->sc_futex, f, false);
	double kernel = part(&k->samples_kernel, f, true) + part(&k->samples_sc_return, f, true);
	double paths = kernel * holders_path_share(k);
	double user = part(&k->samples_user, f, true), edges = user * holders_edge_share(k);
	double past = part(&k->span_user, f, false), past_user = past * holders_span_user_share(k);
	double sp_p = part(&k->span_preempted, f, false);
	double sp_p_user = sp_p * holders_span_user_share(k);

	out[HS_SYSCALL] = clamp0(sc - sc_b - sc_p - sc_f) + paths + edges +
			  part(&k->sc_edge, f, false) + part(&k->span, f, false) + past - past_user +
			  sp_p - sp_p_user;
	/* a futex wait on another word is asleep, mostly: its off-CPU part
	 * came into sc_blocked, and leaves it for HS_WAITING */
	out[HS_BLOCKED] = clamp0(sc_b - sc_f) + part(&k->blocked, f, false);
	out[HS_PREEMPTED] = sc_p + part(&k->preempted, f, false) + sp_p_user;
	out[HS_USER] = user - edges + kernel - paths + past_user;
	out[HS_WAITING] = sc_f;
}

/* Keep a syscall's count and time; the most frequent ones if full. */
static void add_nr(struct lock_holders *h, uint16_t nr, const struct fct_hold_nr *v)
{
	int i, least = 0;

	for (i = 0; i < h->nnr; i++)
		if (h->nr[i].nr == nr)
			break;
	if (i == h->nnr && h->nnr < HOLDERS_MAX_NR)
		h->nr[h->nnr++] = (struct hold_nr){ .nr = nr };
	else if (i == h->nnr) {
		for (int j = 1; j < h->nnr; j++)
			if (h->nr[j].count < h->nr[least].count)
				least = j;
		if (h->nr[least].count >= v->count)
			return;
		i = least;
		h->nr[i] = (struct hold_nr){ .nr = nr };
	}
	h->nr[i].count += v->count;
	h->nr[i].ns += (double)v->ns;
}

static int by_count(const void *a, const void *b)
{
	const struct hold_nr *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

static int by_chain_ns(const void *a, const void *b)
{
	const struct hold_chain *x = a, *y = b;

	return (x->ns < y->ns) - (x->ns > y->ns);
}

/* k's chain into h's, merged by word */
static void add_chain(struct lock_holders *h, const struct fct_hold_lock *k)
{
	for (int c = 0; c < FCT_HOLD_CHAIN; c++) {
		const struct fct_hold_chain *kc = &k->chain[c];
		int i;

		if (!kc->uaddr)
			continue;
		for (i = 0; i < h->nchain; i++)
			if (h->chain[i].uaddr == kc->uaddr && h->chain[i].tgid == k->tgid)
				break;
		if (i == h->nchain && h->nchain == HOLDERS_MAX_CHAIN)
			continue;
		if (i == h->nchain)
			h->chain[h->nchain++] = (struct hold_chain){ .uaddr = kc->uaddr,
								     .tgid = k->tgid };
		h->chain[i].count += kc->count;
		h->chain[i].ns += (double)kc->ns;
	}
	qsort(h->chain, (size_t)h->nchain, sizeof(*h->chain), by_chain_ns);
}

void holders_name_chain(struct lock_holders *h, hold_namer_fn namer, const void *arg)
{
	for (int i = 0; i < h->nchain; i++)
		if (!h->chain[i].lock[0])
			h->chain[i].is_lock = namer(arg, h->chain[i].tgid, h->chain[i].uaddr,
						    h->chain[i].lock, sizeof(h->chain[i].lock));
}

void holders_add(struct lock_holders *h, const struct fct_hold_lock *k, bool disk)
{
	double all[HS_N], waited[HS_N];

	partition(k, 0, all);
	partition(k, 1, waited);
	h->measured = true;
	h->disk_measured = disk;
	h->disk_ios += k->disk_ios;
	h->disk_ns += (double)k->disk.ns;
	h->disk_waited_ns += (double)k->disk.waiter_ns;
	h->words++;
	for (int s = 0; s < HS_N; s++) {
		h->state_ns[s] += all[s];
		h->waited_ns[s] += waited[s];
		h->held_ns += all[s];
	}
	h->contended_ns += (double)(k->sc.contended_ns + k->sc_edge.contended_ns +
				    k->span.contended_ns + k->span_user.contended_ns +
				    k->span_preempted.contended_ns +
				    k->blocked.contended_ns + k->preempted.contended_ns) +
			   (double)(k->samples_user.contended_ns + k->samples_kernel.contended_ns +
				    k->samples_sc_return.contended_ns) * SAMPLE_NS;
	h->samples += k->samples_user.ns + k->samples_kernel.ns + k->samples_sc_return.ns;
	h->syscalls += k->sc_count;
	h->waits += k->waits;
	for (unsigned nr = 0; nr < FCT_NR_MAX; nr++)
		if (k->nr[nr].count)
			add_nr(h, (uint16_t)nr, &k->nr[nr]);
	qsort(h->nr, (size_t)h->nnr, sizeof(*h->nr), by_count);
	add_chain(h, k);
}

void holders_whole_ns(struct lock_holders *h)
{
	for (int s = 0; s < HS_N; s++) {
		h->state_ns[s] = floor(h->state_ns[s]);
		h->waited_ns[s] = floor(h->waited_ns[s]);
	}
	h->held_ns = floor(h->held_ns);
	for (int i = 0; i < h->nchain; i++)
		h->chain[i].ns = floor(h->chain[i].ns);
	h->waiter_ns = floor(h->waiter_ns);
	h->contended_ns = floor(h->contended_ns);
	h->disk_ns = floor(h->disk_ns);
	h->disk_waited_ns = floor(h->disk_waited_ns);
}

double holders_handoff_ns(const struct lock_holders *h)
{
	double behind = 0;

	/* whole nanoseconds, as JSON keeps them: a saved run gives it back */
	for (int s = 0; s < HS_N; s++)
		behind += floor(h->waited_ns[s]);
	return clamp0(floor(h->waiter_ns) - behind);
}
