/*
 * holdcheck.c - the holders probes against a program's own figures.
 *
 *   holdcheck [--probes SET] [--expect locked|fixed|none] -- PROG [ARGS...]
 *
 * Runs PROG (tests/holdprog) under the probes SET (default
 * "holders,cpuclock"), from its exec to its exit, reads the watched user
 * locks, and prints, for every watched lock, what the BPF side measured
 * beside what PROG printed about itself (holdutil.c).
 *
 * --expect locked: held share within 25 % of PROG's, syscall share of
 * the hold within 10 points; --expect fixed: syscall share under 10 %.
 * Exit status 0 when the checks pass (or none asked), 1 if not, 2 on a
 * usage or setup error. Root (it loads BPF).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "holdutil.h"
#include "trace/probes.h"

struct args {
	unsigned groups;
	const char *expect;
	char **argv;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	a->groups = PG_MASK(PG_HOLDERS) | PG_MASK(PG_CPUCLOCK);
	a->expect = "none";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			a->argv = &argv[i + 1];
			return 0;
		}
		if (!strcmp(argv[i], "--probes") && i + 1 < argc) {
			if (probe_groups_parse(argv[++i], &a->groups))
				return -1;
		} else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
			a->expect = argv[++i];
		} else {
			return -1;
		}
	}
	return -1;
}

/* The checks --expect asks for, on the lock held longest; 0 when they pass. */
static int check(const char *expect, const struct hold_run *r)
{
	const struct fct_hold_lock *h = hold_main_lock(r);
	struct hold_cmp c;
	int bad = 0;

	if (!strcmp(expect, "none"))
		return 0;
	if (!h) {
		printf("check: FAIL: no watched lock\n");
		return !strcmp(expect, "locked");
	}
	hold_compare(h, &r->truth, &c);
	if (!strcmp(expect, "fixed")) {
		bad = !(c.sc_share_bpf < 10);
		printf("check: syscall share of the hold %.1f %% < 10 %%: %s\n", c.sc_share_bpf,
		       bad ? "FAIL" : "ok");
		return bad;
	}
	bad |= fabs(c.held_err) > 25;
	printf("check: held within 25 %%: %+.1f %%: %s\n", c.held_err,
	       fabs(c.held_err) > 25 ? "FAIL" : "ok");
	bad |= fabs(c.sc_share_bpf - c.sc_share_prog) > 10;
	printf("check: syscall share within 10 points: %+.1f: %s\n",
	       c.sc_share_bpf - c.sc_share_prog,
	       fabs(c.sc_share_bpf - c.sc_share_prog) > 10 ? "FAIL" : "ok");
	return bad;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	static struct hold_run r;

	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: holdcheck [--probes SET] [--expect locked|fixed|none] "
			"-- PROG [ARGS...]\n");
		return 2;
	}
	if (hold_run(a.argv, a.groups, stderr, &r))
		return 2;
	hold_print(stdout, &r);
	return check(a.expect, &r);
}
