/*
 * usym.h - user-space addresses to names, for programs fctrace did not
 * write: a futex word to the static or global object that holds it, and
 * a sampled wait's user stack (registers + a slice of stack, copied by
 * the BPF side) to the first call site outside the C library, unwound
 * with CFI (.eh_frame/.debug_frame) by elfutils' libdwfl. Works on the
 * memory map saved while the process lived, and on the files it mapped,
 * opened at that moment through /proc/PID/map_files (tfile.h), so a
 * process that has exited can still be named.
 */
#ifndef FCTRACE_USYM_H
#define FCTRACE_USYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "fctrace.h"

struct usym;

/* What a futex wait was, as told by the C library's frames above it. */
enum wait_kind {
	WK_UNKNOWN,	/* no stack, or no C library frame named it */
	WK_MUTEX,	/* pthread_mutex_lock, __lll_lock_wait, ... */
	WK_RWLOCK,
	WK_CONDVAR,	/* pthread_cond_wait: waiting to be signalled */
	WK_SEMAPHORE,
	WK_BARRIER,
	WK_JOIN,	/* pthread_join: waiting for a thread to end */
	WK_N,
};
const char *wait_kind_name(enum wait_kind k);	/* "mutex", "condvar", ... */
/* a lock (its waits are lock waits) rather than a wait for an event */
int wait_kind_is_lock(enum wait_kind k);

/* debuginfod: off unless on (then DEBUGINFOD_URLS must be set, each
 * request gives up after 5 s or at the usym's deadline, and the cache
 * is a directory fctrace makes, unless DEBUGINFOD_CACHE_PATH says where).
 * Off also unsets DEBUGINFOD_URLS, which libdw would read. 0, or
 * -ENOENT (no DEBUGINFOD_URLS), -ENOSYS (no libdebuginfod), -errno. */
int usym_debuginfod(bool on);
/* the cache in use, or NULL when debuginfod is off */
const char *usym_debuginfod_cache(void);
/* end the client; remove the cache fctrace made */
void usym_debuginfod_end(void);

struct usym *usym_new(void);
void usym_free(struct usym *u);

/* A network fetch in progress gives up at this CLOCK_MONOTONIC time
 * (0: no deadline of the caller's). */
void usym_set_deadline(struct usym *u, uint64_t deadline_ns);

/* Save /proc/TGID/maps now (call while the process lives; again later
 * to see libraries it loaded meanwhile). 0, or -errno. */
int usym_snapshot(struct usym *u, pid_t tgid);
/* The same unless the last snapshot is younger than max_age_ns: a server
 * whose processes' stacks arrive in turns would read every maps file once
 * per stack (a third of fctrace's CPU on PostgreSQL's backends). */
int usym_snapshot_since(struct usym *u, pid_t tgid, uint64_t max_age_ns);

/* The object that holds addr, if a symbol covers it: "name" in the main
 * executable, "libfoo.so.1:name" in a library. 0 and [*start, *start +
 * *size) filled, or -1. */
int usym_data_name(struct usym *u, pid_t tgid, uint64_t addr, char *buf, size_t len,
		   uint64_t *start, uint64_t *size);

/* Unwind one sampled wait: the first frame outside the C library as
 * "func+0x4a (file.c:34)", "func+0x4a" or "prog+0x1a2b" (no symbols),
 * or "get_locked (file.c:35, inlined)" when the call lies in a function
 * the compiler inlined there (then " from func+0x4a (file.c:50)"),
 * and the kind of wait the C library's frames show. 0, or -1 when not
 * even one frame outside the C library was found (site is "?"). */
int usym_wait_site(struct usym *u, const struct fct_ustack *e, size_t len, char *site,
		   size_t site_len, enum wait_kind *kind);

/* One frame of an unwound stack, for flame graphs (stacks.h). */
struct uframe {
	char func[128];		/* the function ("run"), or "prog+0x1a2b" without symbols */
	char file[96];		/* its source file's base name, or "" */
	int line;		/* the line of the call (of the pc, innermost), or 0 */
	char module[64];	/* the file mapped there, base name */
	bool inlined;		/* inlined into the next frame (its caller): the
				 * same pc, from DWARF's DW_TAG_inlined_subroutine */
};
#define USYM_MAX_STACK	64	/* frames kept of one stack */

/* Unwind one sampled wait the whole way (as far as the copied stack
 * slice reaches): up to max frames into out, innermost first, with the
 * functions inlined at each pc (uinline.h) as frames of their own.
 * Returns how many (0: none). */
int usym_unwind(struct usym *u, const struct fct_ustack *e, size_t len, struct uframe *out,
		int max);

/* usym_wait_site and usym_unwind in one walk: the site, the kind, and
 * up to max frames into out (*n of them). Returns as usym_wait_site. */
int usym_wait_stack(struct usym *u, const struct fct_ustack *e, size_t len, char *site,
		    size_t site_len, enum wait_kind *kind, struct uframe *out, int max, int *n);

/* The objects a name needed that were not symbolised as they should be
 * (a file its owner cannot read, a debug file of another build), with
 * why: "tp: its owner may run it but not read it; ..." into buf. How many. */
int usym_unsymbolised(const struct usym *u, char *buf, size_t len);

#endif /* FCTRACE_USYM_H */
