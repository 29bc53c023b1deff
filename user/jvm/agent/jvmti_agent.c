/*
 * jvmti_agent.c - fctrace's JVMTI agent, a shared object of its own
 * (fctrace-jvmti.so): loaded at JVM start (-agentpath) or into a running
 * HotSpot JVM (the dynamic attach protocol, jvm/jvm_attach.c). It names
 * what a JVM's threads wait for by the waiting Java call site:
 *
 *   - contended monitor enters (synchronized): MonitorContendedEnter and
 *     ...Entered run on the waiting thread, so the thread's tid, the
 *     monitor's class and its first application frame are had there; the
 *     wait is timed with CLOCK_MONOTONIC (the kernel's clock);
 *   - LockSupport.park (java.util.concurrent): JVMTI has no park event, so
 *     a sampler thread looks every PERIOD ms at each thread's state and
 *     walks the stacks of the PARKED ones; the park blocker's class comes
 *     from LockSupport.getBlocker. fctrace splits each thread's kernel
 *     park time (HotSpot's thread__park probes) by these samples.
 *
 * Stack walks are sampled: a contended enter's site is keyed by its top
 * frame (method, bytecode index); the first WALKS enters of a key walk the
 * stack, then one in EVERY; the others reuse the key's last site.
 *
 * A walked stack is also kept whole, per (kind, thread, site, frames),
 * with the waits that walked it and their time: fctrace's flame graphs
 * draw a lock's time over the Java call paths that led to it ('K' lines).
 *
 * The agent talks to fctrace over a UNIX socket fctrace bound (option
 * sock=PATH). It sends text lines; fctrace sends 'D' for a dump of the
 * totals (answered, ended by "E"), 'G' to let a JVM it started go on (option
 * hold: VMInit waits for it, at most HOLD_MS, so that fctrace has set its
 * probes for the monitors' holders before any Java code runs); EOF means
 * fctrace is gone: the agent
 * turns its events off, gives its JVMTI environment back and its thread
 * ends. The library stays mapped (the JVM never unloads an agent); a
 * later attach starts afresh. No fctrace header: this file is built
 * alone, against the JDK's jvmti.h.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <jvmti.h>

#define NSITES		1024	/* distinct (class, site) strings */
#define NKEYS		4096	/* top frames seen at contended enters */
#define NROWS		8192	/* (kind, thread, site) totals */
#define NNAMES		4096	/* threads named */
#define SITE_LEN	200
#define DEPTH		12
#define NMONS		256	/* monitors told by address (the holders' join) */
#define NSTACKS		2048	/* (kind, thread, site, frames) walked */
#define FRAMES_LEN	2048	/* a walked stack's frames, tab-separated */
#define HOLD_MS		3000	/* VMInit waits for fctrace's 'G' at most this */

#define EXPORT __attribute__((visibility("default")))

/* Agent_OnAttach's refusals, as fctrace reads them (jvm/jvm_attach.c) */
enum { AGENT_NO_SOCKET = 1, AGENT_BUSY = 2, AGENT_NO_JVMTI = 3 };

struct key {			/* a top frame at a contended enter */
	jmethodID m;
	jlocation loc;
	uint64_t seen;
	int site;
};

struct row {
	char kind;		/* 'm' monitor enter, 'w' Object.wait, 'p' park sample */
	uint32_t tid;		/* kernel tid; 0 for park samples (jid says) */
	int64_t jid;		/* Thread.getId() */
	int site;
	uint64_t waits, ns, walks, max;
	int used;
};

struct jstack {			/* a walked stack: its waits and their time */
	char kind;
	uint32_t tid;
	int64_t jid;
	int site;
	uint64_t walks, ns;
	char *frames;		/* innermost first, tab-separated; NULL: free */
};

struct tname {
	int64_t jid;
	uint32_t tid;
	char name[64];
};

static struct agent {
	JavaVM *vm;
	jvmtiEnv *ti;
	int sock;
	volatile int on;	/* events counted */
	volatile int session;	/* a session runs: a second attach is refused */
	int inflight;		/* callbacks running now (the end waits for none) */
	unsigned walks, every, period_ms;
	pthread_mutex_t mu;
	pthread_cond_t go_cv;	/* 'G' came, or fctrace went */
	int go;
	pthread_t thr;
	char sites[NSITES][SITE_LEN];
	int nsites;
	struct key keys[NKEYS];
	struct row rows[NROWS];
	struct jstack stacks[NSTACKS];
	struct tname names[NNAMES];
	int nnames;
	struct { uint64_t m; int site; } mons[NMONS];	/* ObjectMonitor -> site */
	int nmons;
	uint64_t lost, park_walks;
	jclass thread_cls, support_cls;
	jmethodID get_id, get_blocker;
} ag = { .sock = -1, .mu = PTHREAD_MUTEX_INITIALIZER, .go_cv = PTHREAD_COND_INITIALIZER };

/* the waiting thread's own state: the callbacks run on it */
static __thread uint32_t my_tid;
static __thread int64_t my_jid = -1;
static __thread uint64_t t_enter, t_wait;
static __thread int site_enter, site_wait;
static __thread struct jstack *stk_enter, *stk_wait;	/* walked: their stacks */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void send_line(const char *s)
{
	size_t n = strlen(s);

	while (n && ag.sock >= 0) {
		ssize_t w = send(ag.sock, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* --- names ----------------------------------------------------------------- */

static void dotted(char *s)
{
	for (; *s; s++)
		if (*s == '/')
			*s = '.';
}

/* "Lcom/x/Foo;" -> "com.x.Foo" into out */
static void class_of_sig(const char *sig, char *out, size_t len)
{
	size_t n = strlen(sig);

	if (n >= 2 && sig[0] == 'L' && sig[n - 1] == ';')
		snprintf(out, len, "%.*s", (int)(n - 2), sig + 1);
	else
		snprintf(out, len, "%s", sig);
	dotted(out);
}

static void class_name(jclass c, char *out, size_t len)
{
	char *sig = NULL;

	if (!c || (*ag.ti)->GetClassSignature(ag.ti, c, &sig, NULL) || !sig) {
		snprintf(out, len, "?");
		return;
	}
	class_of_sig(sig, out, len);
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)sig);
}

static int line_of(jmethodID m, jlocation loc)
{
	jvmtiLineNumberEntry *t = NULL;
	jint n = 0, line = -1;

	if ((*ag.ti)->GetLineNumberTable(ag.ti, m, &n, &t))
		return -1;
	for (jint i = 0; i < n; i++)
		if (t[i].start_location <= loc)
			line = t[i].line_number;
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)t);
	return line;
}

/* pkg.Class.method(File.java:LINE) */
static void frame_name(const jvmtiFrameInfo *f, char *out, size_t len)
{
	char *mname = NULL, *file = NULL, cls[160];
	jclass c = NULL;
	int line;

	(*ag.ti)->GetMethodName(ag.ti, f->method, &mname, NULL, NULL);
	(*ag.ti)->GetMethodDeclaringClass(ag.ti, f->method, &c);
	class_name(c, cls, sizeof(cls));
	if (c)
		(*ag.ti)->GetSourceFileName(ag.ti, c, &file);
	line = line_of(f->method, f->location);
	if (line >= 0)
		snprintf(out, len, "%s.%s(%s:%d)", cls, mname ? mname : "?", file ? file : "?",
			 line);
	else
		snprintf(out, len, "%s.%s(%s)", cls, mname ? mname : "?", file ? file : "?");
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)mname);
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)file);
}

static int is_jdk(const jvmtiFrameInfo *f)
{
	static const char *const pre[] = { "Ljava/", "Ljdk/", "Lsun/", "Lcom/sun/" };
	char *sig = NULL;
	jclass c = NULL;
	int jdk = 0;

	if ((*ag.ti)->GetMethodDeclaringClass(ag.ti, f->method, &c) ||
	    (*ag.ti)->GetClassSignature(ag.ti, c, &sig, NULL))
		return 0;
	for (size_t i = 0; i < sizeof(pre) / sizeof(*pre); i++)
		jdk |= !strncmp(sig, pre[i], strlen(pre[i]));
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)sig);
	return jdk;
}

/* The first application frame of a stack (JDK frames skipped while an
 * application frame follows), named; "?" for an empty stack. */
static void app_site(const jvmtiFrameInfo *f, jint n, char *out, size_t len)
{
	jint pick = 0;

	while (pick < n && is_jdk(&f[pick]))
		pick++;
	if (pick == n)
		pick = 0;	/* all the JDK's: its top frame */
	if (n)
		frame_name(&f[pick], out, len);
	else
		snprintf(out, len, "?");
}

/* --- the tables (under ag.mu) ---------------------------------------------- */

static int site_index(const char *cls, const char *site)
{
	char s[SITE_LEN];

	snprintf(s, sizeof(s), "%s\t%s", cls, site);
	for (int i = 0; i < ag.nsites; i++)
		if (!strcmp(ag.sites[i], s))
			return i;
	if (ag.nsites == NSITES)
		return -1;
	snprintf(ag.sites[ag.nsites], SITE_LEN, "%s", s);
	return ag.nsites++;
}

static struct row *row_for(char kind, uint32_t tid, int64_t jid, int site)
{
	uint64_t h = ((uint64_t)tid * 31 + (uint64_t)jid) * 131 + (uint64_t)site * 7 + kind;

	for (unsigned i = 0; i < NROWS; i++) {
		struct row *r = &ag.rows[(h + i) % NROWS];

		if (!r->used) {
			*r = (struct row){ .kind = kind, .tid = tid, .jid = jid, .site = site,
					   .used = 1 };
			return r;
		}
		if (r->kind == kind && r->tid == tid && r->jid == jid && r->site == site)
			return r;
	}
	return NULL;
}

static void count(char kind, uint32_t tid, int64_t jid, int site, uint64_t ns, int walked)
{
	struct row *r;

	pthread_mutex_lock(&ag.mu);
	r = site >= 0 ? row_for(kind, tid, jid, site) : NULL;
	if (r) {
		r->waits++;
		r->ns += ns;
		r->walks += walked;
		r->max = ns > r->max ? ns : r->max;
	} else {
		ag.lost++;
	}
	pthread_mutex_unlock(&ag.mu);
}

/* The frames of f[0..n) as one tab-separated string, innermost first. */
static void frames_text(const jvmtiFrameInfo *f, jint n, char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	for (jint i = 0; i < n && at + 2 < len; i++) {
		frame_name(&f[i], out + at + (i > 0), len - at - (i > 0));
		if (i > 0)
			out[at] = '\t';
		at += strlen(out + at);
	}
}

/* The walked stack (kind, tid, jid, site, frames), made if new; NULL
 * when the table is full. Under ag.mu. */
static struct jstack *stack_for(char kind, uint32_t tid, int64_t jid, int site,
				const char *frames)
{
	uint64_t h = 5381;

	for (const char *c = frames; *c; c++)
		h = h * 33 + (unsigned char)*c;
	h = h * 131 + ((uint64_t)tid * 31 + (uint64_t)jid) * 7 + (uint64_t)site + kind;
	for (unsigned i = 0; i < 64; i++) {
		struct jstack *k = &ag.stacks[(h + i) % NSTACKS];

		if (!k->frames) {
			if (!(k->frames = strdup(frames)))
				return NULL;
			k->kind = kind, k->tid = tid, k->jid = jid, k->site = site;
			k->walks = k->ns = 0;
			return k;
		}
		if (k->kind == kind && k->tid == tid && k->jid == jid && k->site == site &&
		    !strcmp(k->frames, frames))
			return k;
	}
	return NULL;
}

/* A walked wait of ns on stack k (NULL: none kept). */
static void stack_count(struct jstack *k, uint64_t ns)
{
	if (!k)
		return;
	pthread_mutex_lock(&ag.mu);
	k->walks++;
	k->ns += ns;
	pthread_mutex_unlock(&ag.mu);
}

static void stacks_free(void)
{
	for (unsigned i = 0; i < NSTACKS; i++) {
		free(ag.stacks[i].frames);
		ag.stacks[i].frames = NULL;
	}
}

static void name_thread(int64_t jid, uint32_t tid, const char *name)
{
	struct tname *t = NULL;

	pthread_mutex_lock(&ag.mu);
	for (int i = 0; i < ag.nnames && !t; i++)
		if (ag.names[i].jid == jid)
			t = &ag.names[i];
	if (!t && ag.nnames < NNAMES) {
		t = &ag.names[ag.nnames++];
		memset(t, 0, sizeof(*t));
		t->jid = jid;
	}
	if (t && tid)
		t->tid = tid;
	if (t && name)
		snprintf(t->name, sizeof(t->name), "%s", name);
	/* told now, while the thread lives: fctrace maps a tid of another
	 * pid namespace to its own through /proc/PID/task only then */
	if (t && tid) {
		char line[128];

		snprintf(line, sizeof(line), "N\t%lld\t%u\t%s\n", (long long)t->jid, t->tid, t->name);
		send_line(line);
	}
	pthread_mutex_unlock(&ag.mu);
}

/* --- the thread's own identity ------------------------------------------- */

static int64_t java_id(JNIEnv *jni, jthread t)
{
	jlong id;

	if (!jni || !ag.get_id)
		return -1;
	id = (*jni)->CallLongMethod(jni, t, ag.get_id);
	if ((*jni)->ExceptionCheck(jni)) {
		(*jni)->ExceptionClear(jni);
		return -1;
	}
	return id;
}

/* On the thread's first event: its tid and Java id, told once. */
static void know_self(JNIEnv *jni, jthread t)
{
	jvmtiThreadInfo info;

	if (my_jid >= 0 && my_tid)
		return;
	my_tid = (uint32_t)syscall(SYS_gettid);
	my_jid = java_id(jni, t);
	memset(&info, 0, sizeof(info));
	if ((*ag.ti)->GetThreadInfo(ag.ti, t, &info) == JVMTI_ERROR_NONE) {
		name_thread(my_jid, my_tid, info.name);
		(*ag.ti)->Deallocate(ag.ti, (unsigned char *)info.name);
	} else {
		name_thread(my_jid, my_tid, NULL);
	}
}

/* --- contended enters and Object.wait ------------------------------------ */

static struct key *key_of(jmethodID m, jlocation loc)
{
	uint64_t h = ((uintptr_t)m >> 3) * 2654435761u + (uint64_t)loc;

	for (unsigned i = 0; i < 64; i++) {
		struct key *k = &ag.keys[(h + i) % NKEYS];

		if (!k->m) {
			*k = (struct key){ .m = m, .loc = loc, .site = -1 };
			return k;
		}
		if (k->m == m && k->loc == loc)
			return k;
	}
	return NULL;
}

/* An Object.wait's key: its top frame is the native Object.wait(long)
 * whoever calls it, so the two frames below it (Object.wait() and its
 * caller, or the caller and its own) tell its call sites apart, folded
 * into one (method, location) pair. 0, or a JVMTI error. */
static int wait_key(jthread t, jvmtiFrameInfo *key)
{
	jvmtiFrameInfo f[3];
	jint n = 0;
	int err = (*ag.ti)->GetStackTrace(ag.ti, t, 0, 3, f, &n);

	if (err || n < 1)
		return err ? err : -1;
	*key = f[n - 1];
	if (n == 3) {
		key->method = (jmethodID)((uintptr_t)f[1].method ^ ((uintptr_t)f[2].method << 1));
		key->location = f[1].location * 65599 + f[2].location;
	}
	return 0;
}

/* The site of the current thread's wait on obj: walked, or the top
 * frame's last site (sampling); *walked says which, and *stk is the
 * walked stack's entry (kind's). */
static int wait_site(JNIEnv *jni, jthread t, jobject obj, char kind, int *walked,
		     struct jstack **stk)
{
	static __thread char frames[FRAMES_LEN];
	jvmtiFrameInfo f[DEPTH];
	char cls[160], site[SITE_LEN];
	jint n = 0;
	struct key *k;
	int s;

	*walked = 0;
	*stk = NULL;
	if (kind == 'w' ? wait_key(t, &f[0]) != 0 :
	    (*ag.ti)->GetFrameLocation(ag.ti, t, 0, &f[0].method, &f[0].location) != JVMTI_ERROR_NONE)
		return -1;
	pthread_mutex_lock(&ag.mu);
	k = key_of(f[0].method, f[0].location);
	s = k ? k->site : -1;
	if (k && (k->seen < ag.walks || k->seen % ag.every == 0 || s < 0))
		*walked = 1;
	if (k)
		k->seen++;
	pthread_mutex_unlock(&ag.mu);
	if (!*walked)
		return s;
	if ((*ag.ti)->GetStackTrace(ag.ti, t, 0, DEPTH, f, &n))
		return s;
	class_name(obj ? (*jni)->GetObjectClass(jni, obj) : NULL, cls, sizeof(cls));
	app_site(f, n, site, sizeof(site));
	frames_text(f, n, frames, sizeof(frames));
	pthread_mutex_lock(&ag.mu);
	s = site_index(cls, site);
	if (k)
		k->site = s;
	if (s >= 0)
		*stk = stack_for(kind, my_tid, my_jid, s, frames);
	pthread_mutex_unlock(&ag.mu);
	return s;
}

/*
 * The ObjectMonitor of obj, or 0. fctrace's kernel side knows a contended
 * monitor by that address (bpf/jvmhold.bpf.c); telling it with the site
 * names the monitor's class there. A local JNI handle is the address of
 * an oop (HotSpot, untagged); a contended monitor is inflated, so the
 * object's mark word is the monitor's address with the low bits 10.
 */
static uint64_t monitor_of(jobject obj)
{
	uintptr_t h = (uintptr_t)obj, oop, mark;

	if (!h || (h & 3) || !(oop = *(volatile uintptr_t *)h))
		return 0;
	mark = *(volatile uintptr_t *)oop;
	return (mark & 3) == 2 ? mark & ~(uintptr_t)3 : 0;
}

static void note_monitor(jobject obj, int site)
{
	uint64_t m = monitor_of(obj);
	int i;

	if (!m || site < 0)
		return;
	pthread_mutex_lock(&ag.mu);
	for (i = 0; i < ag.nmons && ag.mons[i].m != m; i++)
		;
	if (i == ag.nmons && ag.nmons < NMONS)
		ag.nmons++;
	if (i < ag.nmons) {
		ag.mons[i].m = m;
		ag.mons[i].site = site;
	}
	pthread_mutex_unlock(&ag.mu);
}

static void on_enter_(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj)
{
	int walked;

	if (!ag.on)
		return;
	know_self(jni, t);
	site_enter = wait_site(jni, t, obj, 'm', &walked, &stk_enter);
	note_monitor(obj, site_enter);
	site_enter = walked ? site_enter | 0x40000000 : site_enter;
	t_enter = now_ns();
}

static void on_entered_(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj)
{
	int walked = (site_enter & 0x40000000) != 0;
	uint64_t ns;

	if (!ag.on || !t_enter)
		return;
	ns = now_ns() - t_enter;
	count('m', my_tid, my_jid, site_enter & ~0x40000000, ns, walked);
	stack_count(walked ? stk_enter : NULL, ns);
	t_enter = 0;
}

static void on_wait_(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj, jlong ms)
{
	int walked;

	if (!ag.on)
		return;
	know_self(jni, t);
	site_wait = wait_site(jni, t, obj, 'w', &walked, &stk_wait);
	site_wait = walked ? site_wait | 0x40000000 : site_wait;
	t_wait = now_ns();
}

static void on_waited_(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj, jboolean out)
{
	int walked = (site_wait & 0x40000000) != 0;
	uint64_t ns;

	if (!ag.on || !t_wait)
		return;
	ns = now_ns() - t_wait;
	count('w', my_tid, my_jid, site_wait & ~0x40000000, ns, walked);
	stack_count(walked ? stk_wait : NULL, ns);
	t_wait = 0;
}

/* a thread started after the agent: its tid is had on the thread itself */
static void on_thread_start_(jvmtiEnv *ti, JNIEnv *jni, jthread t)
{
	if (ag.on)
		know_self(jni, t);
}

/* The JVM's callbacks: counted in flight, so the session's end can wait
 * until none runs before it gives the environment back. */
#define GUARDED(call)						\
	do {							\
		__atomic_add_fetch(&ag.inflight, 1, __ATOMIC_SEQ_CST);	\
		if (ag.on)					\
			call;					\
		__atomic_sub_fetch(&ag.inflight, 1, __ATOMIC_SEQ_CST);	\
	} while (0)

static void JNICALL on_enter(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj)
{
	GUARDED(on_enter_(ti, jni, t, obj));
}

static void JNICALL on_entered(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj)
{
	GUARDED(on_entered_(ti, jni, t, obj));
}

static void JNICALL on_wait(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj, jlong ms)
{
	GUARDED(on_wait_(ti, jni, t, obj, ms));
}

static void JNICALL on_waited(jvmtiEnv *ti, JNIEnv *jni, jthread t, jobject obj, jboolean out)
{
	GUARDED(on_waited_(ti, jni, t, obj, out));
}

static void JNICALL on_thread_start(jvmtiEnv *ti, JNIEnv *jni, jthread t)
{
	GUARDED(on_thread_start_(ti, jni, t));
}

/* --- the park sampler ------------------------------------------------------ */

static void blocker_class(JNIEnv *jni, jthread t, char *out, size_t len)
{
	jobject b = NULL;

	snprintf(out, len, "-");
	if (!ag.get_blocker)
		return;
	b = (*jni)->CallStaticObjectMethod(jni, ag.support_cls, ag.get_blocker, t);
	if ((*jni)->ExceptionCheck(jni)) {
		(*jni)->ExceptionClear(jni);
		return;
	}
	if (b) {
		class_name((*jni)->GetObjectClass(jni, b), out, len);
		(*jni)->DeleteLocalRef(jni, b);
	}
}

static void sample_thread(JNIEnv *jni, jthread t)
{
	static char frames[FRAMES_LEN];	/* the session's thread only */
	uint64_t ns = (uint64_t)ag.period_ms * 1000000u;
	jvmtiFrameInfo f[DEPTH];
	char cls[160], site[SITE_LEN];
	jint state = 0, n = 0;
	struct jstack *k = NULL;
	int64_t jid;
	int s;

	if ((*ag.ti)->GetThreadState(ag.ti, t, &state) || !(state & JVMTI_THREAD_STATE_PARKED))
		return;
	if ((*ag.ti)->GetStackTrace(ag.ti, t, 0, DEPTH, f, &n))
		return;
	blocker_class(jni, t, cls, sizeof(cls));
	app_site(f, n, site, sizeof(site));
	frames_text(f, n, frames, sizeof(frames));
	jid = java_id(jni, t);
	pthread_mutex_lock(&ag.mu);
	s = site_index(cls, site);
	ag.park_walks++;
	if (s >= 0)
		k = stack_for('p', 0, jid, s, frames);
	pthread_mutex_unlock(&ag.mu);
	count('p', 0, jid, s, ns, 1);
	stack_count(k, ns);
}

static void sample_parks(JNIEnv *jni)
{
	jthread *all = NULL;
	jint n = 0;

	if ((*ag.ti)->GetAllThreads(ag.ti, &n, &all))
		return;
	for (jint i = 0; i < n; i++) {
		if (ag.on)
			sample_thread(jni, all[i]);
		(*jni)->DeleteLocalRef(jni, all[i]);
	}
	(*ag.ti)->Deallocate(ag.ti, (unsigned char *)all);
}

/* --- the dump -------------------------------------------------------------- */

/* K KIND TID JID WALKS NS CLASS SITE FRAME...: each walked stack, its
 * frames innermost first. Under ag.mu. */
static void dump_stacks(void)
{
	static char line[FRAMES_LEN + SITE_LEN + 160];

	for (unsigned i = 0; i < NSTACKS; i++) {
		const struct jstack *k = &ag.stacks[i];

		if (!k->frames || !k->walks)
			continue;
		snprintf(line, sizeof(line), "K\t%c\t%u\t%lld\t%llu\t%llu\t%s\t%s\n", k->kind,
			 k->tid, (long long)k->jid, (unsigned long long)k->walks,
			 (unsigned long long)k->ns, ag.sites[k->site], k->frames);
		send_line(line);
	}
}

static void dump(void)
{
	char line[SITE_LEN + 160];

	pthread_mutex_lock(&ag.mu);
	for (int i = 0; i < ag.nnames; i++) {
		snprintf(line, sizeof(line), "N\t%lld\t%u\t%s\n", (long long)ag.names[i].jid,
			 ag.names[i].tid, ag.names[i].name);
		send_line(line);
	}
	for (unsigned i = 0; i < NROWS; i++) {
		const struct row *r = &ag.rows[i];

		if (!r->used || r->site < 0)
			continue;
		snprintf(line, sizeof(line), "R\t%c\t%u\t%lld\t%llu\t%llu\t%llu\t%llu\t%s\n",
			 r->kind, r->tid, (long long)r->jid, (unsigned long long)r->waits,
			 (unsigned long long)r->ns, (unsigned long long)r->walks,
			 (unsigned long long)r->max, ag.sites[r->site]);
		send_line(line);
	}
	for (int i = 0; i < ag.nmons; i++) {
		snprintf(line, sizeof(line), "O\t%llx\t%s\n", (unsigned long long)ag.mons[i].m,
			 ag.sites[ag.mons[i].site]);
		send_line(line);
	}
	dump_stacks();
	snprintf(line, sizeof(line), "L\t%llu\t%llu\t%u\t%u\t%u\nE\n", (unsigned long long)ag.lost,
		 (unsigned long long)ag.park_walks, ag.walks, ag.every, ag.period_ms);
	send_line(line);
	pthread_mutex_unlock(&ag.mu);
}

/* --- on and off -------------------------------------------------------------- */

static const jvmtiEvent events[] = {
	JVMTI_EVENT_MONITOR_CONTENDED_ENTER, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED,
	JVMTI_EVENT_MONITOR_WAIT, JVMTI_EVENT_MONITOR_WAITED, JVMTI_EVENT_THREAD_START,
	JVMTI_EVENT_VM_DEATH,
};

static int set_events(jvmtiEventMode mode)
{
	int err = 0;

	for (size_t i = 0; i < sizeof(events) / sizeof(*events); i++)
		err |= (*ag.ti)->SetEventNotificationMode(ag.ti, mode, events[i], NULL);
	return err;
}

/* The JNI handles the sampler needs, global refs (freed at the end). */
static void find_methods(JNIEnv *jni)
{
	jclass t = (*jni)->FindClass(jni, "java/lang/Thread");
	jclass s = (*jni)->FindClass(jni, "java/util/concurrent/locks/LockSupport");

	if ((*jni)->ExceptionCheck(jni))
		(*jni)->ExceptionClear(jni);
	if (t) {
		ag.thread_cls = (*jni)->NewGlobalRef(jni, t);
		ag.get_id = (*jni)->GetMethodID(jni, t, "getId", "()J");
	}
	if (s) {
		ag.support_cls = (*jni)->NewGlobalRef(jni, s);
		ag.get_blocker = (*jni)->GetStaticMethodID(jni, s, "getBlocker",
							   "(Ljava/lang/Thread;)Ljava/lang/Object;");
	}
	if ((*jni)->ExceptionCheck(jni))
		(*jni)->ExceptionClear(jni);
}

static void drop_methods(JNIEnv *jni)
{
	if (ag.thread_cls)
		(*jni)->DeleteGlobalRef(jni, ag.thread_cls);
	if (ag.support_cls)
		(*jni)->DeleteGlobalRef(jni, ag.support_cls);
	ag.thread_cls = ag.support_cls = NULL;
	ag.get_id = ag.get_blocker = NULL;
}

/* fctrace's byte, or -1 when it is gone (EOF, error), 0 on a timeout */
static int from_fctrace(int ms)
{
	struct pollfd p = { .fd = ag.sock, .events = POLLIN };
	char c;
	int r = poll(&p, 1, ms);

	if (r <= 0)
		return r < 0 && errno != EINTR ? -1 : 0;
	return recv(ag.sock, &c, 1, 0) == 1 ? c : -1;
}

static void let_go(void)
{
	pthread_mutex_lock(&ag.mu);
	ag.go = 1;
	pthread_cond_broadcast(&ag.go_cv);
	pthread_mutex_unlock(&ag.mu);
}

/* VMInit with option hold: until fctrace says 'G' or goes, at most
 * HOLD_MS (an fctrace that never answers only delays the start). */
static void await_go(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += HOLD_MS / 1000;
	ts.tv_nsec += (long)(HOLD_MS % 1000) * 1000000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	pthread_mutex_lock(&ag.mu);
	while (!ag.go && pthread_cond_timedwait(&ag.go_cv, &ag.mu, &ts) == 0)
		;
	pthread_mutex_unlock(&ag.mu);
}

/* The session's thread: sample parks, answer dumps, and end the session
 * when fctrace goes away. */
static void *session_main(void *arg)
{
	JNIEnv *jni = NULL;
	int c;

	(void)arg;
	JavaVMAttachArgs args = { JNI_VERSION_1_8, (char *)"fctrace agent", NULL };

	if ((*ag.vm)->AttachCurrentThreadAsDaemon(ag.vm, (void **)&jni, &args) || !jni)
		jni = NULL;
	if (jni)
		find_methods(jni);
	while ((c = from_fctrace((int)ag.period_ms)) >= 0) {
		if (c == 'D')
			dump();
		else if (c == 'G')
			let_go();
		else if (jni && ag.on)
			sample_parks(jni);
	}
	let_go();
	ag.on = 0;
	set_events(JVMTI_DISABLE);
	while (__atomic_load_n(&ag.inflight, __ATOMIC_SEQ_CST))
		usleep(1000);
	if (jni) {
		drop_methods(jni);
		(*ag.vm)->DetachCurrentThread(ag.vm);
	}
	close(ag.sock);
	ag.sock = -1;
	(*ag.ti)->DisposeEnvironment(ag.ti);	/* its capabilities given back */
	ag.ti = NULL;
	__atomic_store_n(&ag.session, 0, __ATOMIC_SEQ_CST);
	return NULL;
}

/* --- the options and the start ----------------------------------------------- */

static const char *opt(const char *options, const char *name, char *out, size_t len)
{
	size_t nl = strlen(name);

	for (const char *o = options; o && *o; o += strcspn(o, ",") + (o[strcspn(o, ",")] != 0)) {
		if (!strncmp(o, name, nl) && o[nl] == '=') {
			size_t n = strcspn(o + nl + 1, ",");

			snprintf(out, len, "%.*s", (int)n, o + nl + 1);
			return out;
		}
	}
	return NULL;
}

static unsigned opt_num(const char *options, const char *name, unsigned dflt)
{
	char v[32];

	return opt(options, name, v, sizeof(v)) && atoi(v) > 0 ? (unsigned)atoi(v) : dflt;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path))
		return -1;
	memcpy(a.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void JNICALL on_vm_init(jvmtiEnv *ti, JNIEnv *jni, jthread t);
static void JNICALL on_vm_death(jvmtiEnv *ti, JNIEnv *jni);

static int get_env(JavaVM *vm)
{
	jvmtiCapabilities caps = { 0 };
	jvmtiEventCallbacks cb = { 0 };

	ag.vm = vm;
	if ((*vm)->GetEnv(vm, (void **)&ag.ti, JVMTI_VERSION_1_2) != JNI_OK)
		return -1;
	caps.can_generate_monitor_events = 1;
	caps.can_get_line_numbers = 1;
	caps.can_get_source_file_name = 1;
	if ((*ag.ti)->AddCapabilities(ag.ti, &caps))
		return -1;
	cb.MonitorContendedEnter = on_enter;
	cb.MonitorContendedEntered = on_entered;
	cb.MonitorWait = on_wait;
	cb.MonitorWaited = on_waited;
	cb.ThreadStart = on_thread_start;
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	return (*ag.ti)->SetEventCallbacks(ag.ti, &cb, sizeof(cb)) ? -1 : 0;
}

static void reset(const char *options)
{
	pthread_mutex_lock(&ag.mu);
	memset(ag.keys, 0, sizeof(ag.keys));
	memset(ag.rows, 0, sizeof(ag.rows));
	stacks_free();
	ag.nsites = ag.nnames = ag.nmons = 0;
	ag.lost = ag.park_walks = 0;
	ag.walks = opt_num(options, "walks", 16);
	ag.every = opt_num(options, "every", 64);
	ag.period_ms = opt_num(options, "period", 10);
	pthread_mutex_unlock(&ag.mu);
}

/* Connect, turn the events on, start the session's thread. */
static int start(JavaVM *vm, const char *options)
{
	char path[108], hello[64];

	int rc = 0;

	if (__atomic_exchange_n(&ag.session, 1, __ATOMIC_SEQ_CST))
		return AGENT_BUSY;	/* another fctrace's session runs */
	reset(options);
	if (!opt(options, "sock", path, sizeof(path)) || (ag.sock = connect_to(path)) < 0)
		rc = AGENT_NO_SOCKET;
	else if (!ag.ti && get_env(vm))
		rc = AGENT_NO_JVMTI;
	if (rc) {
		if (ag.sock >= 0)
			close(ag.sock);
		ag.sock = -1;
		ag.session = 0;
		return rc;
	}
	snprintf(hello, sizeof(hello), "H\t1\t%d\n", (int)getpid());
	send_line(hello);
	ag.on = 1;
	if (set_events(JVMTI_ENABLE) || pthread_create(&ag.thr, NULL, session_main, NULL)) {
		ag.on = 0;
		set_events(JVMTI_DISABLE);
		close(ag.sock);
		ag.sock = -1;
		ag.session = 0;
		return AGENT_NO_JVMTI;
	}
	pthread_detach(ag.thr);
	return 0;
}

static char load_options[512];

/* -agentpath: the session starts once the VM can run threads */
static void JNICALL on_vm_init(jvmtiEnv *ti, JNIEnv *jni, jthread t)
{
	char v[8];

	ag.session = 0;
	if (start(ag.vm, load_options) == 0) {
		know_self(jni, t);	/* the main thread */
		if (opt(load_options, "hold", v, sizeof(v)))
			await_go();
	}
}

/* the JVM exits: fctrace gets the totals first */
static void JNICALL on_vm_death(jvmtiEnv *ti, JNIEnv *jni)
{
	if (ag.on) {
		ag.on = 0;
		dump();
	}
}

EXPORT JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	snprintf(load_options, sizeof(load_options), "%s", options ? options : "");
	if (get_env(vm))
		return JNI_ERR;
	ag.session = 1;	/* until VMInit */
	if ((*ag.ti)->SetEventNotificationMode(ag.ti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL))
		return JNI_ERR;
	return JNI_OK;
}

EXPORT JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
	return start(vm, options);
}
