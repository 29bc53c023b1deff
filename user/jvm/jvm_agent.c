/*
 * jvm_agent.c - fctrace's side of its JVMTI agent (jvm/agent/jvmti_agent.c):
 * the UNIX socket the agent reports on, the agent loaded at JVM start
 * (-agentpath in JAVA_TOOL_OPTIONS) or into a running JVM (jvm_attach.c),
 * the totals read at the end, and every file made for it removed.
 *
 * The JVM's owner decides what its /tmp is. So the socket is bound, and
 * removed, by that user (as_target.h: it is theirs, mode 0600, and no
 * path is ever chowned or chmodded as root); a connection is kept only
 * from the target's pid and uid (SO_PEERCRED). The agent a running JVM
 * loads is copied into a fresh directory only root can write (in a /tmp
 * whose entries others cannot replace), checked from inside the target's
 * root, and kept until the JVM has answered the load request. The
 * one-fctrace-per-JVM lock is in a directory only root can write. What
 * the agent sends is capped, and every wait ends at the caller's deadline
 * or a signal. Closing the socket is the agent's signal to turn itself off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "base/deadline.h"
#include "base/as_target.h"
#include "jvm/jvm.h"

#include "jvm/jvm_agent_int.h"

int jvm_agent_file(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -ENOENT;
	*slash = '\0';
	if ((size_t)snprintf(out, len, "%s/%s", exe, JVM_AGENT_NAME) >= len)
		return -ENAMETOOLONG;
	return access(out, R_OK) ? -errno : 0;
}

/* --- files in the JVM's /tmp, by its owner ------------------------------------- */

struct unlink_job {
	int dirfd;
	const char *name;
};

static int unlink_as_target(void *arg)
{
	struct unlink_job *j = arg;

	return unlinkat(j->dirfd, j->name, 0) ? -errno : 0;
}

/* path's last name, removed from the JVM's /tmp by the JVM's owner */
static void remove_file(struct jvm_agent *a, const char *path)
{
	const char *name = strrchr(path, '/');
	struct unlink_job j = { a->dirfd, name ? name + 1 : NULL };

	if (a->dirfd >= 0 && j.name)
		as_target(&a->cred, unlink_as_target, &j);
}

/* --- the reader thread ---------------------------------------------------- */

static bool peer_is(int fd, pid_t pid, uid_t uid)
{
	struct ucred c;
	socklen_t l = sizeof(c);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &l) && c.pid == pid && c.uid == uid;
}

/* A /proc file (path under dirfd, or absolute) into buf, NUL-ended: its
 * length, or 0 when it cannot be read. */
static ssize_t read_proc(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = '\0';
	return r;
}

/* NSpid of one of pid's tasks: its id in the innermost namespace, 0 if gone */
static uint32_t ns_tid_of(int taskfd, const char *tid)
{
	char path[300], buf[2048], *p, *end;
	uint32_t ns = 0;

	snprintf(path, sizeof(path), "%s/status", tid);
	if (!read_proc(taskfd, path, buf, sizeof(buf)) || !(p = strstr(buf, "\nNSpid:")))
		return 0;
	for (p += 7; *p && *p != '\n'; p = end) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			break;
		ns = (uint32_t)v;
	}
	return ns;
}

static bool is_pending(const uint32_t *want, int n, uint32_t ns)
{
	for (int i = 0; i < n; i++)
		if (want[i] == ns)
			return true;
	return false;
}

/* One pass over /proc/PID/task for the ns tids in want: their host tids
 * into out (0 where the thread is gone); the pass stops with fctrace. */
static void map_tids(struct jvm_agent *a, const uint32_t *want, int n, struct jvm_tidpair *out)
{
	char path[64];
	struct dirent *d;
	int found = 0, taskfd;
	DIR *dir;

	for (int i = 0; i < n; i++)
		out[i] = (struct jvm_tidpair){ .ns = want[i] };
	snprintf(path, sizeof(path), "/proc/%d/task", (int)a->pid);
	if ((taskfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	if (!(dir = fdopendir(dup(taskfd)))) {
		close(taskfd);
		return;
	}
	while (found < n && !a->stop && !signals_caught() && (d = readdir(dir))) {
		uint32_t host = (uint32_t)atoi(d->d_name), ns;

		if (!host || !(ns = ns_tid_of(taskfd, d->d_name)) || !is_pending(want, n, ns))
			continue;
		for (int i = 0; i < n; i++)
			if (out[i].ns == ns && !out[i].host) {
				out[i].host = host;
				found++;
			}
	}
	closedir(dir);
	close(taskfd);
}

/* The "N" lines that came (a thread telling its tid, as it runs): each
 * new ns tid queued for mapping. Under a->mu; linear in what came. */
static void queue_new_tids(struct jvm_agent *a)
{
	while (a->other_ns) {
		char *nl = memchr(a->buf + a->lines_to, '\n', a->n - a->lines_to);
		unsigned tid;
		long long jid;

		if (!nl)
			return;
		if (sscanf(a->buf + a->lines_to, "N\t%lld\t%u", &jid, &tid) == 2 && tid &&
		    tid < PID_SPACE && a->seen && !(a->seen[tid / 8] & (1u << (tid % 8))) &&
		    a->ntids + a->npending < AGENT_TIDS_MAX) {
			a->seen[tid / 8] |= (uint8_t)(1u << (tid % 8));
			a->pending[a->npending++] = tid;
		}
		a->lines_to = (size_t)(nl - a->buf) + 1;
	}
}

/* Map the queued tids, outside the lock (one /proc pass for them all,
 * while those threads live), then add them. */
static void map_pending(struct jvm_agent *a)
{
	uint32_t *want;
	struct jvm_tidpair *got;
	int n;

	pthread_mutex_lock(&a->mu);
	n = a->npending;
	want = n ? malloc(n * sizeof(*want)) : NULL;
	if (want)
		memcpy(want, a->pending, n * sizeof(*want));
	a->npending = 0;
	pthread_mutex_unlock(&a->mu);
	if (!want || !(got = malloc(n * sizeof(*got)))) {
		free(want);
		return;
	}
	map_tids(a, want, n, got);
	pthread_mutex_lock(&a->mu);
	memcpy(a->tids + a->ntids, got, n * sizeof(*got));
	a->ntids += n;
	pthread_mutex_unlock(&a->mu);
	free(want);
	free(got);
}

/* Forget what came before the last whole dump: what is kept stays the
 * last dump and what followed it. Under a->mu. */
static void compact(struct jvm_agent *a)
{
	size_t from = a->dump_from < a->lines_to ? a->dump_from : a->lines_to;

	if (!from || from < a->n / 2)
		return;
	memmove(a->buf, a->buf + from, a->n - from);
	a->n -= from;
	a->dump_from -= from;
	a->dump_to -= from;
	a->scan_to -= from;
	a->lines_to -= from;
}

/* New dump ends ("E\n" at a line start) after scan_to. Under a->mu. */
static void find_dumps(struct jvm_agent *a)
{
	size_t i = a->scan_to;

	for (; i + 1 < a->n; i++) {
		if (a->buf[i] == 'E' && a->buf[i + 1] == '\n' && (i == 0 || a->buf[i - 1] == '\n')) {
			a->dump_from = a->dump_to;
			a->dump_to = i + 2;
			a->dumps++;
			i++;
		}
	}
	a->scan_to = i;
}

static bool grow(struct jvm_agent *a, size_t need)
{
	size_t cap;
	char *nb;

	if (need <= a->cap)
		return true;
	cap = need * 2 < AGENT_DATA_MAX + 1 ? need * 2 : AGENT_DATA_MAX + 1;
	if (!(nb = realloc(a->buf, cap)))
		return false;
	a->buf = nb;
	a->cap = cap;
	return true;
}

static void take(struct jvm_agent *a, const char *d, size_t n)
{
	pthread_mutex_lock(&a->mu);
	compact(a);
	if (a->n + n + 1 > AGENT_DATA_MAX + 1 || !grow(a, a->n + n + 1)) {
		a->dropped += n;	/* a flood: the last whole dump stays */
		pthread_mutex_unlock(&a->mu);
		return;
	}
	memcpy(a->buf + a->n, d, n);
	a->n += n;
	a->buf[a->n] = '\0';
	queue_new_tids(a);
	find_dumps(a);
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

static void accept_one(struct jvm_agent *a)
{
	int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (a->conn >= 0 || !peer_is(fd, a->pid, a->cred.uid)) {
		close(fd);	/* not the target's, or a second one */
		return;
	}
	pthread_mutex_lock(&a->mu);
	a->conn = fd;
	pthread_mutex_unlock(&a->mu);
	remove_file(a, a->sock);	/* connected: nothing left should fctrace be killed */
}

static void *reader(void *arg)
{
	struct jvm_agent *a = arg;
	char d[65536];

	while (!a->stop && !a->eof) {
		struct pollfd p = { .fd = a->conn >= 0 ? a->conn : a->listen_fd, .events = POLLIN };
		ssize_t r;

		if (a->npending)
			map_pending(a);
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (a->conn < 0) {
			accept_one(a);
			continue;
		}
		if ((r = read(a->conn, d, sizeof(d))) > 0) {
			take(a, d, (size_t)r);
			continue;
		}
		pthread_mutex_lock(&a->mu);
		a->eof = true;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	return NULL;
}

/* --- the socket, made by the JVM's owner ---------------------------------------- */

struct bind_job {
	const char *root;	/* the JVM's /tmp as fctrace reaches it */
	const char *sock;	/* the socket's path in it */
	int dirfd, fd;		/* out */
};

/* Open the JVM's /tmp and bind the socket there as its owner (umask 077:
 * mode 0600 from the start, nothing to chmod or chown afterwards); a
 * stale socket of the same name (a pid reused) is the owner's to remove. */
static int bind_as_target(void *arg)
{
	struct bind_job *j = arg;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *name = strrchr(j->sock, '/') + 1;

	if ((j->dirfd = open(j->root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (strlen(j->sock) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, j->sock, strlen(j->sock));
	if ((j->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	unlinkat(j->dirfd, name, 0);
	if (bind(j->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	if (listen(j->fd, 4)) {
		int err = -errno;

		unlinkat(j->dirfd, name, 0);
		return err;
	}
	return 0;
}

static int bind_socket(struct jvm_agent *a, const char *root)
{
	struct bind_job j = { .root = root, .sock = a->sock, .dirfd = -1, .fd = -1 };
	int err = as_target(&a->cred, bind_as_target, &j);

	a->dirfd = j.dirfd;
	if (err) {
		if (j.fd >= 0)
			close(j.fd);
		return err;
	}
	a->listen_fd = j.fd;
	return 0;
}

/* --- one fctrace per JVM ----------------------------------------------------------- */

/* The JVM's start time (/proc/PID/stat's 22nd field): with its pid, a
 * name no other process has had. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!read_proc(AT_FDCWD, path, buf, sizeof(buf)) || !(p = strrchr(buf, ')')))	/* after "pid (comm)": field 3 on */
		return 0;
	sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		      "%*d %*d %llu", &t);
	return t;
}

/* LOCK_DIR, made if need be: a directory of root's that only root can
 * write, or -1 (a non-root fctrace takes no lock: it can only reach its
 * own JVMs, and the agent refuses a second session anyway). */
static int open_lock_dir(void)
{
	struct stat st;
	int fd;

	if (geteuid() != 0)
		return -1;
	mkdir(LOCK_DIR, 0700);
	if ((fd = open(LOCK_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) || st.st_uid != 0 || (st.st_mode & 022)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One fctrace per JVM: an flock on LOCK_DIR/jvm-PID-START.lock, where no
 * other user can make or hold a file. */
static int take_lock(struct jvm_agent *a, pid_t pid, char *why, size_t wlen)
{
	if ((a->lockdir = open_lock_dir()) < 0)
		return 0;
	snprintf(a->lock, sizeof(a->lock), "jvm-%d-%llu.lock", (int)pid, start_time(pid));
	a->lfd = openat(a->lockdir, a->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (a->lfd < 0) {
		snprintf(why, wlen, "cannot create %s/%s: %s", LOCK_DIR, a->lock, strerror(errno));
		a->lock[0] = '\0';
		return -1;
	}
	if (flock(a->lfd, LOCK_EX | LOCK_NB)) {
		snprintf(why, wlen, "another fctrace is attached to JVM %d", (int)pid);
		close(a->lfd);
		a->lfd = -1;
		a->lock[0] = '\0';	/* the other's: not removed */
		return -1;
	}
	return 0;
}

struct jvm_agent *jvm_agent_listen(pid_t pid, bool in_target_root, const struct target_cred *cred,
				   char *why, size_t wlen)
{
	struct jvm_agent *a = calloc(1, sizeof(*a));
	char root[64];
	int err = 0;

	if (!a) {
		snprintf(why, wlen, "out of memory");
		return NULL;
	}
	a->lfd = a->listen_fd = a->conn = a->dirfd = a->lockdir = -1;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->pid = pid;
	a->cred = *cred;
	a->other_ns = in_target_root && jvm_ns_pid(pid, pid) != pid;
	if (a->other_ns && (!(a->seen = calloc(PID_SPACE / 8, 1)) ||
			    !(a->pending = malloc(AGENT_TIDS_MAX * sizeof(*a->pending))) ||
			    !(a->tids = malloc(AGENT_TIDS_MAX * sizeof(*a->tids))))) {
		snprintf(why, wlen, "out of memory");
		jvm_agent_close(a);
		return NULL;
	}
	snprintf(root, sizeof(root), in_target_root ? "/proc/%d/root/tmp" : "/tmp", (int)pid);
	snprintf(a->sock_in, sizeof(a->sock_in), "/tmp/.fctrace-%d-%d.sock", (int)getpid(),
		 (int)pid);
	snprintf(a->sock, sizeof(a->sock), "%s%s", in_target_root ? root : "",
		 a->sock_in + (in_target_root ? 4 : 0));
	/* a JVM fctrace starts is its alone; a running one is locked */
	if ((in_target_root && take_lock(a, pid, why, wlen)) || (err = bind_socket(a, root))) {
		if (err)
			snprintf(why, wlen, "its user cannot make the agent's socket %s: %s",
				 a->sock, strerror(-err));
		jvm_agent_close(a);
		return NULL;
	}
	a->thr_on = !pthread_create(&a->thr, NULL, reader, a);
	return a;
}

void jvm_agent_set_pid(struct jvm_agent *a, pid_t pid)
{
	if (a)
		a->pid = pid;
}

int jvm_agent_tids(struct jvm_agent *a, struct jvm_tidpair **out)
{
	int n;

	*out = NULL;
	if (!a)
		return 0;
	pthread_mutex_lock(&a->mu);
	n = a->ntids;
	if (n && (*out = malloc(n * sizeof(**out))))
		memcpy(*out, a->tids, n * sizeof(**out));
	pthread_mutex_unlock(&a->mu);
	return *out ? n : 0;
}

char *jvm_agent_option(const struct jvm_agent *a, const char *file)
{
	size_t len = strlen(file) + strlen(a->sock_in) + 64;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "-agentpath:%s=sock=%s,hold=1", file, a->sock_in);
	return s;
}

bool jvm_agent_release(struct jvm_agent *a)
{
	bool sent = false;

	if (!a)
		return false;
	pthread_mutex_lock(&a->mu);
	if (a->conn >= 0 && !a->eof)
		sent = send(a->conn, "G", 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1;
	pthread_mutex_unlock(&a->mu);
	return sent;
}

/* --- the end ------------------------------------------------------------------- */

/* Ask for a dump and wait for it (or the JVM's last one, sent as it
 * exited) until the deadline or a signal: the text of the last whole
 * dump, malloc'd; NULL if none. */
char *jvm_agent_dump(struct jvm_agent *a, uint64_t until)
{
	char *out = NULL;
	unsigned had;
	int ms;

	if (!a)
		return NULL;
	pthread_mutex_lock(&a->mu);
	had = a->dumps;
	if (a->conn >= 0 && !a->eof && send(a->conn, "D", 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
		while (a->dumps == had && !a->eof && a->thr_on &&
		       (ms = deadline_left_ms(until, 100)) > 0) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (long)ms * 1000000;
			ts.tv_sec += ts.tv_nsec / 1000000000;
			ts.tv_nsec %= 1000000000;
			pthread_cond_timedwait(&a->cv, &a->mu, &ts);
		}
	if (a->dumps)
		out = strndup(a->buf + a->dump_from, a->dump_to - a->dump_from);
	pthread_mutex_unlock(&a->mu);
	return out;
}

bool jvm_agent_connected(struct jvm_agent *a)
{
	bool c;

	if (!a)
		return false;
	pthread_mutex_lock(&a->mu);
	c = a->conn >= 0;
	pthread_mutex_unlock(&a->mu);
	return c;
}

uint64_t jvm_agent_dropped(struct jvm_agent *a)
{
	uint64_t d;

	if (!a)
		return 0;
	pthread_mutex_lock(&a->mu);
	d = a->dropped;
	pthread_mutex_unlock(&a->mu);
	return d;
}

void jvm_agent_close(struct jvm_agent *a)
{
	if (!a)
		return;
	a->stop = true;
	if (a->thr_on)
		pthread_join(a->thr, NULL);
	if (a->conn >= 0)
		close(a->conn);	/* the agent's EOF: it turns itself off */
	if (a->listen_fd >= 0) {
		close(a->listen_fd);
		remove_file(a, a->sock);
	}
	jvm_agent_remove_copy(a);
	if (a->lock[0])
		unlinkat(a->lockdir, a->lock, 0);
	if (a->lfd >= 0)
		close(a->lfd);
	if (a->lockdir >= 0)
		close(a->lockdir);
	if (a->dirfd >= 0)
		close(a->dirfd);
	free(a->buf);
	free(a->tids);
	free(a->seen);
	free(a->pending);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}
