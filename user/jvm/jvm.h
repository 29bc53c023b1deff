/*
 * jvm.h - HotSpot JVM targets (bpf/jvm.bpf.c's user side).
 *
 * A run on a JVM, in the order the calls are made:
 *
 *   `run -- java ...` (before the JVM exists)
 *     jvm_libjvm_for_exe(argv[0])      libjvm.so beside the java launcher
 *     jvm_tool_options()               JAVA_TOOL_OPTIONS for the child, with
 *                                      -XX:+DTraceMonitorProbes added
 *     jvm_open_path(libjvm)            opened: a regular ELF file, or refused
 *   `attach -p PID` (a running JVM)
 *     jvm_open_libjvm(pid)             the libjvm.so it maps, through
 *                                      /proc/PID/map_files (base/tfile.h)
 *     jvm_monitor_probes(pid, fd)      is the flag on? if not,
 *     jvm_monitor_notice()             the one line that says so
 *   both
 *     jvm_set_autoload(skel, true)     after open, before load (the
 *     jvm_set_target(skel, pid)        programs are "?usdt": off by default)
 *     jvm_attach(skel, pid, name)      per probe, by the fd's name
 *                                      (jvm_fd_name), filtered by pid:
 *                                      works before exec too (uprobes attach
 *                                      to the file, the pid to the process)
 *     ... the run, with the window (`enabled`) open ...
 *     jvm_read(skel, pid, &view)       the maps into a struct jvm_view
 *     jvm_detach(), jvm_view_free()
 *
 * fctrace's JVMTI agent (jvm/agent/jvmti_agent.c, built as JVM_AGENT_NAME
 * beside the binary) names waits by Java call site, with no JVM flag:
 *     jvm_agent_file()                 where it is
 *     jvm_agent_listen(pid, ...)       the socket it reports on
 *     jvm_agent_option() (run --)      its -agentpath for JAVA_TOOL_OPTIONS
 *     jvm_agent_load() (attach)        through HotSpot's attach protocol
 *     jvm_agent_dump(), jvm_agent_close()   its totals; it turns itself off
 *     jvm_sites_parse(), jvm_view_add_sites()   into the view
 *
 * Functions returning int give 0 or a negative errno, and print nothing.
 */
#ifndef FCTRACE_JVM_H
#define FCTRACE_JVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

struct fctrace_bpf;
struct bpf_link;

/* --- finding the JVM --------------------------------------------------- */

/* The libjvm.so process pid has mapped, opened through its
 * /proc/PID/map_files link (the very file mapped, whatever its name or
 * mount namespace; never the path maps shows): an fd (O_RDONLY,
 * O_CLOEXEC, O_NONBLOCK), -ENOENT when pid is not a JVM (or not yet:
 * before exec, before the launcher loads it), -ESRCH when there is no
 * such process, -EPERM when the mapping's file is not a regular file
 * with the device and inode maps gives, -ENOEXEC when it is not ELF. */
int jvm_open_libjvm(pid_t pid);

/* libjvm.so at path (jvm_libjvm_for_exe's, for `run --`): an fd, opened
 * O_NONBLOCK | O_NOFOLLOW; -ENOEXEC when it is not a regular ELF file. */
int jvm_open_path(const char *path);

/* "/proc/self/fd/FD": the name libbpf and the kernel open for the USDT
 * probes, which is fd's own file and nothing else. */
void jvm_fd_name(int fd, char *buf, size_t len);

/* The libjvm.so a JVM launcher would load: exe as execvp takes it
 * (searched in PATH when it has no '/'), symlinks resolved (Debian's
 * /usr/bin/java -> /etc/alternatives -> .../bin/java), then
 * ../lib/server/libjvm.so beside it (or the client VM, or JDK 8's
 * jre/lib/amd64/server). -ENOENT when exe is not a JVM launcher, e.g. a
 * shell script that starts one (then attach after exec, by pid). */
int jvm_libjvm_for_exe(const char *exe, char *path, size_t len);

/* --- the monitor probes' flag ------------------------------------------ */

/*
 * monitor__contended__enter/entered/exit and monitor__wait/waited fire
 * only when DTraceMonitorProbes is on (ExtendedDTraceProbes turns it on
 * too). It is read once, at JVM start: it cannot be turned on later.
 * The park, thread, GC and safepoint probes always fire.
 */
#define JVM_MONITOR_FLAG	"-XX:+DTraceMonitorProbes"

/* The longest string execve takes (MAX_ARG_STRLEN, 32 pages): an
 * environment entry NAME=VALUE longer than this fails with E2BIG. */
#define JVM_ENV_MAX		(32 * 4096)

/* JAVA_TOOL_OPTIONS for a JVM fctrace starts: the current value (if
 * any, of any length the JVM takes) with JVM_MONITOR_FLAG appended, so
 * that it wins over a -XX:- there; malloc'd. NULL with errno E2BIG when
 * the two would pass JVM_ENV_MAX (exec would refuse the command), or
 * ENOMEM. The JVM prints "Picked up JAVA_TOOL_OPTIONS: ..." on its
 * stderr: say so to the user. */
char *jvm_tool_options(void);

enum jvm_flag { JVM_FLAG_UNKNOWN, JVM_FLAG_OFF, JVM_FLAG_ON };
/* "on", "off", "unknown" */
const char *jvm_flag_name(enum jvm_flag f);

/* Is DTraceMonitorProbes on in running JVM pid? Read from the JVM's
 * memory (the flag's symbol in libjvm.so's .symtab, at its load
 * address: exact), or, when that fails, from its options
 * (jvm_flag_from_options over /proc/PID/environ and cmdline).
 * libjvm_fd: jvm_open_libjvm's or jvm_open_path's (-1: options only);
 * the mapping read is the one of that very file. */
enum jvm_flag jvm_monitor_probes(pid_t pid, int libjvm_fd);
/* Any bool flag of HotSpot's (its C++ global, by name), from the JVM's
 * memory; JVM_FLAG_UNKNOWN when it cannot be read. */
enum jvm_flag jvm_flag_in_memory(pid_t pid, int libjvm_fd, const char *name);

/* The flag as a JVM's options set it, applied in the JVM's order:
 * JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS, the command line (argv[1..] up
 * to the main class or -jar, NUL-separated as /proc/PID/cmdline), then
 * _JAVA_OPTIONS; the last setting wins. Any may be NULL. UNKNOWN when
 * an options file (@argfile, -XX:Flags=, -XX:VMOptionsFile=) could say
 * otherwise and nothing said ON. */
enum jvm_flag jvm_flag_from_options(const char *tool_opts, const char *jdk_opts,
				    const char *cmdline, size_t cmdline_len,
				    const char *java_opts);

/* The one-line notice for a JVM whose monitor probes are off (no
 * "fctrace: " prefix, no newline); returns what snprintf returns. */
int jvm_monitor_notice(char *buf, size_t len);

/* --- loading and attaching --------------------------------------------- */

/* bpf/jvm.bpf.c's programs in the one skeleton: call after open, before
 * load. jvm_set_target also filters them in the kernel by tgid. */
void jvm_set_autoload(struct fctrace_bpf *skel, bool on);
void jvm_set_target(struct fctrace_bpf *skel, pid_t tgid);
/* after jvm_set_autoload: the Java holders programs (jvmhold.bpf.c) only
 * with the holders code */
void jvm_set_holders_autoload(struct fctrace_bpf *skel, bool on);

enum jvm_probe {
	JVM_P_MON_ENTER, JVM_P_MON_ENTERED, JVM_P_MON_EXIT,
	JVM_P_MON_WAIT, JVM_P_MON_WAITED,
	JVM_P_PARK_BEGIN, JVM_P_PARK_END,
	JVM_P_THREAD_START, JVM_P_THREAD_STOP,
	JVM_P_GC_BEGIN, JVM_P_GC_END,
	JVM_P_SAFEPOINT_BEGIN, JVM_P_SAFEPOINT_END,
	JVM_P_ENTERI, JVM_P_ENTERI_RET,	/* uprobes: Java monitors' holders */
	JVM_P_REENTERI,
	JVM_NPROBES,
};

/* "usdt/hotspot:monitor__contended__enter": the name for the probe table
 * (the safepoint probes are in provider hs_private) */
const char *jvm_probe_shown(enum jvm_probe p);
/* is p one of the Java holders uprobes (group holders, not jvm)? */
bool jvm_probe_for_holders(enum jvm_probe p);
/* does probe p need DTraceMonitorProbes? */
bool jvm_probe_needs_flag(enum jvm_probe p);

struct jvm_links {
	struct bpf_link *link[JVM_NPROBES];
	int err[JVM_NPROBES];	/* 0, or -errno of the attach */
	int nattached;
};

/* Attach every loaded JVM program to its probe in libjvm (jvm_fd_name's
 * name of an fd) for process pid (which may not have exec'ed the JVM
 * yet). Returns how many
 * attached (each probe's fate in l->err), or -EINVAL if none is loaded. */
int jvm_attach(struct fctrace_bpf *skel, pid_t pid, const char *libjvm,
	       struct jvm_links *l);
void jvm_detach(struct jvm_links *l);

/* --- the view ---------------------------------------------------------- */

/* Who runs a JVM thread, by its name (Java name or 15-byte comm). */
enum jvm_group {
	JVM_G_APP,		/* the application: everything not below */
	JVM_G_GC,		/* GC Thread#N, G1 Conc/Refine/Service, Z*, Shenandoah */
	JVM_G_JIT,		/* C1/C2 CompilerThreadN, Sweeper thread */
	JVM_G_RUNTIME,		/* VM Thread, VM Periodic Task, Service Thread, Signal
				 * Dispatcher, Monitor Deflation, Notification, Attach
				 * Listener, JFR */
	JVM_G_LIBRARY,		/* the JDK's own Java threads: Reference Handler,
				 * Finalizer, Common-Cleaner, process reaper */
	JVM_G_LAUNCHER,		/* the primordial thread (tid == pid): waits for main */
	JVM_G_N,
};

/* primordial: the thread's tid is the process id */
enum jvm_group jvm_thread_group(const char *name, bool primordial);
const char *jvm_group_name(enum jvm_group g);	/* "application", "GC", ... */

/* One thread's waits on the monitors of one class. */
struct jvm_monitor_row {
	uint32_t tid;
	struct fct_jvm_mon_val v;
};

/* One monitor class, all threads: the sums, and the per-thread rows
 * (largest contended wait first). */
struct jvm_monitor {
	char cls[FCT_JVM_NAME_LEN + 4];	/* dotted: "PoolBench$Pool"; "..." first
					 * when only the tail was kept */
	uint64_t enters, enter_ns, enter_max_ns, exits, waits, wait_ns, wait_max_ns;
	uint32_t hist[FCT_HIST_SLOTS];
	struct jvm_monitor_row *rows;
	int nrows;
};

struct jvm_thread_info {
	uint32_t tid;			/* kernel tid */
	char name[FCT_JVM_NAME_LEN];	/* Java name; else the comm: a thread
					 * that began before the probes, or one
					 * attached through JNI, such as the
					 * launcher's main thread ("java") */
	bool java_name;			/* name is from thread__start */
	enum jvm_group group;
	struct fct_jvm_thread k;	/* everything the kernel counted */
};

/* One (kind, thread, class, site) total of the agent's. */
struct jvm_site_row {
	char kind;			/* 'm' contended enter, 'w' Object.wait, 'p' park sample */
	uint32_t tid;			/* host tid (0: not known) */
	int64_t jid;			/* Thread.getId() */
	uint64_t waits, ns, walks;	/* park samples: waits = samples, ns = samples * period */
	uint64_t max_ns;		/* the longest one (park samples: the period) */
	char cls[160];			/* the monitor's or the park blocker's class ("-": none) */
	char site[200];			/* pkg.Class.method(File.java:LINE) */
};

/* a contended monitor the agent saw, by its ObjectMonitor's address */
struct jvm_site_mon {
	uint64_t mon;
	char cls[160];
};

/* A Java stack the agent walked at such waits ('K' lines), with the
 * waits that walked it and their time: the flame graphs' Java frames. */
struct jvm_site_stack {
	char kind;			/* as jvm_site_row's */
	uint32_t tid;			/* host tid (0: not known) */
	int64_t jid;
	uint64_t walks, ns;
	char cls[160];
	char site[200];
	char *frames;			/* "pkg.Class.method(File.java:LINE)", tab-
					 * separated, innermost first */
};

struct jvm_sites {
	bool loaded;			/* the agent reported */
	struct jvm_site_row *rows;
	int nrows;
	struct jvm_site_mon *mons;
	int nmons;
	struct jvm_site_stack *stacks;
	int nstacks;
	uint64_t lost, park_walks;	/* rows its tables had no room for; parked stacks walked */
	unsigned walks, every, period_ms;	/* its sampling */
};

struct jvm_view {
	struct jvm_thread_info *threads;	/* by tid, ascending */
	int nthreads;
	struct jvm_monitor *monitors;		/* largest contended wait first */
	int nmonitors;
	struct fct_jvm_global global;		/* GC, safepoints, lost */
	struct jvm_sites sites;			/* the agent's, or none */
};

/* Read the JVM maps of a loaded skeleton. pid: the JVM's, which tells
 * its primordial thread (tid == pid) apart; 0 if unknown. */
int jvm_read(struct fctrace_bpf *skel, pid_t pid, struct jvm_view *v);
/* the same from the maps' fds */
int jvm_read_fds(int threads_fd, int monitors_fd, int global_fd, pid_t pid,
		 struct jvm_view *v);
void jvm_view_free(struct jvm_view *v);

const struct jvm_thread_info *jvm_view_thread(const struct jvm_view *v, uint32_t tid);
/* by dotted class name, as in struct jvm_monitor */
const struct jvm_monitor *jvm_view_monitor(const struct jvm_view *v, const char *cls);
/* one thread's row of a monitor class, or NULL */
const struct jvm_monitor_row *jvm_monitor_row(const struct jvm_monitor *m, uint32_t tid);

/* The internal class name ("java/lang/Object") in Java's dotted form. */
void jvm_class_name(const struct fct_jvm_mon_key *k, char *out, size_t len);

/* --- fctrace's JVMTI agent ---------------------------------------------- */

#define JVM_AGENT_NAME	"fctrace-jvmti.so"

/* The agent beside fctrace's own binary, readable: 0 or -errno. */
int jvm_agent_file(char *out, size_t len);

struct jvm_agent;
struct target_cred;
/* The socket the agent of JVM pid reports on, in the JVM's /tmp
 * (/proc/PID/root/tmp when in_target_root), made by cred's user, mode
 * 0600; one fctrace per running JVM (an flock in /run/fctrace, which
 * only root may write). NULL with why said. */
struct jvm_agent *jvm_agent_listen(pid_t pid, bool in_target_root,
				   const struct target_cred *cred, char *why, size_t wlen);
void jvm_agent_set_pid(struct jvm_agent *a, pid_t pid);	/* run --: the child's */
/* "-agentpath:FILE=sock=...,hold=1" (malloc'd; run --: see release) */
char *jvm_agent_option(const struct jvm_agent *a, const char *file);
/* Load the agent into the running JVM, by the deadline (CLOCK_MONOTONIC
 * ns) or a signal: from file itself when the JVM is root's and sees that
 * very file, else from a copy in a fresh directory of root's in its /tmp
 * (checked from inside its root; kept while the JVM holds the request).
 * 0, or -errno with why said. */
int jvm_agent_load(struct jvm_agent *a, const char *file, uint64_t until, char *why,
		   size_t wlen);
bool jvm_agent_connected(struct jvm_agent *a);
/* run --: the JVM's VMInit waits (at most 3 s) until this says go, so
 * that no Java code runs before the holders probes have HotSpot's
 * offsets; true once sent (the agent connected) */
bool jvm_agent_release(struct jvm_agent *a);
/* bytes the agent sent past what fctrace keeps (a flood): not read */
uint64_t jvm_agent_dropped(struct jvm_agent *a);
/* the copy's directory in the JVM's /tmp when the JVM never answered the
 * load (it stays: the next attach there removes it), else NULL */
const char *jvm_agent_copy_left(const struct jvm_agent *a);
/* A JVM in another pid namespace: its threads' tids there and here, as
 * each told its own while it ran (malloc'd; how many). */
struct jvm_tidpair {
	uint32_t ns, host;
};
int jvm_agent_tids(struct jvm_agent *a, struct jvm_tidpair **out);
/* The agent's totals, asked for and waited for until the deadline or a
 * signal (or the last it sent as the JVM exited): text for
 * jvm_sites_parse, malloc'd. */
char *jvm_agent_dump(struct jvm_agent *a, uint64_t until);
/* Close: the agent sees EOF, turns its events off and ends; the socket,
 * the lock and the agent's copy (unless left, above) are removed. */
void jvm_agent_close(struct jvm_agent *a);

/* --- HotSpot's attach protocol (jvm_attach.c) ------------------------- */

struct target_cred;

/* pid's (or its thread tid's) id in its own pid namespace; 0 if gone */
pid_t jvm_ns_pid(pid_t pid, pid_t tid);

/* An attach command's answer: NUL-ended text (up to the cap asked for:
 * truncated says more came), and whether the JVM closed the connection
 * (it finished the command) before the deadline. */
struct jvm_answer {
	char *text;
	size_t len, cap;
	bool truncated, closed;
};
void jvm_answer_free(struct jvm_answer *a);

/* Run an attach command as the JVM's own user (cred: target_cred_of):
 * its result code (>= 0) with the answer in *ans (at most max bytes
 * kept), or -errno with why said (-EPERM: the socket is not the
 * target's own). Ends by until (CLOCK_MONOTONIC ns; base/deadline.h) or
 * at a signal, whatever the JVM does. */
int jvm_attach_command(pid_t pid, const struct target_cred *cred, const char *cmd,
		       const char *const args[3], size_t max, uint64_t until,
		       struct jvm_answer *ans, char *why, size_t wlen);
/* "load": 0, or -errno with why said (the agent's own refusal too);
 * *answered: the JVM finished the request (until then the library's
 * path must keep naming the agent). */
int jvm_attach_load(pid_t pid, const struct target_cred *cred, const char *agent,
		    const char *options, uint64_t until, bool *answered, char *why, size_t wlen);

/* --- the agent's totals into the view (jvm_sites.c) -------------------- */

/* Parse a dump; names ("N" lines) with a tid name v's threads, park
 * rows get their thread's tid; tids are mapped from pid's namespace:
 * by known (jvm_agent_tids, n of them), else through /proc/PID/task. */
int jvm_sites_parse(const char *text, pid_t pid, const struct jvm_tidpair *known, int n,
		    struct jvm_view *v);
/* Java thread names from a thread dump (`threaddump`: the "nid" is the
 * tid): threads the agent never saw, started before it. */
int jvm_names_from_dump(const char *dump, pid_t pid, struct jvm_view *v);

#endif /* FCTRACE_JVM_H */
