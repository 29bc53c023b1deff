/*
 * uinline.h - the functions the compiler inlined at one address, from
 * DWARF (DW_TAG_inlined_subroutine scopes, read by libdw): what turns a
 * stack's "run;pthread_mutex_lock" into "run;get_locked;pthread_mutex_lock"
 * when get_locked was inlined into run. Answers are cached per address:
 * a stack's pcs repeat from sample to sample.
 */
#ifndef FCTRACE_UINLINE_H
#define FCTRACE_UINLINE_H

#include <elfutils/libdwfl.h>

#define UINLINE_MAX	8	/* inlined levels kept at one address */

/* One inlined function at an address, and where its caller called it. */
struct uinl {
	const char *func;	/* linkage name if any (mangled), else the name */
	const char *call_file;	/* the call's source file (full path), or NULL */
	int call_line;		/* the call's line in its caller, or 0 */
};

struct uinline;

struct uinline *uinline_new(void);
/* Free the cache; call before the Dwfl its names point into ends. */
void uinline_free(struct uinline *c);

/* The functions inlined at pc in mod (a Dwfl address, pc of the
 * instruction itself: a return address less one), innermost first, up
 * to max into out; the strings belong to mod's DWARF. How many (0: pc is
 * in no inlined function, or mod has no DWARF). c may be NULL (no cache). */
int uinline_at(struct uinline *c, Dwfl_Module *mod, Dwarf_Addr pc, struct uinl *out, int max);

#endif /* FCTRACE_UINLINE_H */
