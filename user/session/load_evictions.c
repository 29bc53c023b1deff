/*
 * load_evictions.c - `pagecache_evictions` and `pagecache_rereads` back
 * into the joined model's struct pc_evictions.
 */
#include <string.h>
#include <json-c/json.h>
#include "base/sysnames.h"
#include "session/load_evictions.h"

static int load_row(struct jr *r, struct json_object *o, struct pc_eviction *e)
{
	char how[16], nr[32];
	int h, n;

	if (jr_str(r, o, "comm", false, e->comm, sizeof(e->comm)) ||
	    jr_uint(r, o, "pid", UINT32_MAX, &e->pid) ||
	    jr_str(r, o, "how", false, how, sizeof(how)) ||
	    jr_str(r, o, "syscall", true, nr, sizeof(nr)) ||
	    jr_bool(r, o, "target", &e->target) || jr_u64(r, o, "pages", &e->pages) ||
	    jr_u64(r, o, "reread_pages", &e->reread_pages))
		return -1;
	if ((h = evict_how_parse(how)) < 0 || h == FCT_EV_DIRECT_IO)
		return jr_fail(r, "how", "is not one of fadvise, madvise, truncate, reclaim, "
			       "drop_caches, other");
	e->how = (unsigned)h;
	n = nr[0] ? syscall_nr(nr) : -1;
	if (nr[0] && n < 0)
		return jr_fail(r, "syscall", "is not a syscall's name");
	e->nr = n < 0 ? FCT_EV_NO_NR : (uint32_t)n;
	e->kswapd = e->how == FCT_EV_RECLAIM && !strncmp(e->comm, "kswapd", 6);
	e->kthread = e->kswapd;	/* not saved: only the Why, read back, used it */
	return 0;
}

static const struct jr_field reread_fields[] = {
	JR_FIELD(pc_evictions, "reread_pages", reread_pages),
	JR_FIELD(pc_evictions, "first_read_pages", first_pages),
	JR_FIELD(pc_evictions, "removed_pages", removed_pages),
	JR_FIELD(pc_evictions, "files", files),
};

static int load_rereads(struct jr *r, struct json_object *doc, struct pc_evictions *e)
{
	struct json_object *o, *mem;
	char saved[128], saved2[128];

	if (jr_object(r, doc, "pagecache_rereads", false, &o, saved, sizeof(saved)) ||
	    JR_FIELDS(r, o, e, reread_fields, false) ||
	    jr_object(r, o, "mem_available_kb", false, &mem, saved2, sizeof(saved2)) ||
	    jr_u64(r, mem, "open", &e->avail_kb[0]) || jr_u64(r, mem, "close", &e->avail_kb[1]))
		return -1;
	jr_leave(r, saved2);
	jr_leave(r, saved);
	return 0;
}

int load_evictions(struct jr *r, struct json_object *doc, struct pc_evictions *e)
{
	struct json_object *a = NULL, *o;
	char saved[128];
	size_t n;

	memset(e, 0, sizeof(*e));
	if (!json_object_object_get_ex(doc, "pagecache_evictions", &a) || !a)
		return 0;
	if (jr_get(r, doc, "pagecache_evictions", json_type_array, false, &a))
		return -1;
	n = json_object_array_length(a);
	if (n > EVICT_ROWS)
		return jr_fail(r, "pagecache_evictions", "has more rows than fctrace writes");
	e->on = true;
	for (size_t i = 0; i < n; i++, e->n++) {
		if (jr_element(r, a, "pagecache_evictions", i, &o, saved, sizeof(saved)) ||
		    load_row(r, o, &e->e[i]))
			return -1;
		jr_leave(r, saved);
	}
	return load_rereads(r, doc, e);
}
