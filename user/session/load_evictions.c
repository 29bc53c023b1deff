/*
 * load_evictions.c - `pagecache_evictions` and `pagecache_rereads` back
 * into the joined model's struct pc_evictions (report/evictions_json.c
 * writes them). Tables (base/jsonread.h) say the members; the code, how
 * and syscall, which are names of numbers.
 */
#include <string.h>
#include <json-c/json.h>
#include "base/sysnames.h"
#include "session/load_evictions.h"
#include "session/run_format.h"

static const struct jr_field row_fields[] = {
	JR_STRF(pc_eviction, "comm", comm, 0), JR_FIELD(pc_eviction, "pid", pid),
};

static const struct jr_field row_counts[] = {
	JR_BOOLF(pc_eviction, "target", target), JR_FIELD(pc_eviction, "pages", pages),
	JR_FIELD(pc_eviction, "reread_pages", reread_pages),
};

/* How the pages went, and the syscall (null: none) by their names. */
static int load_how(struct jr *r, struct json_object *o, struct pc_eviction *e)
{
	char how[16], nr[32];
	int h, n;

	if (jr_str(r, o, "how", false, how, sizeof(how)) ||
	    jr_str(r, o, "syscall", true, nr, sizeof(nr)))
		return -1;
	if ((h = evict_how_parse(how)) < 0 || h == FCT_EV_DIRECT_IO)
		return jr_fail(r, "how", "is not one of fadvise, madvise, truncate, reclaim, "
			       "drop_caches, other");
	e->how = (unsigned)h;
	n = nr[0] ? syscall_nr(nr) : -1;
	if (nr[0] && n < 0)
		return jr_fail(r, "syscall", "is not a syscall's name");
	e->nr = n < 0 ? FCT_EV_NO_NR : (uint32_t)n;
	return 0;
}

static int load_row(struct jr *r, struct json_object *o, void *row, void *arg)
{
	struct pc_eviction *e = row;

	if (load_how(r, o, e) || JR_READ(r, o, e, row_counts))
		return -1;
	e->kswapd = e->how == FCT_EV_RECLAIM && !strncmp(e->comm, "kswapd", 6);
	e->kthread = e->kswapd;	/* not saved: only the Why, read back, used it */
	return 0;
}

int load_evictions(struct jr *r, struct json_object *doc, struct pc_evictions *e)
{
	static const struct jr_rows rows = {
		"pagecache_evictions", 0, sizeof(struct pc_eviction), EVICT_ROWS,
		"has more rows than fctrace writes", row_fields, JR_N(row_fields), load_row,
	};
	struct json_object *a = NULL;
	size_t n;
	bool there;

	memset(e, 0, sizeof(*e));
	if (!json_object_object_get_ex(doc, "pagecache_evictions", &a) || !a)
		return 0;	/* absent or null: pc-evict did not run */
	e->on = true;
	if (jr_array_rows(r, doc, &rows, e->e, NULL, &n))
		return -1;
	e->n = (int)n;
	return jr_section(r, doc, "pagecache_rereads", 0, e, rf_rereads.f, rf_rereads.n, &there);
}
