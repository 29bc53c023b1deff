/*
 * jvm_structs.c - the field offsets the Java holders code needs
 * (bpf/jvmhold.bpf.c), from the running JVM's own description of its
 * C++ types: HotSpot exports gHotSpotVMStructs, an array of
 * {typeName, fieldName, typeString, isStatic, offset, address} entries
 * (the table the serviceability agent reads), with the entry's layout in
 * gHotSpotVMStructEntry*Offset and ArrayStride. The offsets are filled in
 * by libjvm.so's static constructors, so the table is read from the live
 * process (jvm_mem.h), not from the file.
 *
 * Everything read is the target's: sizes are bounded, strings are
 * compared, not kept, and the offsets are masked again in the kernel.
 */
#include <errno.h>
#include <string.h>
#include "jvm/jvm_mem.h"
#include "jvm/jvm_structs.h"

#define MAX_ENTRIES	20000
#define MAX_OFFSET	4096	/* the BPF side masks with 0xfff */

struct layout {
	uint64_t array, stride, type_name, field_name, offset;
};

static bool read_u64_sym(const struct jvm_mem *m, const char *name, uint64_t *v)
{
	uint64_t addr;

	return jvm_mem_symbol(m, name, &addr) && jvm_mem_read(m, addr, v, sizeof(*v));
}

static bool read_layout(const struct jvm_mem *m, struct layout *l)
{
	return read_u64_sym(m, "gHotSpotVMStructs", &l->array) &&
	       read_u64_sym(m, "gHotSpotVMStructEntryArrayStride", &l->stride) &&
	       read_u64_sym(m, "gHotSpotVMStructEntryTypeNameOffset", &l->type_name) &&
	       read_u64_sym(m, "gHotSpotVMStructEntryFieldNameOffset", &l->field_name) &&
	       read_u64_sym(m, "gHotSpotVMStructEntryOffsetOffset", &l->offset) &&
	       l->array && l->stride >= 24 && l->stride <= 256 &&
	       l->type_name + 8 <= l->stride && l->field_name + 8 <= l->stride &&
	       l->offset + 8 <= l->stride;
}

/* The NUL-ended string at addr into buf (n bytes): false when unreadable
 * or longer than any wanted name. */
static bool read_name(const struct jvm_mem *m, uint64_t addr, char *buf, size_t n)
{
	return addr && jvm_mem_read(m, addr, buf, n) && memchr(buf, '\0', n);
}

static uint64_t u64_at(const unsigned char *e, uint64_t off)
{
	uint64_t v;

	memcpy(&v, e + off, sizeof(v));
	return v;
}

/* The wanted fields: JDK 17 has _osthread in JavaThread, older ones in
 * Thread (either is the same field of a JavaThread). */
static const struct want {
	const char *type, *field;
	size_t at;
} wanted[] = {
	{ "ObjectMonitor", "_owner", offsetof(struct fct_jvm_structs, owner) },
	{ "JavaThread", "_osthread", offsetof(struct fct_jvm_structs, osthread) },
	{ "Thread", "_osthread", offsetof(struct fct_jvm_structs, osthread) },
	{ "OSThread", "_thread_id", offsetof(struct fct_jvm_structs, thread_id) },
};
#define NWANTED (sizeof(wanted) / sizeof(*wanted))

/* One table entry: its two names read once, kept if wanted. */
static void match_entry(const struct jvm_mem *m, const struct layout *l,
			const unsigned char *e, struct fct_jvm_structs *out)
{
	uint64_t off = u64_at(e, l->offset);
	char type[32], field[32];

	if (off >= MAX_OFFSET || !read_name(m, u64_at(e, l->type_name), type, sizeof(type)) ||
	    !read_name(m, u64_at(e, l->field_name), field, sizeof(field)))
		return;
	for (size_t w = 0; w < NWANTED; w++) {
		__u32 *slot = (__u32 *)((char *)out + wanted[w].at);

		if (!*slot && !strcmp(type, wanted[w].type) && !strcmp(field, wanted[w].field))
			*slot = (__u32)off;
	}
}

int jvm_structs_read(pid_t pid, int libjvm_fd, struct fct_jvm_structs *out)
{
	unsigned char e[256];
	struct jvm_mem m;
	struct layout l;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = jvm_mem_open(&m, pid, libjvm_fd)))
		return err;
	if (!read_layout(&m, &l)) {
		jvm_mem_close(&m);
		return -ENOENT;
	}
	for (unsigned i = 0; i < MAX_ENTRIES; i++) {
		if (!jvm_mem_read(&m, l.array + i * l.stride, e, l.stride) ||
		    !u64_at(e, l.type_name))
			break;	/* the table ends with a NULL type name */
		match_entry(&m, &l, e, out);
	}
	jvm_mem_close(&m);
	/* ObjectMonitor::_owner at offset 0 is not HotSpot's layout either */
	out->ready = out->owner && out->osthread && out->thread_id;
	return out->ready ? 0 : -ENOENT;
}
