/*
 * jvm_agent_copy.c - fctrace's agent put where a running JVM loads it
 * (jvm_agent_load, jvm/jvm.h).
 *
 * A JVM fctrace did not start may not see fctrace's own agent file (its
 * own mount namespace, another user's directories): it gets a copy in a
 * fresh directory of root's in its /tmp, made only where nobody but the
 * JVM's owner could replace it (a sticky /tmp, or the owner's own), and
 * the path sent is checked from inside the JVM's root, as its owner
 * resolves it, to name that very file. The copy stays until the JVM has
 * answered the load: a request it still holds would load whatever the
 * name named by then. A copy left that way is removed by a later attach
 * to the same /tmp once the fctrace that made it is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/deadline.h"
#include "jvm/jvm_agent_int.h"

#define COPY_PREFIX	".fctrace-agent-"

/* May root make a directory in the JVM's /tmp? Only where nobody but the
 * JVM's owner could replace what is made there: a sticky directory (a
 * real /tmp), or one of the owner's own that no one else may write. */
static bool tmp_fit_for_copy(int dirfd, uid_t owner, char *why, size_t wlen)
{
	struct stat st;

	if (fstat(dirfd, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, wlen, "its /tmp cannot be read");
		return false;
	}
	if ((st.st_mode & S_ISVTX) || (st.st_uid == owner && !(st.st_mode & 022)))
		return true;
	snprintf(why, wlen, "its /tmp is not a temporary directory (owner %u, mode %04o, no "
		 "sticky bit): fctrace makes nothing there", (unsigned)st.st_uid,
		 (unsigned)(st.st_mode & 07777));
	return false;
}

/* Remove a copy's directory (ours, root's: its one file, then itself). */
static void remove_copy(int tmpfd, const char *dir)
{
	int d = openat(tmpfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (d < 0)
		return;
	if (!fstat(d, &st) && st.st_uid == 0) {
		unlinkat(d, JVM_AGENT_NAME, 0);
		unlinkat(tmpfd, dir, AT_REMOVEDIR);
	}
	close(d);
}

/* Copies an earlier fctrace left (killed, or the JVM never answered its
 * load): removed when the fctrace that made them is gone. */
static void reap_copies(int tmpfd)
{
	int fd = openat(tmpfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *d;
	DIR *dir;

	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (!signals_caught() && (d = readdir(dir))) {
		int owner;

		if (strncmp(d->d_name, COPY_PREFIX, strlen(COPY_PREFIX)) ||
		    sscanf(d->d_name + strlen(COPY_PREFIX), "%d-", &owner) != 1 || owner <= 0 ||
		    owner == getpid() || !kill(owner, 0) || errno != ESRCH)
			continue;
		remove_copy(tmpfd, d->d_name);
	}
	closedir(dir);
}

/* A fresh directory of root's (0755) in the JVM's /tmp, held open. */
static int make_copy_dir(struct jvm_agent *a, int tmpfd)
{
	unsigned long long r = 0;
	struct stat st;
	int d;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r ^= (unsigned long long)deadline_now_ns();
	snprintf(a->copy_dir, sizeof(a->copy_dir), COPY_PREFIX "%d-%016llx", (int)getpid(), r);
	if (mkdirat(tmpfd, a->copy_dir, 0755))
		goto fail;
	d = openat(tmpfd, a->copy_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0)
		goto fail;
	if (fstat(d, &st) || st.st_uid != 0 || fchmod(d, 0755)) {
		close(d);
		errno = EPERM;
		goto fail;
	}
	return d;
fail:
	a->copy_dir[0] = '\0';
	return -errno;
}

static int copy_file(int dirfd, const char *file, struct stat *out)
{
	int src = open(file, O_RDONLY | O_CLOEXEC), dst, err = 0;
	struct stat st;
	ssize_t r;

	if (src < 0)
		return -errno;
	dst = openat(dirfd, JVM_AGENT_NAME, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0644);
	if (dst < 0 || fstat(src, &st) || fchmod(dst, 0644))
		err = -errno;
	while (!err && (r = sendfile(dst, src, NULL, (size_t)st.st_size)) > 0)
		;
	if (!err && fstat(dst, out))
		err = -errno;
	if (dst >= 0)
		close(dst);
	close(src);
	return err;
}

struct check_job {
	char path[PATH_MAX];
	dev_t dev;
	ino_t ino;
};

/* Does the path, as the JVM's owner resolves it in the JVM's root, name
 * exactly the file fctrace made? */
static int check_as_target(void *arg)
{
	struct check_job *j = arg;
	struct stat st;
	int fd = open(j->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		st.st_ino = 0;
	close(fd);
	return st.st_dev == j->dev && st.st_ino == j->ino ? 0 : -EXDEV;
}

static int check_seen(struct jvm_agent *a, const char *in, const struct stat *made)
{
	struct check_job j = { .dev = made->st_dev, .ino = made->st_ino };

	snprintf(j.path, sizeof(j.path), "/proc/%d/root%s", (int)a->pid, in);
	return as_target(&a->cred, check_as_target, &j);
}

/* The agent where the JVM sees it: file itself when the JVM is root's
 * and resolves file to the same file, else a copy in a fresh directory
 * of root's in its /tmp. in: the path to send. */
static int agent_for(struct jvm_agent *a, const char *file, char *in, size_t ilen, char *why,
		     size_t wlen)
{
	struct stat made;
	int tmpfd, d, err;

	if (a->cred.uid == 0 && !stat(file, &made) &&
	    !(snprintf(in, ilen, "%s", file), check_seen(a, in, &made)))
		return 0;
	if (a->dirfd < 0 || (tmpfd = openat(a->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -ENOENT;
	if (!tmp_fit_for_copy(tmpfd, a->cred.uid, why, wlen)) {
		close(tmpfd);
		return -EPERM;
	}
	reap_copies(tmpfd);
	if ((d = make_copy_dir(a, tmpfd)) < 0 || (err = copy_file(d, file, &made))) {
		err = d < 0 ? d : err;
		if (d >= 0)
			close(d);
		if (a->copy_dir[0])
			remove_copy(tmpfd, a->copy_dir);
		a->copy_dir[0] = '\0';
		close(tmpfd);
		return err;
	}
	close(d);
	close(tmpfd);
	snprintf(in, ilen, "/tmp/%s/%s", a->copy_dir, JVM_AGENT_NAME);
	return check_seen(a, in, &made);
}

int jvm_agent_load(struct jvm_agent *a, const char *file, uint64_t until, char *why,
		   size_t wlen)
{
	char in[PATH_MAX], opts[160];
	bool answered = false;
	int err;

	why[0] = '\0';
	if ((err = agent_for(a, file, in, sizeof(in), why, wlen))) {
		if (!why[0] || err != -EPERM)
			snprintf(why, wlen, "cannot put the agent where JVM %d sees it: %s",
				 (int)a->pid, err == -EXDEV ? "its root shows another file there"
				 : strerror(-err));
		return err;
	}
	snprintf(opts, sizeof(opts), "sock=%s", a->sock_in);
	err = jvm_attach_load(a->pid, &a->cred, in, opts, until, &answered, why, wlen);
	/* a request the JVM still holds would load whatever the name then
	 * names: the copy stays (its directory is root's) until reaped */
	a->copy_pending = a->copy_dir[0] && !answered;
	return err;
}

const char *jvm_agent_copy_left(const struct jvm_agent *a)
{
	return a && a->copy_pending ? a->copy_dir : NULL;
}

void jvm_agent_remove_copy(struct jvm_agent *a)
{
	int tmpfd;

	if (!a->copy_dir[0] || a->copy_pending || a->dirfd < 0)
		return;
	tmpfd = openat(a->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmpfd >= 0) {
		remove_copy(tmpfd, a->copy_dir);
		close(tmpfd);
	}
}

