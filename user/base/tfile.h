/*
 * tfile.h - a traced process's files, opened as that process sees them.
 *
 * A root fctrace never opens a path a target's owner wrote: /proc/PID/maps
 * names a mapped file as the kernel prints it (a newline becomes the four
 * characters "\012", a renamed directory keeps its old name, another mount
 * namespace's file is shown by its path there), and the owner can put
 * anything at that path. So:
 *
 *   - a mapped file is opened through /proc/PID/map_files/START-END, the
 *     kernel's own link to the very file mapped, first with O_PATH (no
 *     device or FIFO is ever opened), and kept only if it is a regular
 *     file whose device and inode are the ones maps gives, read as the
 *     target's owner (a program it may run but not read stays unread);
 *   - a file found by name (a debug file) is resolved inside the target's
 *     root (/proc/PID/root, openat2 RESOLVE_IN_ROOT: absolute links and
 *     ".." stay inside), with the target's file-system uid and gid (root's
 *     file-system capabilities dropped meanwhile), and kept only if it is a
 *     regular file of bounded size that the target's owner may read.
 *
 * Every fd returned is O_RDONLY | O_CLOEXEC | O_NONBLOCK.
 * Functions returning int give an fd or 0 on success, -errno on failure.
 */
#ifndef FCTRACE_TFILE_H
#define FCTRACE_TFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One line of /proc/PID/maps. */
struct tmap {
	uint64_t start, end, off;
	unsigned dev_major, dev_minor;
	uint64_t ino;			/* 0: not a file (anonymous, [stack], ...) */
	const char *name;		/* as maps writes it: shown, never opened */
};

/* Parse one line (its newline removed); name points into line. 0, or
 * -EINVAL when it is not a maps line. */
int tfile_parse_maps(const char *line, struct tmap *m);

struct troot;

/* The file mapped at m (a maps line of process pid), through map_files:
 * a regular file with m's device and inode, else -EPERM (or -errno);
 * opened as owner's uid and gid when given (an execute-only program is
 * mapped, but its owner cannot read it: -EACCES). */
int tfile_open_mapped(pid_t pid, const struct tmap *m, const struct troot *owner);

/* Does m name the same file (device and inode) as open fd? */
bool tfile_same(int fd, const struct tmap *m);

/* Does fd start with the ELF magic? */
bool tfile_is_elf(int fd);

/* Whose files a process sees: its root (an O_PATH fd) and its owner. */
struct troot {
	int fd;				/* /proc/PID/root, or "/" for the host */
	uid_t uid;
	gid_t gid;
};

/* Process pid's root (host: fctrace's own root, for the host's debug
 * files), and the process's owner, who the files are opened as. */
int troot_open(struct troot *r, pid_t pid, bool host);
void troot_close(struct troot *r);

/* A debug file the process's owner can read: path resolved inside r's
 * root (absolute or relative to it), a regular file of at most max_size
 * bytes, readable by others or owned by r->uid. */
#define TFILE_DEBUG_MAX	(4ull << 30)
int troot_open_file(const struct troot *r, const char *path, uint64_t max_size);

#endif /* FCTRACE_TFILE_H */
