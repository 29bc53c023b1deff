/*
 * jvm_group.c - which of a JVM's threads are the application's and which
 * the JVM's own, by name. HotSpot names its threads itself, and sets each
 * one's comm to the first 15 bytes of the name, so one table serves both:
 * a numbered family matches by prefix (all prefixes fit in 15 bytes), a
 * single thread by its full name or that name cut to 15 bytes.
 */
#include <string.h>
#include "jvm/jvm.h"

#define COMM_LEN 15	/* TASK_COMM_LEN - 1 */

struct jvm_name {
	const char *name;
	bool prefix;		/* a family: "GC Thread#" matches "GC Thread#3" */
	enum jvm_group group;
};

static const struct jvm_name names[] = {
	{ "GC Thread#", true, JVM_G_GC },		/* G1, Parallel workers */
	{ "G1 Main Marker", false, JVM_G_GC },
	{ "G1 Conc#", true, JVM_G_GC },
	{ "G1 Refine#", true, JVM_G_GC },
	{ "G1 Service", false, JVM_G_GC },
	{ "G1 Young RemSet Sampling", false, JVM_G_GC },
	{ "VM Thread", false, JVM_G_RUNTIME },		/* runs the safepoint ops, GC too */
	{ "ZDirector", false, JVM_G_GC },		/* ZGC's */
	{ "ZDriver", false, JVM_G_GC },
	{ "ZStat", false, JVM_G_GC },
	{ "ZUnmapper", false, JVM_G_GC },
	{ "ZUncommitter", false, JVM_G_GC },
	{ "ZWorker#", true, JVM_G_GC },
	{ "Shenandoah", true, JVM_G_GC },
	{ "C1 CompilerThread", true, JVM_G_JIT },
	{ "C2 CompilerThread", true, JVM_G_JIT },
	{ "JVMCI CompilerThread", true, JVM_G_JIT },
	{ "Sweeper thread", false, JVM_G_JIT },
	{ "VM Periodic Task Thread", false, JVM_G_RUNTIME },
	{ "Service Thread", false, JVM_G_RUNTIME },
	{ "Signal Dispatcher", false, JVM_G_RUNTIME },
	{ "Monitor Deflation Thread", false, JVM_G_RUNTIME },
	{ "Notification Thread", false, JVM_G_RUNTIME },
	{ "Attach Listener", false, JVM_G_RUNTIME },
	{ "fctrace agent", false, JVM_G_RUNTIME },	/* fctrace's own JVMTI agent */
	{ "Surrogate Locker Thread (Concurrent GC)", false, JVM_G_RUNTIME },
	{ "JFR ", true, JVM_G_RUNTIME },
	{ "Reference Handler", false, JVM_G_LIBRARY },
	{ "Finalizer", false, JVM_G_LIBRARY },
	{ "Common-Cleaner", false, JVM_G_LIBRARY },
	{ "process reaper", false, JVM_G_LIBRARY },
};

static bool matches(const struct jvm_name *n, const char *name)
{
	size_t len = strlen(n->name);

	if (n->prefix)
		return !strncmp(name, n->name, len < COMM_LEN ? len : COMM_LEN);
	if (!strcmp(name, n->name))
		return true;
	return len > COMM_LEN && strlen(name) == COMM_LEN && !strncmp(name, n->name, COMM_LEN);
}

enum jvm_group jvm_thread_group(const char *name, bool primordial)
{
	if (primordial)
		return JVM_G_LAUNCHER;
	if (!name)
		return JVM_G_APP;
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (matches(&names[i], name))
			return names[i].group;
	return JVM_G_APP;
}

const char *jvm_group_name(enum jvm_group g)
{
	static const char *const n[JVM_G_N] = {
		[JVM_G_APP] = "application", [JVM_G_GC] = "GC", [JVM_G_JIT] = "JIT compiler",
		[JVM_G_RUNTIME] = "JVM runtime", [JVM_G_LIBRARY] = "JDK library",
		[JVM_G_LAUNCHER] = "launcher",
	};

	return (unsigned)g < JVM_G_N ? n[g] : "?";
}
