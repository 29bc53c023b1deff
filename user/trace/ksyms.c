/*
 * ksyms.c - /proc/kallsyms, sorted, searched by address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/ksyms.h"

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	char *names;		/* one arena for every name */
	size_t names_len, names_cap;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int ksyms_add(struct ksyms *ks, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1;

	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 65536;
		struct ksym *s = realloc(ks->syms, cap * sizeof(*s));

		if (!s)
			return -1;
		ks->syms = s;
		ks->cap = cap;
	}
	if (ks->names_len + len > ks->names_cap) {
		size_t cap = ks->names_cap ? ks->names_cap * 2 : 1 << 21;
		char *p = realloc(ks->names, cap);

		if (!p)
			return -1;
		ks->names = p;
		ks->names_cap = cap;
	}
	memcpy(ks->names + ks->names_len, name, len);
	/* store the offset now, turn it into a pointer once the arena stops moving */
	ks->syms[ks->n].addr = addr;
	ks->syms[ks->n].name = (char *)(uintptr_t)ks->names_len;
	ks->names_len += len;
	ks->n++;
	return 0;
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f;

	if (!ks)
		return NULL;
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f)
		goto fail;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!addr || (type != 't' && type != 'T' && type != 'W' && type != 'w'))
			continue;
		if (ksyms_add(ks, addr, name))
			goto fail;
	}
	fclose(f);
	f = NULL;
	if (!ks->n)
		goto fail;	/* all addresses hidden (kptr_restrict) */
	for (size_t i = 0; i < ks->n; i++)
		ks->syms[i].name = ks->names + (uintptr_t)ks->syms[i].name;
	qsort(ks->syms, ks->n, sizeof(*ks->syms), ksym_cmp);
	return ks;
fail:
	if (f)
		fclose(f);
	ksyms_free(ks);
	return NULL;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->names);
	free(ks);
}

const char *ksyms_find(const struct ksyms *ks, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi;

	if (!ks || !ks->n || addr < ks->syms[0].addr)
		return NULL;
	hi = ks->n;
	while (hi - lo > 1) {		/* last symbol with sym.addr <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (off)
		*off = addr - ks->syms[lo].addr;
	return ks->syms[lo].name;
}

/* prefixes of lock implementations, the contention tracepoint and BPF */
static const char *const locking_prefixes[] = {
	"_raw_spin_", "_raw_read_", "_raw_write_", "raw_spin_", "spin_",
	"queued_spin_", "queued_read_", "queued_write_", "native_queued_",
	"__pv_queued_", "pv_queued_", "do_raw_spin_", "__raw_spin_",
	"mutex_", "__mutex_", "ww_mutex_", "rt_mutex_", "__rt_mutex_",
	"rwsem_", "__rwsem_", "down_", "__down_", "up_", "percpu_down_",
	"osq_", "rwbase_", "lock_", "__lock_", "trace_contention",
	"__traceiter_", "__bpf_trace_", "bpf_trace_run", "bpf_prog_",
	"bpf_get_stack", "__bpf_get_stack", "perf_trace_",
};

bool ksym_is_locking(const char *name)
{
	for (size_t i = 0; i < sizeof(locking_prefixes) / sizeof(*locking_prefixes); i++)
		if (!strncmp(name, locking_prefixes[i], strlen(locking_prefixes[i])))
			return true;
	return strstr(name, "_lock_slowpath") || strstr(name, "contention");
}

void ksyms_caller(const struct ksyms *ks, const uint64_t *ips, int n,
		  char *buf, size_t len)
{
	const char *name;
	uint64_t off;

	for (int i = 0; i < n && ips[i]; i++) {
		name = ksyms_find(ks, ips[i], &off);
		if (name && !ksym_is_locking(name)) {
			snprintf(buf, len, "%s+0x%llx", name, (unsigned long long)off);
			return;
		}
	}
	snprintf(buf, len, "?");
}
