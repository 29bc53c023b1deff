/*
 * bench_jvm_agent.c - fctrace's JVMTI agent alone (no BPF), for
 * tests/bench.sh's JVM part: load it into JVM PID, keep it SECONDS
 * seconds, ask for its totals, close it. Prints what it walked:
 *   agent waits=N walks=N park_stacks=N seconds=S
 *
 * usage: bench_jvm_agent PID SECONDS   (next to ./fctrace-jvmti.so; root)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/deadline.h"
#include "base/as_target.h"
#include "jvm/jvm.h"

int main(int argc, char **argv)
{
	char file[PATH_MAX], why[320], *dump;
	unsigned long long waits = 0, walks = 0, stacks = 0;
	struct target_cred cred = { 0 };
	struct jvm_agent *a;
	pid_t pid;

	if (argc != 3 || (pid = (pid_t)atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: bench_jvm_agent PID SECONDS\n");
		return 2;
	}
	if (!realpath("fctrace-jvmti.so", file)) {
		fprintf(stderr, "bench_jvm_agent: no ./fctrace-jvmti.so (make)\n");
		return 1;
	}
	if (target_cred_of(pid, &cred) ||
	    !(a = jvm_agent_listen(pid, true, &cred, why, sizeof(why))) ||
	    jvm_agent_load(a, file, deadline_in_ms(20000), why, sizeof(why))) {
		fprintf(stderr, "bench_jvm_agent: %s\n", why);
		jvm_agent_close(a);
		return 1;
	}
	sleep((unsigned)atoi(argv[2]));
	dump = jvm_agent_dump(a, deadline_in_ms(3000));
	for (char *l = dump; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		unsigned long long w, k;
		char kind;

		if (sscanf(l, "R\t%c\t%*u\t%*d\t%llu\t%*u\t%llu", &kind, &w, &k) == 3 && kind != 'p') {
			waits += w;
			walks += k;
		}
		sscanf(l, "L\t%*u\t%llu", &stacks);
	}
	printf("agent waits=%llu walks=%llu park_stacks=%llu seconds=%s\n", waits, walks, stacks,
	       argv[2]);
	free(dump);
	jvm_agent_close(a);
	return 0;
}
