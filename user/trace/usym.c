/*
 * usym.c - futex words and sampled user stacks to names, with libdwfl.
 *
 * One Dwfl per traced process, built from the last saved memory map
 * (dwfl_linux_proc_maps_report reads the maps format from any stream),
 * so the names hold after the process exited. The unwinder's memory is
 * only the stack slice the BPF side copied: CFI needs nothing else.
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/usym.h"

#define USYM_MAX_PROCS	64
#define MAX_FRAMES	24

struct uproc {
	pid_t tgid;
	char *maps;		/* the last snapshot of /proc/TGID/maps */
	Dwfl *dwfl;		/* built from maps; NULL until needed */
	int attached;		/* dwfl_attach_state done */
};

struct usym {
	struct uproc procs[USYM_MAX_PROCS];
	int nprocs;
	const struct fct_ustack *cur;	/* the sample being unwound */
	size_t cur_len;
	int cur_given;			/* next_thread handed its tid out */
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

struct usym *usym_new(void)
{
	return calloc(1, sizeof(struct usym));
}

static void proc_drop_dwfl(struct uproc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->attached = 0;
}

void usym_free(struct usym *u)
{
	if (!u)
		return;
	for (int i = 0; i < u->nprocs; i++) {
		proc_drop_dwfl(&u->procs[i]);
		free(u->procs[i].maps);
	}
	free(u);
}

static struct uproc *proc_of(struct usym *u, pid_t tgid, int create)
{
	for (int i = 0; i < u->nprocs; i++)
		if (u->procs[i].tgid == tgid)
			return &u->procs[i];
	if (!create || u->nprocs == USYM_MAX_PROCS)
		return NULL;
	memset(&u->procs[u->nprocs], 0, sizeof(u->procs[0]));
	u->procs[u->nprocs].tgid = tgid;
	return &u->procs[u->nprocs++];
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

int usym_snapshot(struct usym *u, pid_t tgid)
{
	struct uproc *p = proc_of(u, tgid, 1);
	char path[64], *maps;

	if (!p)
		return -ENOSPC;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	maps = slurp(path);
	if (!maps)
		return -errno;
	if (p->maps && !strcmp(p->maps, maps)) {
		free(maps);
		return 0;
	}
	free(p->maps);
	p->maps = maps;
	proc_drop_dwfl(p);	/* rebuilt from the new map when next asked */
	return 0;
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

static Dwfl *proc_dwfl(struct uproc *p)
{
	FILE *f;

	if (p->dwfl || !p->maps)
		return p->dwfl;
	p->dwfl = dwfl_begin(&dwfl_cbs);
	f = p->dwfl ? fmemopen(p->maps, strlen(p->maps), "r") : NULL;
	if (!f || dwfl_linux_proc_maps_report(p->dwfl, f) != 0) {
		if (f)
			fclose(f);
		proc_drop_dwfl(p);
		return NULL;
	}
	fclose(f);
	dwfl_report_end(p->dwfl, NULL, NULL);
	return p->dwfl;
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

/* The main executable is the module whose file the map names first. */
static int is_main_module(struct uproc *p, Dwfl_Module *mod)
{
	const char *name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	const char *first = p->maps ? strchr(p->maps, '/') : NULL;
	size_t n = first ? strcspn(first, "\n") : 0;

	return name && first && strlen(name) == n && !strncmp(name, first, n);
}

int usym_data_name(struct usym *u, pid_t tgid, uint64_t addr, char *buf, size_t len,
		   uint64_t *start, uint64_t *size)
{
	struct uproc *p = proc_of(u, tgid, 0);
	Dwfl *dwfl = p ? proc_dwfl(p) : NULL;
	Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, addr) : NULL;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;

	if (!mod)
		return -1;
	name = dwfl_module_addrinfo(mod, addr, &off, &sym, NULL, NULL, NULL);
	if (!name || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || off >= sym.st_size)
		return -1;
	if (is_main_module(p, mod))
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s:%s",
			 base_name(dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL)),
			 name);
	*start = addr - off;
	*size = sym.st_size;
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

/* "func+0x4a (file.c:34)", "func+0x4a", or "prog+0x1a2b" */
static void format_site(Dwfl_Module *mod, Dwarf_Addr pc, char *buf, size_t len)
{
	const char *mname = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	Dwfl_Line *line = dwfl_module_getsrc(mod, pc);
	const char *fn, *src = NULL;
	GElf_Off off = 0;
	GElf_Sym sym;
	Dwarf_Addr rel = pc;
	int lineno = 0;
	char dm[96];

	fn = demangled(dwfl_module_addrinfo(mod, pc, &off, &sym, NULL, NULL, NULL), dm, sizeof(dm));
	if (line)
		src = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (fn && src)
		snprintf(buf, len, "%s+0x%llx (%s:%d)", fn, (unsigned long long)off,
			 base_name(src), lineno);
	else if (fn)
		snprintf(buf, len, "%s+0x%llx", fn, (unsigned long long)off);
	else if (dwfl_module_relocate_address(mod, &rel) >= 0)
		snprintf(buf, len, "%s+0x%llx", base_name(mname), (unsigned long long)rel);
	else
		snprintf(buf, len, "%s@0x%llx", base_name(mname), (unsigned long long)pc);
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
	mname = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	if (is_libc(mname)) {
		if (w->kind == WK_UNKNOWN)
			w->kind = kind_of(dwfl_module_addrname(mod, pc));
		return DWARF_CB_OK;
	}
	/* the first frame outside the C library, and its caller: a lock
	 * wrapper (yarn's possess, a RAII guard) is told apart by who calls it */
	if (w->found++ == 0) {
		format_site(mod, pc, w->site, w->site_len);
		return DWARF_CB_OK;
	}
	{
		char caller[96];
		size_t n = strlen(w->site);

		format_site(mod, pc, caller, sizeof(caller));
		snprintf(w->site + n, w->site_len - n, " from %s", caller);
	}
	return DWARF_CB_ABORT;
}

int usym_wait_site(struct usym *u, const struct fct_ustack *e, size_t len, char *site,
		   size_t site_len, enum wait_kind *kind)
{
	struct uproc *p = proc_of(u, (pid_t)e->tgid, 0);
	struct walk w = { .u = u, .site = site, .site_len = site_len };

	snprintf(site, site_len, "?");
	*kind = WK_UNKNOWN;
	w.dwfl = p ? proc_dwfl(p) : NULL;
	if (!w.dwfl || !e->regs[16])
		return -1;
	if (!p->attached) {
		if (!dwfl_attach_state(w.dwfl, NULL, p->tgid, &thread_cbs, u))
			return -1;
		p->attached = 1;
	}
	u->cur = e;
	u->cur_len = len;
	u->cur_given = 0;
	dwfl_getthread_frames(w.dwfl, (pid_t)e->tid, on_frame, &w);
	u->cur = NULL;
	*kind = w.kind;
	return w.found ? 0 : -1;
}
