/*
 * jvm_agent_run.h - fctrace's JVMTI agent in a run on a JVM
 * (jvm/jvm.h has the agent's own calls): added to a JVM fctrace
 * starts, loaded into one it attaches to, read and closed at the end.
 * Each prints one line when the agent cannot be had, and the run goes
 * on without it (HotSpot's probes still count what they can).
 */
#ifndef FCTRACE_JVM_AGENT_RUN_H
#define FCTRACE_JVM_AGENT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct jvm_agent;
struct jvm_view;

/* run -- java: -agentpath appended to *env (CMD's JAVA_TOOL_OPTIONS,
 * malloc'd; made from the caller's when NULL); its socket owned by
 * uid:gid. Call jvm_agent_set_pid once CMD's pid is known. */
struct jvm_agent *agent_for_exec(char **env, uid_t uid, gid_t gid);
/* attach -p: loaded into the running JVM pid (its libjvm.so open as
 * libjvm_fd), as its own user, by until (CLOCK_MONOTONIC ns) or a signal */
struct jvm_agent *agent_attach(pid_t pid, int libjvm_fd, uint64_t until);
/* The agent's totals and the JVM's thread names into v (when the JVM
 * still runs, from a thread dump too), within a second and a half
 * whatever the JVM does; then a is closed: the agent turns its events off. */
void agent_read(struct jvm_agent *a, pid_t pid, struct jvm_view *v);

#endif /* FCTRACE_JVM_AGENT_RUN_H */
