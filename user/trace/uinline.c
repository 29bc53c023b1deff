/*
 * uinline.c - inlined functions at an address, from DWARF by libdw.
 *
 * dwarf_getscopes finds the innermost scope that holds pc; past an inlined
 * function it goes on with the scopes of that function's abstract
 * definition (what a debugger's variable lookup wants), so the scopes
 * that hold that innermost one in the tree come from dwarf_getscopes_die:
 * lexical blocks, a DW_TAG_inlined_subroutine for each function inlined
 * there, and at last the DW_TAG_subprogram it all was inlined into. Each inlined
 * scope names its function through DW_AT_abstract_origin (followed by
 * dwarf_attr_integrate) and says where it was called from in the scope
 * around it (DW_AT_call_file, an index into the unit's file table, and
 * DW_AT_call_line). The answers are cached by address in one hash per
 * Dwfl (open addressing, bounded): reading a unit's scopes is a walk of
 * its DIEs, and a stack's addresses repeat from sample to sample.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "trace/uinline.h"

#define CACHE_MAX	(1u << 16)	/* addresses kept; past that, asked anew */

struct slot {
	Dwarf_Addr pc;
	int n, first;		/* n levels at pool[first]; n < 0: the slot is free */
};

struct uinline {
	struct slot *slots;
	unsigned cap, used;	/* cap a power of two, used < cap / 2 */
	struct uinl *pool;
	int npool, poolcap;
};

struct uinline *uinline_new(void)
{
	return calloc(1, sizeof(struct uinline));
}

void uinline_free(struct uinline *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->pool);
	free(c);
}

/* The function an inlined scope stands for: its linkage name (C++,
 * demangled by the caller) or its name, through abstract_origin. */
static const char *scope_func(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!s)
		s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	return s ? s : dwarf_diename(die);
}

/* Where an inlined scope was called: its unit's file and the line. */
static void scope_call(Dwarf_Die *cu, Dwarf_Die *die, struct uinl *l)
{
	Dwarf_Attribute a;
	Dwarf_Word file, line;
	Dwarf_Files *files;
	size_t nfiles;

	l->call_file = NULL;
	l->call_line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &line) == 0)
		l->call_line = (int)line;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &file) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && file < nfiles)
		l->call_file = dwarf_filesrc(files, file, NULL, NULL);
}

/* Asked of libdw, no cache. */
static int lookup(Dwfl_Module *mod, Dwarf_Addr pc, struct uinl *out, int max)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias), *inner = NULL, *scopes = NULL;
	int nscopes = cu && dwarf_getscopes(cu, pc - bias, &inner) > 0 ?
		      dwarf_getscopes_die(&inner[0], &scopes) : -1, n = 0;

	free(inner);
	for (int i = 0; i < nscopes && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;		/* the function it was all inlined into */
		if (tag != DW_TAG_inlined_subroutine)
			continue;	/* a lexical block */
		out[n].func = scope_func(&scopes[i]);
		if (!out[n].func)
			out[n].func = "?";
		scope_call(cu, &scopes[i], &out[n]);
		n++;
	}
	free(scopes);
	return n;
}

static unsigned slot_of(const struct uinline *c, Dwarf_Addr pc)
{
	return (unsigned)((pc * 0x9e3779b97f4a7c15ull) >> 32) & (c->cap - 1);
}

/* Double the table (and rehash) once it is half full; 0, or -1. */
static int grow(struct uinline *c)
{
	unsigned cap = c->cap ? 2 * c->cap : 1024;
	struct slot *old = c->slots, *s = malloc(cap * sizeof(*s));
	unsigned oldcap = c->cap;

	if (!s)
		return -1;
	for (unsigned i = 0; i < cap; i++)
		s[i].n = -1;
	c->slots = s;
	c->cap = cap;
	for (unsigned i = 0; i < oldcap; i++) {
		unsigned at;

		if (old[i].n < 0)
			continue;
		for (at = slot_of(c, old[i].pc); s[at].n >= 0; at = (at + 1) & (cap - 1))
			;
		s[at] = old[i];
	}
	free(old);
	return 0;
}

/* Keep n levels in the pool: their index, or -1. */
static int pool_add(struct uinline *c, const struct uinl *l, int n)
{
	if (c->npool + n > c->poolcap) {
		int cap = c->poolcap ? 2 * c->poolcap : 256;
		struct uinl *p;

		while (cap < c->npool + n)
			cap *= 2;
		if (!(p = realloc(c->pool, (size_t)cap * sizeof(*p))))
			return -1;
		c->pool = p;
		c->poolcap = cap;
	}
	memcpy(c->pool + c->npool, l, (size_t)n * sizeof(*l));
	c->npool += n;
	return c->npool - n;
}

/* The cached answer's slot for pc, or the free slot it would take
 * (NULL: no table, or no room for one more). */
static struct slot *find(struct uinline *c, Dwarf_Addr pc)
{
	bool room = 2 * (c->used + 1) <= c->cap || (c->used < CACHE_MAX && !grow(c));
	unsigned at;

	if (!c->cap)
		return NULL;
	for (at = slot_of(c, pc); c->slots[at].n >= 0; at = (at + 1) & (c->cap - 1))
		if (c->slots[at].pc == pc)
			return &c->slots[at];
	return room ? &c->slots[at] : NULL;
}

int uinline_at(struct uinline *c, Dwfl_Module *mod, Dwarf_Addr pc, struct uinl *out, int max)
{
	struct uinl l[UINLINE_MAX];
	struct slot *s = c && mod ? find(c, pc) : NULL;
	int n;

	if (!mod || max <= 0)
		return 0;
	if (s && s->n >= 0) {
		n = s->n < max ? s->n : max;
		memcpy(out, c->pool + s->first, (size_t)n * sizeof(*out));
		return n;
	}
	n = lookup(mod, pc, l, UINLINE_MAX);
	if (s && (s->first = n ? pool_add(c, l, n) : 0) >= 0) {
		s->pc = pc;
		s->n = n;
		c->used++;
	}
	n = n < max ? n : max;
	memcpy(out, l, (size_t)n * sizeof(*out));
	return n;
}
