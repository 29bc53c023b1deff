/*
 * waitroots_print.c - where the program's waits end: the wait-for
 * graph's roots (join/waitroots.c), one row a thread, with what its own
 * time went to.
 */
#include "base/units.h"
#include "report/waitroots_print.h"

void wait_roots_print(FILE *f, const struct joined_run *m)
{
	const struct wait_graph *g = &m->graph;
	char ended[16], direct[16], waited[16], cpu[16], asleep[16], runq[16], who[40];

	if (!g->nroots)
		return;
	fprintf(f, "\nWhere the waits end (each wait followed to the thread that ended it, and on "
		"through\nthat thread's own waits; its account, of its wall)\n"
		"%-28s %9s %9s %7s %7s %7s %8s\n", "thread", "ended", "direct", "waited",
		"on CPU", "asleep", "runnable");
	for (int i = 0; i < g->nroots; i++) {
		const struct wait_root *r = &g->roots[i];

		snprintf(who, sizeof(who), "%d %s", (int)r->tid, r->comm);
		fprintf(f, "%-28.28s %9s %9s %7s %7s %7s %8s\n", who,
			units_ns(ended, sizeof(ended), r->ended_ns),
			units_ns(direct, sizeof(direct), r->direct_ns),
			units_pct(waited, sizeof(waited), r->waited_share),
			units_pct(cpu, sizeof(cpu), r->cpu_share),
			units_pct(asleep, sizeof(asleep), r->blocked_share),
			units_pct(runq, sizeof(runq), r->runq_share));
	}
	fprintf(f, "ended: other threads' waits that end in its own work; direct: the waits it "
		"ended\n  itself; waited: its own waits on other threads; asleep: in syscalls "
		"(I/O and the rest)\n");
}
