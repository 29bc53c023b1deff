/*
 * jvm_mem.c - a running JVM's libjvm.so globals from its memory (see
 * jvm_mem.h). The load bias is the file's lowest mapping's start less
 * the address its file offset has in the ELF file (the first PT_LOAD's
 * p_vaddr - p_offset); the mapping is found by device and inode of the
 * fd, never by the name /proc/PID/maps shows.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "jvm/jvm_mem.h"
#include "base/tfile.h"

/* The address of symbol name in an ELF file and the first PT_LOAD's
 * p_vaddr - p_offset (to turn a mapping's file offset into an address). */
struct elf_sym {
	uint64_t value;
	uint64_t vaddr_minus_off;
};

static bool find_symbol(Elf *e, const char *name, uint64_t *value)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT)
				continue;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, name)) {
				*value = s.st_value;
				return true;
			}
		}
	}
	return false;
}

static bool first_load(Elf *e, uint64_t *vaddr_minus_off)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			*vaddr_minus_off = ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

static bool elf_symbol(int fd, const char *name, struct elf_sym *out)
{
	bool ok = false;
	Elf *e;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e)
		ok = find_symbol(e, name, &out->value) && first_load(e, &out->vaddr_minus_off);
	elf_end(e);
	return ok;
}

/* The mapping of the file fd holds (its device and inode, not a name)
 * with the lowest file offset: its start and offset. */
static bool lowest_mapping(pid_t pid, int fd, uint64_t *start, uint64_t *off)
{
	char path[64], line[4200];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		struct tmap m;

		line[strcspn(line, "\n")] = '\0';
		if (tfile_parse_maps(line, &m) || !m.ino || !tfile_same(fd, &m))
			continue;
		if (!found || m.off < *off) {
			*start = m.start;
			*off = m.off;
		}
		found = true;
	}
	fclose(f);
	return found;
}

int jvm_mem_open(struct jvm_mem *m, pid_t pid, int libjvm_fd)
{
	char mem[64];

	memset(m, 0, sizeof(*m));
	m->mem_fd = -1;
	m->elf_fd = libjvm_fd;
	if (libjvm_fd < 0 || !lowest_mapping(pid, libjvm_fd, &m->start, &m->off))
		return -ENOENT;
	snprintf(mem, sizeof(mem), "/proc/%d/mem", (int)pid);
	m->mem_fd = open(mem, O_RDONLY | O_CLOEXEC);
	return m->mem_fd < 0 ? -errno : 0;
}

bool jvm_mem_symbol(const struct jvm_mem *m, const char *name, uint64_t *addr)
{
	struct elf_sym sym;

	if (!elf_symbol(m->elf_fd, name, &sym))
		return false;
	*addr = m->start - (m->off + sym.vaddr_minus_off) + sym.value;
	return true;
}

bool jvm_mem_read(const struct jvm_mem *m, uint64_t addr, void *buf, size_t n)
{
	return m->mem_fd >= 0 && pread(m->mem_fd, buf, n, (off_t)addr) == (ssize_t)n;
}

void jvm_mem_close(struct jvm_mem *m)
{
	if (m->mem_fd >= 0)
		close(m->mem_fd);
	m->mem_fd = -1;
}
