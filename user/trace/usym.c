/*
 * usym.c - futex words and sampled user stacks to names, with libdwfl.
 *
 * One Dwfl per traced process, built from the last saved memory map, so
 * the names hold after the process exited. Each file the process maps is
 * opened once, at the snapshot, through /proc/PID/map_files and checked
 * (tfile.c); libdwfl gets that fd (find_elf) and never a path from maps.
 * Debug files are looked for by build-id under /usr/lib/debug in the
 * target's root, then the host's, and by debug link beside the file in
 * the target's root, as the target's owner (tfile.c); debuginfod only
 * when asked for (usym_debuginfod), bounded in time. Each module's
 * symbols are indexed once (a sorted array), not searched per lookup.
 * The unwinder's memory is only the stack slice the BPF side copied: CFI
 * needs nothing else.
 */
#include <dlfcn.h>
#include <elfutils/libdwelf.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "base/clock.h"
#include "base/tfile.h"
#include "trace/uinline.h"
#include "trace/usym.h"

#define USYM_MAX_PROCS	64
#define USYM_MAX_OBJS	256		/* files kept open per process */
#define USYM_MAX_SYMS	(8u << 20)	/* symbols indexed per module */
#define MAX_FRAMES	24

struct usym_sym {
	uint64_t addr, size;
	const char *name;		/* in libdwfl's string table */
	unsigned char type;
};

/* One file a process maps: one module of its Dwfl. */
struct uobj {
	uint64_t low, high;		/* first to last mapping of the file */
	struct tmap id;			/* its first mapping: device and inode */
	char *name;			/* as maps writes it: shown, never opened */
	char *dir;			/* its directory as the kernel names it (for
					 * debug links), or NULL */
	int fd;				/* from map_files, checked; -1: refused */
	const char *why;		/* why it was refused, or why its debug file
					 * was: said when a name needed it */
	bool said;			/* a name needed it: the report says why */
	struct uproc *p;
	Dwfl_Module *mod;
	struct usym_sym *syms;		/* sorted by address, built once */
	size_t nsyms;
	bool indexed, alt_found;
	int dwarf_ok;			/* 0 unknown, 1 line info usable, -1 not */
};

struct uproc {
	pid_t tgid;
	char *files;		/* the file lines of the last snapshot of maps */
	uint64_t snap_ns;	/* when it was taken */
	int twin;		/* a process of the very same file mappings (forked
				 * and not exec'd: a server's worker) whose objects
				 * and Dwfl it uses - each process's own would
				 * decompress the same debug sections again; -1 */
	struct uobj *objs;
	int nobjs;
	struct troot root, host;	/* its root and the host's, as its owner */
	/* the image its maps are of (struct fct_ustack's): where exec put
	 * its code and stack (/proc/PID/stat); image_known false: not read,
	 * or hidden (a kernel that will not show them reads 1 and 0) */
	uint64_t start_code, start_stack;
	bool image_known;
	/* no stack of it ever matched while IMAGE_GIVE_UP did not: a kernel
	 * whose /proc shows other values than the probes read, so the image
	 * is not checked for it (the maps' age alone refreshes them) */
	bool image_ignored;
	unsigned image_matched, image_stale;
	Dwfl *dwfl;		/* built from objs; NULL until needed */
	struct uinline *inl;	/* the inlined functions by address, of dwfl */
	int attached;		/* dwfl_attach_state done */
};

struct usym {
	struct uproc procs[USYM_MAX_PROCS];
	int nprocs;
	const struct fct_ustack *cur;	/* the sample being unwound */
	size_t cur_len;
	int cur_given;			/* next_thread handed its tid out */
	uint64_t deadline_ns;		/* debuginfod gives up then (0: none) */
	uint64_t stale_image;		/* stacks of an image their process had
					 * left by exec when they were read */
};

static const char *const kind_names[WK_N] = {
	"futex", "mutex", "rwlock", "condvar", "semaphore", "barrier", "join",
};

const char *wait_kind_name(enum wait_kind k)
{
	return (unsigned)k < WK_N ? kind_names[k] : "futex";
}

int wait_kind_is_lock(enum wait_kind k)
{
	return k == WK_MUTEX || k == WK_RWLOCK || k == WK_UNKNOWN;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- debuginfod: off unless asked for ----------------------------------- */

typedef int (*dinfod_progress_fn)(void *client, long a, long b);

static struct {
	bool on;
	void *so;
	void *(*begin)(void);
	int (*find)(void *client, const unsigned char *id, int len, char **path);
	void (*set_progress)(void *client, dinfod_progress_fn fn);
	void (*end)(void *client);
	void *client;
	uint64_t give_up_ns;		/* the request in flight stops then */
	char cache[64];			/* the cache fctrace made, removed at the end */
} dinfod;

static int dinfod_progress(void *client, long a, long b)
{
	(void)client, (void)a, (void)b;
	return now_ns() >= dinfod.give_up_ns;	/* non-zero: give up */
}

int usym_debuginfod(bool on)
{
	if (!on) {
		unsetenv("DEBUGINFOD_URLS");	/* libdw reads it: no network */
		return 0;
	}
	if (!getenv("DEBUGINFOD_URLS") || !*getenv("DEBUGINFOD_URLS"))
		return -ENOENT;
	dinfod.so = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!dinfod.so)
		return -ENOSYS;
	dinfod.begin = (void *(*)(void))dlsym(dinfod.so, "debuginfod_begin");
	dinfod.find = (int (*)(void *, const unsigned char *, int, char **))
		dlsym(dinfod.so, "debuginfod_find_debuginfo");
	dinfod.set_progress = (void (*)(void *, dinfod_progress_fn))
		dlsym(dinfod.so, "debuginfod_set_progressfn");
	dinfod.end = (void (*)(void *))dlsym(dinfod.so, "debuginfod_end");
	if (!dinfod.begin || !dinfod.find || !dinfod.set_progress || !dinfod.end)
		return -ENOSYS;
	/* not root's ~/.cache: a directory of fctrace's own, removed at exit */
	if (!getenv("DEBUGINFOD_CACHE_PATH")) {
		snprintf(dinfod.cache, sizeof(dinfod.cache), "/tmp/fctrace-debuginfod.XXXXXX");
		if (!mkdtemp(dinfod.cache))
			return -errno;
		setenv("DEBUGINFOD_CACHE_PATH", dinfod.cache, 1);
	}
	if (!getenv("DEBUGINFOD_TIMEOUT"))
		setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	dinfod.client = dinfod.begin();
	if (!dinfod.client)
		return -ENOMEM;
	dinfod.set_progress(dinfod.client, dinfod_progress);
	dinfod.on = true;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

const char *usym_debuginfod_cache(void)
{
	return dinfod.on ? getenv("DEBUGINFOD_CACHE_PATH") : NULL;
}

void usym_debuginfod_end(void)
{
	if (dinfod.client)
		dinfod.end(dinfod.client);
	dinfod.client = NULL;
	dinfod.on = false;
	if (dinfod.cache[0])
		nftw(dinfod.cache, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	dinfod.cache[0] = '\0';
}

/* ---- the processes and their files -------------------------------------- */

struct usym *usym_new(void)
{
	return calloc(1, sizeof(struct usym));
}

static void obj_drop_index(struct uobj *o)
{
	free(o->syms);
	o->syms = NULL;
	o->nsyms = 0;
	o->indexed = false;
	o->mod = NULL;
	o->dwarf_ok = 0;
	o->alt_found = false;
}

static void proc_drop_dwfl(struct uproc *p)
{
	uinline_free(p->inl);	/* its names point into the Dwfl's DWARF */
	p->inl = NULL;
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->attached = 0;
	for (int i = 0; i < p->nobjs; i++)
		obj_drop_index(&p->objs[i]);
}

static void objs_free(struct uobj *objs, int n)
{
	for (int i = 0; i < n; i++) {
		if (objs[i].fd >= 0)
			close(objs[i].fd);
		free(objs[i].name);
		free(objs[i].dir);
		free(objs[i].syms);
	}
	free(objs);
}

void usym_free(struct usym *u)
{
	if (!u)
		return;
	for (int i = 0; i < u->nprocs; i++) {
		struct uproc *p = &u->procs[i];

		proc_drop_dwfl(p);
		objs_free(p->objs, p->nobjs);
		free(p->files);
		troot_close(&p->root);
		troot_close(&p->host);
	}
	free(u);
}

void usym_set_deadline(struct usym *u, uint64_t deadline_ns)
{
	if (u)
		u->deadline_ns = deadline_ns;
}

/* A fresh entry for tgid, its roots open; -1 (nothing open) when they
 * cannot be. */
static int proc_init(struct uproc *p, pid_t tgid)
{
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	p->twin = -1;
	p->root.fd = p->host.fd = -1;
	if (troot_open(&p->root, tgid, false) || troot_open(&p->host, tgid, true)) {
		troot_close(&p->root);
		troot_close(&p->host);
		return -1;
	}
	return 0;
}

/* The table full: a twin's entry (it owns no objects) whose process is
 * gone, made over for tgid, NULL when none (a server that forks a
 * process a connection fills the table in a few seconds). */
static struct uproc *gone_twin_reused(struct usym *u, pid_t tgid)
{
	for (int i = 0; i < u->nprocs; i++) {
		struct uproc *p = &u->procs[i];

		if (p->twin < 0 || !(kill(p->tgid, 0) && errno == ESRCH))
			continue;
		troot_close(&p->root);
		troot_close(&p->host);
		free(p->files);
		if (proc_init(p, tgid)) {
			p->twin = 0;	/* a free entry: no process has this pid */
			p->tgid = INT_MAX;
			return NULL;
		}
		return p;
	}
	return NULL;
}

static struct uproc *proc_of(struct usym *u, pid_t tgid, int create)
{
	struct uproc *p;

	for (int i = 0; i < u->nprocs; i++)
		if (u->procs[i].tgid == tgid)
			return &u->procs[i];
	if (!create)
		return NULL;
	if (u->nprocs == USYM_MAX_PROCS)
		return gone_twin_reused(u, tgid);
	p = &u->procs[u->nprocs];
	if (proc_init(p, tgid))
		return NULL;
	u->nprocs++;
	return p;
}

/* The whole of a /proc file (its size is unknown until read). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * The lines of maps that map a file, and the anonymous mapping right
 * after a file's last one: its .bss where the .bss outgrows the last
 * file-backed page (a static mutex after a large static buffer lives
 * there). What the Dwfl is built from.
 */
/* A shared mapping's line ("rw-s"): data another process shares, never
 * code - and PostgreSQL's backends map and unmap such segments all the
 * time, each change a rebuild of the process's objects (the debug
 * sections decompressed again: 30 % of fctrace's CPU on them). */
static bool shared_mapping(const char *line)
{
	const char *perms = strchr(line, ' ');

	return perms && strlen(perms) > 4 && perms[4] == 's';
}

static char *file_lines(char *maps)
{
	char *out = malloc(strlen(maps) + 1), *o = out;
	uint64_t file_end = 0;

	for (char *l = maps; out && l && *l; ) {
		char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		struct tmap m;
		bool file, bss;

		if (nl)
			*nl = '\0';
		file = !tfile_parse_maps(l, &m) && m.ino && !shared_mapping(l);
		bss = !file && !tfile_parse_maps(l, &m) && !m.name[0] && m.start == file_end;
		if (file || bss) {
			memcpy(o, l, n);
			o += n;
			*o++ = '\n';
		}
		file_end = file ? m.end : 0;
		l = nl ? nl + 1 : NULL;
	}
	if (out)
		*o = '\0';
	return out;
}

/* The directory of the mapped file as the kernel names it: for debug
 * links only, resolved inside the target's root. */
static char *mapped_dir(pid_t pid, const struct tmap *m)
{
	char link[96], path[4096], *slash;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid,
		 m->start, m->end);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return NULL;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash || strstr(path, " (deleted)"))
		return NULL;
	*slash = '\0';
	return strdup(path);
}

/* The fd of the same file in the last snapshot, handed over. */
static int take_fd(struct uproc *p, const struct uobj *o, char **dir)
{
	for (int i = 0; i < p->nobjs; i++) {
		struct uobj *old = &p->objs[i];

		if (old->fd >= 0 && old->low == o->low && old->id.ino == o->id.ino &&
		    old->id.dev_major == o->id.dev_major && old->id.dev_minor == o->id.dev_minor) {
			int fd = old->fd;

			old->fd = -1;
			*dir = old->dir;
			old->dir = NULL;
			return fd;
		}
	}
	return -1;
}

/* Why a mapped file could not be opened, in words. */
static const char *refusal(int err)
{
	switch (err) {
	case -EACCES: return "its owner may run it but not read it";
	case -EPERM: return "map_files gave another file than the one mapped";
	case -ENOENT: case -ESRCH: return "its mapping was gone";
	default: return "it could not be opened through map_files";
	}
}

/* Open a new object's file, as the process's owner: ELF only, or nothing
 * is kept; a refused one stays, named by offset, with why. */
static void obj_open(struct uproc *p, struct uobj *o)
{
	o->fd = take_fd(p, o, &o->dir);
	if (o->fd >= 0)
		return;
	o->fd = tfile_open_mapped(p->tgid, &o->id, &p->root);
	if (o->fd < 0) {
		o->why = refusal(o->fd);
		o->fd = -1;
		return;
	}
	if (!tfile_is_elf(o->fd)) {
		close(o->fd);
		o->fd = -1;
		return;
	}
	o->dir = mapped_dir(p->tgid, &o->id);
}

/* The objects of files: consecutive mappings of one file are one (the
 * anonymous .bss between them does not break it), as libdwfl does. */
static int objs_from(struct uproc *p, char *files, struct uobj **out)
{
	struct uobj *objs = calloc(USYM_MAX_OBJS, sizeof(*objs));
	int n = 0, kept = 0;

	if (!objs)
		return -ENOMEM;
	for (char *l = files; l && *l && kept < USYM_MAX_OBJS; ) {
		char *nl = strchr(l, '\n');
		struct uobj *last = n ? &objs[n - 1] : NULL;
		struct tmap m;

		*nl = '\0';
		if (tfile_parse_maps(l, &m)) {
			l = nl + 1;
			continue;
		}
		if (last && ((last->id.ino == m.ino && last->id.dev_major == m.dev_major &&
			      last->id.dev_minor == m.dev_minor && m.start >= last->high) ||
			     (!m.ino && m.start == last->high))) {
			last->high = m.end;	/* the same file, or its .bss past it */
		} else if (!m.ino) {
			;			/* a .bss whose file was refused */
		} else {
			if (last && last->fd < 0 && !last->why) {	/* not ELF: slot reused */
				free(last->name);
				free(last->dir);
				n--;
			}
			objs[n] = (struct uobj){ .low = m.start, .high = m.end, .id = m,
						 .name = strdup(m.name), .fd = -1, .p = p };
			objs[n].id.name = NULL;
			obj_open(p, &objs[n]);
			kept += objs[n].fd >= 0 || objs[n].why;
			n++;
		}
		*nl = '\n';
		l = nl + 1;
	}
	if (n && objs[n - 1].fd < 0 && !objs[n - 1].why) {
		free(objs[n - 1].name);
		free(objs[n - 1].dir);
		n--;
	}
	*out = objs;
	return n;
}

/* Every line of part is a line of whole. */
static bool lines_within(const char *part, const char *whole)
{
	size_t wlen = strlen(whole);

	for (const char *l = part; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
		const char *at = whole;
		bool found = false;

		while (!found && (at = memmem(at, wlen - (size_t)(at - whole), l, n)))
			if (at == whole || at[-1] == '\n')
				found = true;
			else
				at++;
		if (!found)
			return false;
		l += n;
	}
	return true;
}

static bool twin_take(struct usym *u, struct uproc *p, char *files);

/* p's own objects, made from its files (its twin, if any, left) */
static void objs_install(struct uproc *p, struct uobj *objs, int n)
{
	p->objs = objs;
	p->nobjs = n;
	p->twin = -1;
	for (int i = 0; i < n; i++)
		objs[i].p = p;
}

/* Fields 26 (startcode) and 28 (startstack) of a /proc/PID/stat line,
 * counted after the command's closing parenthesis (field 2, which may
 * hold spaces and parentheses itself). */
static bool stat_image(const char *stat, uint64_t *code, uint64_t *stack)
{
	const char *at = strrchr(stat, ')');
	char *end;

	if (!at)
		return false;
	/* field 3 follows its space: stop at the space before field 26 */
	for (int field = 3; field <= 26; field++) {
		at = strchr(at + 1, ' ');
		if (!at)
			return false;
	}
	*code = strtoull(at + 1, &end, 10);		/* 26: startcode */
	at = strchr(end + 1, ' ');			/* past 27: endcode */
	if (*end != ' ' || !at)
		return false;
	*stack = strtoull(at + 1, &end, 10);		/* 28: startstack */
	return *end == ' ' || *end == '\n' || *end == '\0';
}

/* The image p's maps are of, read beside them. */
static void image_read(struct uproc *p)
{
	char path[64], *stat;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->tgid);
	stat = slurp(path);
	p->image_known = stat && stat_image(stat, &p->start_code, &p->start_stack) &&
			 p->start_code > 1 && p->start_stack;
	free(stat);
}

/* Are p's maps of the image e was sent from? Yes when either is unknown. */
static bool image_matches(const struct uproc *p, const struct fct_ustack *e)
{
	return p->image_ignored || !p->image_known || !e->start_code ||
	       (e->start_code == p->start_code && e->start_stack == p->start_stack);
}

/* Stacks of one process that match no image it is read with, none ever
 * matching: not its exec, a disagreement (see image_ignored). */
#define IMAGE_GIVE_UP	64

/* e is of another image than p's maps, read again: a stack of an image
 * the process has left (false, counted), or the check given up. */
static bool image_stale(struct usym *u, struct uproc *p)
{
	if (!p->image_matched && ++p->image_stale > IMAGE_GIVE_UP) {
		p->image_ignored = true;
		return false;
	}
	u->stale_image++;
	return true;
}

int usym_snapshot(struct usym *u, pid_t tgid)
{
	struct uproc *p = proc_of(u, tgid, 1);
	char path[64], *maps, *files;
	struct uobj *objs;
	int n;

	if (!p)
		return -ENOSPC;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	maps = slurp(path);
	if (!maps)
		return -errno;
	files = file_lines(maps);
	free(maps);
	if (!files)
		return -ENOMEM;
	p->snap_ns = monotonic_ns();
	image_read(p);
	/* nothing new mapped: keep what we have (the same maps, the common
	 * case each watch turn, cost one compare). An exiting process shows
	 * its maps half torn down, then none, and its stacks still arrive */
	if (p->files && (!strcmp(p->files, files) || lines_within(files, p->files))) {
		free(files);
		return 0;
	}
	if (twin_take(u, p, files))
		return 0;
	n = objs_from(p, files, &objs);
	if (n < 0) {
		free(files);
		return n;
	}
	proc_drop_dwfl(p);	/* rebuilt from the new objects when next asked */
	objs_free(p->objs, p->nobjs);
	free(p->files);
	p->files = files;
	objs_install(p, objs, n);
	return 0;
}

/* Another process with exactly these file mappings and objects of its
 * own: p uses its objects (taking files); false when none. */
static bool twin_take(struct usym *u, struct uproc *p, char *files)
{
	for (int i = 0; i < u->nprocs; i++) {
		struct uproc *q = &u->procs[i];

		if (q == p || q->twin >= 0 || !q->nobjs || !q->files || strcmp(q->files, files))
			continue;
		proc_drop_dwfl(p);
		objs_free(p->objs, p->nobjs);
		p->objs = NULL;
		p->nobjs = 0;
		free(p->files);
		p->files = files;
		p->twin = i;
		return true;
	}
	return false;
}

/* The process whose objects p's stacks are read with: its twin while the
 * twin's mappings are still p's, else its own (made now if it had none). */
static struct uproc *source_of(struct usym *u, struct uproc *p)
{
	struct uproc *q = p && p->twin >= 0 ? &u->procs[p->twin] : NULL;
	struct uobj *objs;
	int n;

	if (!q)
		return p;
	/* still a source of objects, with p's very mappings */
	if (q->twin < 0 && q->files && !strcmp(q->files, p->files))
		return q;
	p->twin = -1;		/* the twin mapped something since */
	if ((n = objs_from(p, p->files, &objs)) >= 0)
		objs_install(p, objs, n);
	return p;
}

int usym_snapshot_since(struct usym *u, pid_t tgid, uint64_t max_age_ns)
{
	struct uproc *p = proc_of(u, tgid, 0);

	if (p && p->files && monotonic_ns() - p->snap_ns < max_age_ns)
		return 0;
	return usym_snapshot(u, tgid);
}

/* ---- what libdwfl is given ---------------------------------------------- */

/* The checked fd of the module's own file, never a path. */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct uobj *o = *userdata;

	(void)mod, (void)modname, (void)base;
	*file_name = NULL;
	*elfp = NULL;
	return o && o->fd >= 0 ? fcntl(o->fd, F_DUPFD_CLOEXEC, 0) : -1;
}

/* A debug file's CRC, by identity: each process's modules are matched
 * again whenever its maps change, and a CRC reads the whole file (40 % of
 * fctrace's CPU on PostgreSQL's backends before it was kept). */
#define CRC_KEPT	64

static struct {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	uLong crc;
} crc_kept[CRC_KEPT];
static unsigned crc_next;
static pthread_mutex_t crc_mu = PTHREAD_MUTEX_INITIALIZER;

static bool crc_known(const struct stat *st, uLong *crc)
{
	bool found = false;

	pthread_mutex_lock(&crc_mu);
	for (unsigned i = 0; i < CRC_KEPT && !found; i++)
		if (crc_kept[i].ino && crc_kept[i].ino == st->st_ino &&
		    crc_kept[i].dev == st->st_dev && crc_kept[i].size == st->st_size &&
		    crc_kept[i].mtime.tv_sec == st->st_mtim.tv_sec &&
		    crc_kept[i].mtime.tv_nsec == st->st_mtim.tv_nsec) {
			*crc = crc_kept[i].crc;
			found = true;
		}
	pthread_mutex_unlock(&crc_mu);
	return found;
}

static uLong file_crc(int fd, const struct stat *st, bool *ok)
{
	uLong c = crc32(0L, Z_NULL, 0);
	unsigned k;
	void *m;

	if ((*ok = crc_known(st, &c)))
		return c;
	m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if ((*ok = m != MAP_FAILED) == false)
		return 0;
	for (off_t at = 0; at < st->st_size; at += 1 << 30) {
		off_t n = st->st_size - at < (1 << 30) ? st->st_size - at : (1 << 30);

		c = crc32(c, (const Bytef *)m + at, (uInt)n);
	}
	munmap(m, (size_t)st->st_size);
	pthread_mutex_lock(&crc_mu);
	k = crc_next++ % CRC_KEPT;
	crc_kept[k].dev = st->st_dev;
	crc_kept[k].ino = st->st_ino;
	crc_kept[k].size = st->st_size;
	crc_kept[k].mtime = st->st_mtim;
	crc_kept[k].crc = c;
	pthread_mutex_unlock(&crc_mu);
	return c;
}

/* The debug file belongs to the module: the same build-id, or (without
 * one) the debug link's CRC over the whole file (size-checked at open). */
static bool debug_matches(Dwfl_Module *mod, int fd, GElf_Word crc, bool by_link)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int idlen = dwfl_module_build_id(mod, &id, &vaddr);
	struct stat st;
	bool ok = false;

	if (idlen > 0) {
		Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		const void *did;
		ssize_t dlen = e ? dwelf_elf_gnu_build_id(e, &did) : -1;

		ok = dlen == idlen && !memcmp(did, id, (size_t)idlen);
		elf_end(e);
		return ok;
	}
	if (!by_link || fstat(fd, &st))
		return false;
	return (GElf_Word)file_crc(fd, &st, &ok) == crc && ok;
}

/* An ELF debug file at path, in the target's root then (host) the host's. */
static int open_debug(struct uobj *o, const char *path, bool host)
{
	int fd = troot_open_file(&o->p->root, path, TFILE_DEBUG_MAX);

	if (fd < 0 && host)
		fd = troot_open_file(&o->p->host, path, TFILE_DEBUG_MAX);
	if (fd >= 0 && !tfile_is_elf(fd)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int by_build_id(Dwfl_Module *mod, struct uobj *o)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd;
	char path[64 + 2 * 64] = "/usr/lib/debug/.build-id/", *w;

	if (len < 2 || len > 64)
		return -1;
	w = path + strlen(path);
	w += sprintf(w, "%02x/", id[0]);
	for (int i = 1; i < len; i++)
		w += sprintf(w, "%02x", id[i]);
	strcpy(w, ".debug");
	fd = open_debug(o, path, true);
	if (fd >= 0 && !debug_matches(mod, fd, 0, false)) {
		close(fd);
		fd = -1;
		o->why = "its debug file under /usr/lib/debug/.build-id has another build-id";
	}
	return fd;
}

/* A debug link is a file name: beside the file, in .debug/ there, or
 * under /usr/lib/debug, all inside the target's root; the last also in
 * the host's (the CRC says whether it is the same build). */
static int by_link(Dwfl_Module *mod, struct uobj *o, const char *link, GElf_Word crc)
{
	static const char *const where[] = { "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s" };
	char path[8192];

	if (!link || !*link || strchr(link, '/') || !strcmp(link, "..") || !o->dir)
		return -1;
	for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
		int fd;

		if ((size_t)snprintf(path, sizeof(path), where[i], o->dir, link) >= sizeof(path))
			continue;
		fd = open_debug(o, path, i == 2);
		if (fd >= 0 && debug_matches(mod, fd, crc, true))
			return fd;
		if (fd >= 0) {
			close(fd);
			o->why = "its debug link names a file of another build";
		}
	}
	return -1;
}

/* .gnu_debugaltlink's file (dwz): an absolute name, checked to be DWARF
 * here, so that libdw never looks for it itself. */
static int by_altlink(struct uobj *o, const char *alt)
{
	int fd = alt && alt[0] == '/' ? open_debug(o, alt, true) : -1;
	Dwarf *d = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	dwarf_end(d);
	o->alt_found = true;
	return fd;
}

static int by_debuginfod(Dwfl_Module *mod, struct usym *u)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), fd;
	uint64_t now = now_ns();

	if (!dinfod.on || len <= 0)
		return -1;
	/* each request: its own 5 s, and never past the caller's deadline */
	dinfod.give_up_ns = now + 5000000000ull;
	if (u && u->deadline_ns && u->deadline_ns < dinfod.give_up_ns)
		dinfod.give_up_ns = u->deadline_ns;
	if (now >= dinfod.give_up_ns)
		return -1;
	fd = dinfod.find(dinfod.client, id, len, NULL);
	return fd >= 0 ? fd : -1;
}

static struct usym *cb_usym;	/* the usym whose Dwfl is being asked (one thread) */

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink,
			  GElf_Word crc, char **debuginfo_file_name)
{
	struct uobj *o = *userdata;
	int fd = -1;

	(void)modname, (void)base, (void)file_name;
	*debuginfo_file_name = NULL;
	if (!o)
		return -1;
	/* libdwfl asks for a .gnu_debugaltlink's file this way too (CRC 0) */
	if (debuglink && !crc && (fd = by_altlink(o, debuglink)) >= 0)
		return fd;
	if ((fd = by_build_id(mod, o)) >= 0 || (fd = by_link(mod, o, debuglink, crc)) >= 0) {
		o->why = NULL;		/* a mismatch on the way, then the right one */
		return fd;
	}
	return by_debuginfod(mod, cb_usym);
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = find_elf,
	.find_debuginfo = find_debuginfo,
};

static Dwfl *proc_dwfl(struct uproc *p)
{
	if (p->dwfl || !p->nobjs)
		return p->dwfl;
	p->dwfl = dwfl_begin(&dwfl_cbs);
	if (!p->dwfl)
		return NULL;
	p->inl = uinline_new();		/* NULL: asked anew each time */
	dwfl_report_begin(p->dwfl);
	for (int i = 0; i < p->nobjs; i++) {
		struct uobj *o = &p->objs[i];
		void **ud;

		o->mod = dwfl_report_module(p->dwfl, o->name, o->low, o->high);
		if (o->mod && dwfl_module_info(o->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
			*ud = o;
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	return p->dwfl;
}

static struct uobj *obj_of(Dwfl_Module *mod)
{
	void **ud = NULL;

	return mod && dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL) && ud ?
	       *ud : NULL;
}

/* ---- symbols: indexed once per module ----------------------------------- */

static int sym_cmp(const void *a, const void *b)
{
	const struct usym_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void obj_index(struct uobj *o)
{
	int n;

	if (o->indexed)
		return;
	o->indexed = true;
	n = o->mod ? dwfl_module_getsymtab(o->mod) : -1;
	if (n <= 1)
		return;
	if ((unsigned)n > USYM_MAX_SYMS)
		n = (int)USYM_MAX_SYMS;
	o->syms = malloc((size_t)n * sizeof(*o->syms));
	for (int i = 1; o->syms && i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr, NULL, NULL, NULL);
		unsigned char type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_OBJECT && type != STT_GNU_IFUNC))
			continue;
		o->syms[o->nsyms++] = (struct usym_sym){ addr, sym.st_size, name, type };
	}
	if (o->nsyms)
		qsort(o->syms, o->nsyms, sizeof(*o->syms), sym_cmp);
}

/* The symbol at addr: the nearest one that covers it (a sizeless one
 * right before it, for code); data only: an object that covers it. */
static const struct usym_sym *sym_at(struct uobj *o, uint64_t addr, bool data)
{
	size_t lo = 0, hi;

	obj_index(o);
	hi = o->nsyms;
	while (lo < hi) {		/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (o->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, seen = 0; i > 0 && seen < 64; i--, seen++) {
		const struct usym_sym *s = &o->syms[i - 1];

		if (data && s->type != STT_OBJECT)
			continue;
		if (addr < s->addr + s->size)
			return s;
	}
	if (!data && lo > 0 && !o->syms[lo - 1].size)
		return &o->syms[lo - 1];
	return NULL;
}

/* Line information only when libdw needs no file it was not given: no
 * .gnu_debugaltlink left unfound, no split units (.dwo). */
static bool obj_dwarf_ok(struct uobj *o)
{
	Dwarf_Addr bias;
	Dwarf *dw;
	const char *alt;
	const void *id;
	Dwarf_CU *cu = NULL;
	uint8_t type;

	if (o->dwarf_ok)
		return o->dwarf_ok > 0;
	o->dwarf_ok = -1;
	dw = dwfl_module_getdwarf(o->mod, &bias);
	if (!dw || (dwelf_dwarf_gnu_debugaltlink(dw, &alt, &id) > 0 && !o->alt_found))
		return false;
	while (dwarf_get_units(dw, cu, &cu, NULL, &type, NULL, NULL) == 0)
		if (type == DW_UT_skeleton || type == DW_UT_split_compile)
			return false;
	o->dwarf_ok = 1;
	return true;
}

/* C++ names (libjvm.so, any C++ program) in their source form, by the
 * C++ runtime's own demangler (libstdc++: the ABI's documented entry). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static const char *demangled(const char *fn, char *buf, size_t len)
{
	int status = -1;
	char *d;

	if (!fn || strncmp(fn, "_Z", 2))
		return fn;
	d = __cxa_demangle(fn, NULL, NULL, &status);
	if (!d || status)
		return fn;
	snprintf(buf, len, "%s", d);
	free(d);
	/* drop the argument list: "os::PlatformMonitor::wait(long)" -> "...wait" */
	if (strchr(buf, '('))
		*strchr(buf, '(') = '\0';
	return buf;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "?";
}

/* The main executable: the first file the map names. */
static bool is_main(const struct uobj *o)
{
	return o == &o->p->objs[0];
}

int usym_data_name(struct usym *u, pid_t tgid, uint64_t addr, char *buf, size_t len,
		   uint64_t *start, uint64_t *size)
{
	struct uproc *p = source_of(u, proc_of(u, tgid, 0));
	Dwfl *dwfl = p ? proc_dwfl(p) : NULL;
	struct uobj *o = dwfl ? obj_of(dwfl_addrmodule(dwfl, addr)) : NULL;
	const struct usym_sym *s;

	cb_usym = u;
	s = o ? sym_at(o, addr, true) : NULL;
	if (!s)
		return -1;
	if (is_main(o))
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "%s:%s", base_name(o->name), s->name);
	*start = s->addr;
	*size = s->size;
	return 0;
}

/* ---- unwinding a sampled stack ------------------------------------------ */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct usym *u = arg;

	if (u->cur_given)
		return 0;
	u->cur_given = 1;
	*thread_argp = u;
	return (pid_t)u->cur->tid;
}

/* Stack reads come from the copied slice only. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct usym *u = arg;
	uint64_t sp = u->cur->regs[7], n = u->cur->stack_len;

	if (addr < sp || addr + sizeof(*result) > sp + n)
		return false;
	memcpy(result, u->cur->stack + (addr - sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct usym *u = arg;
	Dwarf_Word regs[FCT_UREGS];

	for (int i = 0; i < FCT_UREGS; i++)
		regs[i] = u->cur->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, FCT_UREGS, regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->cur->regs[16]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The C library and the dynamic loader: frames to look through. */
static int is_libc(const char *module)
{
	const char *b = base_name(module);

	return !strncmp(b, "libc.so", 7) || !strncmp(b, "libc-", 5) ||
	       !strncmp(b, "libpthread", 10) || !strncmp(b, "ld-linux", 8);
}

static enum wait_kind kind_of(const char *fn)
{
	if (!fn)
		return WK_UNKNOWN;
	if (strstr(fn, "pthread_mutex") || strstr(fn, "lll_lock") || strstr(fn, "lll_lock_wait"))
		return WK_MUTEX;
	if (strstr(fn, "pthread_rwlock"))
		return WK_RWLOCK;
	if (strstr(fn, "pthread_cond"))
		return WK_CONDVAR;
	if (strstr(fn, "sem_") == fn || strstr(fn, "__new_sem") || strstr(fn, "sem_wait"))
		return WK_SEMAPHORE;
	if (strstr(fn, "pthread_barrier"))
		return WK_BARRIER;
	if (strstr(fn, "join"))
		return WK_JOIN;
	return WK_UNKNOWN;
}

struct walk {
	struct usym *u;
	Dwfl *dwfl;
	char *site;
	size_t site_len;
	enum wait_kind kind;
	int found, frames;	/* frames outside the C library named so far */
};

/* The functions inlined at pc, innermost first (uinline.h), when o's
 * DWARF can be read: the frames at pc are these, then the symbol's. */
static int inlined_at(struct uobj *o, Dwfl_Module *mod, Dwarf_Addr pc, struct uinl *inl)
{
	if (!o || o->fd < 0 || !obj_dwarf_ok(o))
		return 0;
	return uinline_at(o->p->inl, mod, pc, inl, UINLINE_MAX);
}

/* The source line of frame i of those at pc: the pc's own for the
 * innermost, else where the function inlined into it was called. */
static const char *line_of(struct uobj *o, Dwfl_Module *mod, Dwarf_Addr pc,
			   const struct uinl *inl, int i, int *lineno)
{
	Dwfl_Line *line;

	*lineno = 0;
	if (i > 0) {
		*lineno = inl[i - 1].call_line;
		return inl[i - 1].call_file;
	}
	line = o && obj_dwarf_ok(o) ? dwfl_module_getsrc(mod, pc) : NULL;
	return line ? dwfl_lineinfo(line, NULL, lineno, NULL, NULL, NULL) : NULL;
}

/* "func+0x4a (file.c:34)", "func+0x4a", or "prog+0x1a2b"; src and lineno
 * as line_of says */
static void format_site(Dwfl_Module *mod, Dwarf_Addr pc, const char *src, int lineno,
			char *buf, size_t len)
{
	struct uobj *o = obj_of(mod);
	const struct usym_sym *s = o ? sym_at(o, pc, false) : NULL;
	const char *fn, *mname = o ? o->name : "?";
	Dwarf_Addr rel = pc;
	char dm[96];

	if (o && o->fd < 0) {	/* refused: the file's offset, and the report says why */
		const char *b = base_name(mname), *del = strstr(b, " (deleted)");

		o->said = true;
		snprintf(buf, len, "%.*s@%#llx", del ? (int)(del - b) : (int)strlen(b), b,
			 (unsigned long long)(pc - o->low + o->id.off));
		return;
	}
	fn = demangled(s ? s->name : NULL, dm, sizeof(dm));
	if (o && !src && o->why)
		o->said = true;		/* no lines: its debug file was refused */
	if (fn && src)
		snprintf(buf, len, "%s+0x%llx (%s:%d)", fn, (unsigned long long)(pc - s->addr),
			 base_name(src), lineno);
	else if (fn)
		snprintf(buf, len, "%s+0x%llx", fn, (unsigned long long)(pc - s->addr));
	else if (dwfl_module_relocate_address(mod, &rel) >= 0)
		snprintf(buf, len, "%s+0x%llx", base_name(mname), (unsigned long long)rel);
	else
		snprintf(buf, len, "%s@0x%llx", base_name(mname), (unsigned long long)pc);
}

/* An inlined function as a site: "get_locked (file.c:35, inlined)" - it
 * has no symbol, so no offset. */
static void format_inlined(const char *func, const char *src, int lineno, char *buf, size_t len)
{
	char dm[96];

	func = demangled(func, dm, sizeof(dm));
	if (src)
		snprintf(buf, len, "%s (%s:%d, inlined)", func, base_name(src), lineno);
	else
		snprintf(buf, len, "%s (inlined)", func);
}

/* The site takes one more frame: the first outside the C library, then
 * its caller (a lock wrapper, yarn's possess or a RAII guard, is told
 * apart by who calls it), and then it is whole. */
static int site_add(struct walk *w, const char *frame)
{
	size_t n;

	if (w->found++ == 0) {
		snprintf(w->site, w->site_len, "%s", frame);
		return DWARF_CB_OK;
	}
	n = strlen(w->site);
	snprintf(w->site + n, w->site_len - n, " from %s", frame);
	return DWARF_CB_ABORT;
}

/* The frames at pc outside the C library into the site: the functions
 * inlined there (the innermost names the lock's site), then the symbol's. */
static int site_frames(struct walk *w, Dwfl_Module *mod, Dwarf_Addr pc)
{
	struct uobj *o = obj_of(mod);
	struct uinl inl[UINLINE_MAX];
	int n = inlined_at(o, mod, pc, inl), lineno;
	const char *src;
	char buf[96];

	for (int i = 0; i < n; i++) {
		src = line_of(o, mod, pc, inl, i, &lineno);
		format_inlined(inl[i].func, src, lineno, buf, sizeof(buf));
		if (site_add(w, buf) == DWARF_CB_ABORT)
			return DWARF_CB_ABORT;
	}
	src = line_of(o, mod, pc, inl, n, &lineno);
	format_site(mod, pc, src, lineno, buf, sizeof(buf));
	return site_add(w, buf);
}

static int on_frame(Dwfl_Frame *frame, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;
	Dwfl_Module *mod;
	const char *mname;

	if (!dwfl_frame_pc(frame, &pc, &activation) || ++w->frames > MAX_FRAMES)
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;		/* a return address: look up the call itself */
	mod = dwfl_addrmodule(w->dwfl, pc);
	if (!mod)
		return DWARF_CB_ABORT;	/* JIT code, or a map we did not see */
	mname = obj_of(mod) ? obj_of(mod)->name : NULL;
	if (is_libc(mname)) {
		const struct usym_sym *s = w->kind == WK_UNKNOWN ? sym_at(obj_of(mod), pc, false)
								 : NULL;

		if (s)
			w->kind = kind_of(s->name);
		return DWARF_CB_OK;
	}
	return site_frames(w, mod, pc);
}

int usym_unsymbolised(const struct usym *u, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < u->nprocs; i++) {
		const struct uproc *p = &u->procs[i];

		for (int j = 0; j < p->nobjs; j++) {
			const struct uobj *o = &p->objs[j];

			if (!o->said || !o->why || at >= len)
				continue;
			at += (size_t)snprintf(buf + at, len - at, "%s%s: %s", n ? "; " : "",
					       base_name(o->name), o->why);
			n++;
		}
	}
	if (u->stale_image && at < len) {
		snprintf(buf + at, len - at, "%s%llu stacks of a program its process had replaced "
			 "by exec before they were read (its maps were gone)", n ? "; " : "",
			 (unsigned long long)u->stale_image);
		n++;
	}
	return n;
}

/* Ready to unwind the sampled stack e: its process's Dwfl, attached, and e
 * handed to the memory and register callbacks; NULL when it cannot be
 * (no maps, no registers). Pair with walk_end. */
static Dwfl *walk_begin(struct usym *u, const struct fct_ustack *e, size_t len)
{
	struct uproc *p = proc_of(u, (pid_t)e->tgid, 0);
	Dwfl *dwfl;

	/* the process exec'd since its maps were read: read them again,
	 * which is the image e ran unless it has exec'd once more (or e was
	 * sent before an exec whose maps are all that is left) */
	if (p && !image_matches(p, e)) {
		usym_snapshot(u, (pid_t)e->tgid);
		if (!image_matches(p, e) && image_stale(u, p))
			return NULL;
	}
	if (p && p->image_known && e->start_code && !p->image_ignored)
		p->image_matched++;
	p = source_of(u, p);
	dwfl = p ? proc_dwfl(p) : NULL;

	cb_usym = u;
	if (!dwfl || !e->regs[16])
		return NULL;
	if (!p->attached) {
		if (!dwfl_attach_state(dwfl, NULL, p->tgid, &thread_cbs, u))
			return NULL;
		p->attached = 1;
	}
	u->cur = e;
	u->cur_len = len;
	u->cur_given = 0;
	return dwfl;
}

/* Walk e's frames with cb, then let e go. */
static void walk_end(struct usym *u, Dwfl *dwfl, const struct fct_ustack *e,
		     int (*cb)(Dwfl_Frame *, void *), void *arg)
{
	dwfl_getthread_frames(dwfl, (pid_t)e->tid, cb, arg);
	u->cur = NULL;
}

int usym_wait_site(struct usym *u, const struct fct_ustack *e, size_t len, char *site,
		   size_t site_len, enum wait_kind *kind)
{
	struct walk w = { .u = u, .site = site, .site_len = site_len };

	snprintf(site, site_len, "?");
	*kind = WK_UNKNOWN;
	if (!(w.dwfl = walk_begin(u, e, len)))
		return -1;
	walk_end(u, w.dwfl, e, on_frame, &w);
	*kind = w.kind;
	return w.found ? 0 : -1;
}

/* ---- the whole stack, for flame graphs ---------------------------------- */

struct fwalk {
	Dwfl *dwfl;
	struct uframe *out;
	int n, max;
	struct walk *site;	/* the wait's call site too, in the same walk, or NULL */
	bool site_done;
};

/* The symbol's frame at pc, its line src:lineno (line_of). */
static void name_frame(Dwfl_Module *mod, Dwarf_Addr pc, const char *src, int lineno,
		       struct uframe *f)
{
	struct uobj *o = obj_of(mod);
	const struct usym_sym *s = o ? sym_at(o, pc, false) : NULL;
	Dwarf_Addr rel = pc;
	char dm[128];

	snprintf(f->module, sizeof(f->module), "%s", base_name(o ? o->name : "?"));
	snprintf(f->file, sizeof(f->file), "%s", src ? base_name(src) : "");
	f->line = src ? lineno : 0;
	f->inlined = false;
	if (s) {
		snprintf(f->func, sizeof(f->func), "%s", demangled(s->name, dm, sizeof(dm)));
		if (strchr(f->func, '@'))	/* "pthread_mutex_lock@@GLIBC_2.2.5" */
			*strchr(f->func, '@') = '\0';
	} else if (dwfl_module_relocate_address(mod, &rel) >= 0)
		snprintf(f->func, sizeof(f->func), "%s+0x%llx", f->module, (unsigned long long)rel);
	else
		snprintf(f->func, sizeof(f->func), "%s@0x%llx", f->module, (unsigned long long)pc);
}

/* The frames at pc into out (room for max): the functions inlined there,
 * innermost first, each inlined into the next, then the symbol's. */
static int name_frames(Dwfl_Module *mod, Dwarf_Addr pc, struct uframe *out, int max)
{
	struct uobj *o = obj_of(mod);
	struct uinl inl[UINLINE_MAX];
	int n = inlined_at(o, mod, pc, inl), k = 0, lineno;
	const char *src;
	char dm[128];

	for (int i = 0; i < n && k < max; i++, k++) {
		struct uframe *f = &out[k];

		src = line_of(o, mod, pc, inl, i, &lineno);
		snprintf(f->func, sizeof(f->func), "%s", demangled(inl[i].func, dm, sizeof(dm)));
		snprintf(f->file, sizeof(f->file), "%s", src ? base_name(src) : "");
		f->line = src ? lineno : 0;
		snprintf(f->module, sizeof(f->module), "%s", base_name(o->name));
		f->inlined = true;
	}
	if (k < max) {
		src = line_of(o, mod, pc, inl, n, &lineno);
		name_frame(mod, pc, src, lineno, &out[k++]);
	}
	return k;
}

static int on_any_frame(Dwfl_Frame *frame, void *arg)
{
	struct fwalk *w = arg;
	Dwarf_Addr pc;
	bool activation;
	Dwfl_Module *mod;

	if (w->site && !w->site_done && on_frame(frame, w->site) == DWARF_CB_ABORT)
		w->site_done = true;
	if (w->n >= w->max || !dwfl_frame_pc(frame, &pc, &activation) || !pc)
		return w->site && !w->site_done ? DWARF_CB_OK : DWARF_CB_ABORT;
	if (!activation)
		pc--;		/* a return address: name the call itself */
	mod = dwfl_addrmodule(w->dwfl, pc);
	if (!mod)
		return DWARF_CB_ABORT;	/* JIT code, or a map we did not see */
	w->n += name_frames(mod, pc, &w->out[w->n], w->max - w->n);
	return DWARF_CB_OK;
}

/* One walk for both: a second would double the unwinding, which runs
 * in the watch loop's turns. */
int usym_wait_stack(struct usym *u, const struct fct_ustack *e, size_t len, char *site,
		    size_t site_len, enum wait_kind *kind, struct uframe *out, int max, int *n)
{
	struct walk sw = { .u = u, .site = site, .site_len = site_len };
	struct fwalk w = { .out = out, .max = max, .site = &sw };

	snprintf(site, site_len, "?");
	*kind = WK_UNKNOWN;
	*n = 0;
	if (!(w.dwfl = sw.dwfl = walk_begin(u, e, len)))
		return -1;
	walk_end(u, w.dwfl, e, on_any_frame, &w);
	*kind = sw.kind;
	*n = w.n;
	return sw.found ? 0 : -1;
}

int usym_unwind(struct usym *u, const struct fct_ustack *e, size_t len, struct uframe *out,
		int max)
{
	struct fwalk w = { .out = out, .max = max };

	if (!(w.dwfl = walk_begin(u, e, len)))
		return 0;
	walk_end(u, w.dwfl, e, on_any_frame, &w);
	return w.n;
}
