/*
 * outfile.h - every report file fctrace writes (--json, --csv, --html),
 * and standard output. A file is written into a new temporary (O_EXCL,
 * O_NOFOLLOW) in its destination's directory and renamed over the
 * destination only once every byte is out: a planted symlink is replaced,
 * never followed, and a failed write leaves no half report behind. Only
 * regular files are written: a FIFO, device, socket or directory at the
 * destination (or a link to one) is refused.
 */
#ifndef FCTRACE_OUTFILE_H
#define FCTRACE_OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct outfile {
	FILE *f;			/* a memory stream: the bytes go out at close */
	char *buf;
	size_t len;
	int fd;				/* where they go: the temporary, or 1 */
	const char *opt, *path;		/* "--json", as given: for messages */
	int dirfd;			/* the destination's directory, -1 for stdout */
	char base[NAME_MAX + 1];	/* the destination's name in dirfd */
	char tmp[NAME_MAX + 1];		/* the temporary's, "" once renamed or removed */
};

/* Open path for opt ("-" = standard output). NULL after one line on
 * stderr ("fctrace: --json PATH: reason"), nothing left behind. */
FILE *outfile_open(struct outfile *out, const char *opt, const char *path);
/* Flush, check every write, close, rename into place: 0, or -1 after one
 * line on stderr, with the temporary removed and the destination as it was. */
int outfile_close(struct outfile *out);

/* Before any work: path's directories can be walked as outfile_open
 * will, the directory is writable, and what is at path (if anything) is
 * a regular file or a link to one or to nothing. 0, or 2 after one line. */
int outfile_check(const char *opt, const char *path);

/* Before anything opens a file: a closed fd 0, 1 or 2 gets a read-only
 * placeholder, so no data file or BPF map takes its number and a write
 * to a closed standard output fails as it should. */
void outfile_guard_std_fds(void);
/* At exit: flush standard output; 0, or 1 after one line on stderr
 * (unless a failed "-" output already said so). */
int outfile_stdout_done(void);

#endif
