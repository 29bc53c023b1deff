/*
 * jvm_agent.c - fctrace's side of its JVMTI agent (trace/jvmti_agent.c):
 * the UNIX socket the agent reports on, the agent loaded at JVM start
 * (-agentpath in JAVA_TOOL_OPTIONS) or into a running JVM (jvm_attach.c),
 * the totals read at the end, and every file made for it removed.
 *
 * The socket is bound in the JVM's own /tmp (/proc/PID/root/tmp for a
 * running JVM: another mount namespace's too), owned by the JVM's user,
 * mode 0600, and a connection is kept only from the target's pid
 * (SO_PEERCRED). Closing it is the agent's signal to turn itself off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "trace/jvm.h"

struct jvm_agent {
	pid_t pid;		/* whose connection is kept */
	char sock[200];		/* the socket, as fctrace reaches it */
	char sock_in[128];	/* ... and as the JVM does */
	char lock[128];		/* one fctrace per JVM */
	/* the JVM's /tmp, held open: its files are removed through it even
	 * once the JVM is gone (and /proc/PID/root with it) */
	int dirfd;
	int lfd, listen_fd, conn;
	pthread_t thr;
	bool thr_on;
	volatile bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *buf;		/* what the agent sent */
	size_t n, cap;
	size_t dump_from, dump_to;	/* the last whole dump ("...E\n") */
	size_t lines_to;		/* lines up to here were looked at */
	bool other_ns;			/* the JVM's tids are another pid namespace's */
	struct jvm_tidpair *tids;	/* ... mapped as each thread told its own */
	int ntids;
	unsigned dumps;
	bool eof;
};

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

/* --- the reader thread ---------------------------------------------------- */

/* path's last name, removed from the JVM's /tmp */
static void remove_file(struct jvm_agent *a, const char *path)
{
	const char *name = strrchr(path, '/');

	if (a->dirfd >= 0 && name)
		unlinkat(a->dirfd, name + 1, 0);
}

static bool peer_is(int fd, pid_t pid)
{
	struct ucred c;
	socklen_t l = sizeof(c);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &l) && c.pid == pid;
}

/* host tid of the JVM's thread ns (its own namespace's id), 0 if gone */
static uint32_t host_of(pid_t pid, uint32_t ns)
{
	char path[64];
	struct dirent *d;
	uint32_t host = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	while (!host && (d = readdir(dir))) {
		pid_t t = (pid_t)atoi(d->d_name);

		if (t > 0 && (uint32_t)jvm_ns_pid(pid, t) == ns)
			host = (uint32_t)t;
	}
	closedir(dir);
	return host;
}

/* Each "N" line (a thread telling its tid, as it runs): its host tid,
 * looked up now, while the thread lives. Under a->mu. */
static void map_new_tids(struct jvm_agent *a)
{
	while (a->other_ns) {
		char *nl = memchr(a->buf + a->lines_to, '\n', a->n - a->lines_to);
		unsigned tid;
		long long jid;

		if (!nl)
			return;
		if (sscanf(a->buf + a->lines_to, "N\t%lld\t%u", &jid, &tid) == 2 && tid) {
			struct jvm_tidpair *p = realloc(a->tids, (a->ntids + 1) * sizeof(*p));

			if (p) {
				a->tids = p;
				p[a->ntids].ns = tid;
				p[a->ntids++].host = host_of(a->pid, tid);
			}
		}
		a->lines_to = (size_t)(nl - a->buf) + 1;
	}
}

static void take(struct jvm_agent *a, const char *d, size_t n)
{
	pthread_mutex_lock(&a->mu);
	if (a->n + n + 1 > a->cap) {
		size_t cap = (a->n + n + 1) * 2;
		char *nb = realloc(a->buf, cap);

		if (!nb) {
			pthread_mutex_unlock(&a->mu);
			return;
		}
		a->buf = nb;
		a->cap = cap;
	}
	memcpy(a->buf + a->n, d, n);
	a->n += n;
	a->buf[a->n] = '\0';
	map_new_tids(a);
	/* a dump ends with "E\n" at a line start */
	for (size_t i = a->dump_to; i + 1 < a->n; i++) {
		if (a->buf[i] == 'E' && a->buf[i + 1] == '\n' && (i == 0 || a->buf[i - 1] == '\n')) {
			a->dump_from = a->dump_to;
			a->dump_to = i + 2;
			a->dumps++;
			i++;
		}
	}
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

static void accept_one(struct jvm_agent *a)
{
	int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (a->conn >= 0 || !peer_is(fd, a->pid)) {
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
	char d[8192];

	while (!a->stop && !a->eof) {
		struct pollfd p = { .fd = a->conn >= 0 ? a->conn : a->listen_fd, .events = POLLIN };
		ssize_t r;

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

/* --- the socket ------------------------------------------------------------- */

static int bind_socket(struct jvm_agent *a, uid_t uid, gid_t gid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(a->sock) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, a->sock, strlen(a->sock));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	remove_file(a, a->sock);	/* a stale one of a pid reused: ours by its name */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(a->sock, 0600) ||
	    (getuid() == 0 && chown(a->sock, uid, gid)) || listen(fd, 4)) {
		int err = -errno;

		close(fd);
		remove_file(a, a->sock);
		return err;
	}
	a->listen_fd = fd;
	return 0;
}

/* One fctrace per JVM: an flock on a file in the JVM's /tmp. */
static int take_lock(struct jvm_agent *a, const char *root, pid_t pid, char *why, size_t wlen)
{
	snprintf(a->lock, sizeof(a->lock), "%s/.fctrace-jvm-%d.lock", root, (int)pid);
	a->lfd = open(a->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (a->lfd < 0) {
		snprintf(why, wlen, "cannot create %s: %s", a->lock, strerror(errno));
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

struct jvm_agent *jvm_agent_listen(pid_t pid, bool in_target_root, uid_t uid, gid_t gid,
				   char *why, size_t wlen)
{
	struct jvm_agent *a = calloc(1, sizeof(*a));
	char root[64];
	int err = 0;

	if (!a) {
		snprintf(why, wlen, "out of memory");
		return NULL;
	}
	a->lfd = a->listen_fd = a->conn = a->dirfd = -1;
	a->pid = pid;
	a->other_ns = in_target_root && jvm_ns_pid(pid, pid) != pid;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	snprintf(root, sizeof(root), in_target_root ? "/proc/%d/root/tmp" : "/tmp", (int)pid);
	snprintf(a->sock_in, sizeof(a->sock_in), "/tmp/.fctrace-%d-%d.sock", (int)getpid(),
		 (int)pid);
	snprintf(a->sock, sizeof(a->sock), "%s%s", in_target_root ? root : "",
		 a->sock_in + (in_target_root ? 4 : 0));
	a->dirfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* a JVM fctrace starts is its alone; a running one is locked */
	if ((in_target_root && take_lock(a, root, pid, why, wlen)) ||
	    (err = bind_socket(a, uid, gid))) {
		if (err)
			snprintf(why, wlen, "cannot make the agent's socket %s: %s", a->sock,
				 strerror(-err));
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
		snprintf(s, len, "-agentpath:%s=sock=%s", file, a->sock_in);
	return s;
}

/* --- into a running JVM -------------------------------------------------------- */

static bool owner_is_us(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return !stat(path, &st) && st.st_uid == geteuid();
}

/* The agent where the JVM sees it: file itself when /proc/PID/root
 * reaches the same file, else a copy in the JVM's /tmp (into copy,
 * removed once loaded: a mapped file needs no name). */
static int agent_for(pid_t pid, const char *file, char *in, size_t ilen, char *copy, size_t clen)
{
	struct stat a, b;
	int src, dst, err = 0;
	ssize_t r;

	copy[0] = '\0';
	snprintf(copy, clen, "/proc/%d/root%s", (int)pid, file);
	/* the same file, and the JVM runs as we do (another user may not
	 * reach it through its directories): loaded where it is */
	if (!stat(file, &a) && !stat(copy, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    owner_is_us(pid)) {
		copy[0] = '\0';
		snprintf(in, ilen, "%s", file);
		return 0;
	}
	snprintf(in, ilen, "/tmp/.fctrace-%d-%s", (int)getpid(), JVM_AGENT_NAME);
	snprintf(copy, clen, "/proc/%d/root%s", (int)pid, in);
	if ((src = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	dst = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (dst < 0 || fstat(src, &a)) {
		err = -errno;
		copy[0] = '\0';
	}
	while (!err && (r = sendfile(dst, src, NULL, (size_t)a.st_size)) > 0)
		;
	if (dst >= 0)
		close(dst);
	close(src);
	return err;
}

int jvm_agent_load(struct jvm_agent *a, const char *file, char *why, size_t wlen)
{
	char in[512], copy[600], opts[160];
	int err;

	if ((err = agent_for(a->pid, file, in, sizeof(in), copy, sizeof(copy)))) {
		snprintf(why, wlen, "cannot put the agent where JVM %d sees it: %s", (int)a->pid,
			 strerror(-err));
		return err;
	}
	snprintf(opts, sizeof(opts), "sock=%s", a->sock_in);
	err = jvm_attach_load(a->pid, in, opts, why, wlen);
	if (copy[0])
		remove_file(a, copy);
	return err;
}

/* --- the end ------------------------------------------------------------------- */

/* Ask for a dump and wait for it (or the JVM's last one, sent as it
 * exited): the text of the last whole dump, malloc'd; NULL if none. */
char *jvm_agent_dump(struct jvm_agent *a, int timeout_ms)
{
	struct timespec until;
	unsigned had;
	char *out = NULL;

	if (!a)
		return NULL;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&a->mu);
	had = a->dumps;
	if (a->conn >= 0 && !a->eof && send(a->conn, "D", 1, MSG_NOSIGNAL) == 1)
		while (a->dumps == had && !a->eof && a->thr_on &&
		       pthread_cond_timedwait(&a->cv, &a->mu, &until) == 0)
			;
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
	if (a->lock[0])
		remove_file(a, a->lock);
	if (a->lfd >= 0)
		close(a->lfd);
	if (a->dirfd >= 0)
		close(a->dirfd);
	free(a->buf);
	free(a->tids);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}
