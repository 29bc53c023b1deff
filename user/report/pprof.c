/*
 * pprof.c - --pprof: the stacks as pprof's profile.proto, packed by
 * protobuf-c from C that protoc-c generated out of pprof's own .proto
 * (the Makefile), gzipped by zlib. Two sample types, wait/nanoseconds and
 * cpu/nanoseconds: a wait stack's sample has its time in the first, an
 * on-CPU stack's in the second. One function per frame (name, file); one
 * location per address: a frame with the frames inlined into it (DWARF's
 * inlined subroutines), their lines innermost first as pprof has them,
 * each location once; the thread name as a root frame (unless
 * --no-thread-frame) and as the label "thread"; the lock as "lock".
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "pprof/profile.pb-c.h"
#include "base/outfile.h"
#include "report/flame.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__ValueType ValueType;

/* Everything the message points to, freed at once. */
struct pb {
	Profile p;
	char **strs;
	size_t nstr, strcap;
	ValueType vt[2], period;
	ValueType *vtp[2];
	Function *fn;
	Function **fnp;
	Location *loc;
	Location **locp;
	size_t nloc;
	Line *line;		/* the locations' lines, each location's together */
	Line **linep;
	size_t nline;
	int *lhash;		/* locations by their frames (open addressing, -1: free) */
	size_t lhcap;
	Sample *smp;
	Sample **smpp;
	uint64_t *ids;		/* every sample's location ids, one array */
	int64_t *vals;
	Label *lab;
	Label **labp;
	char **threads;		/* distinct thread names: root frames after the frames */
	int nthreads;
};

/* A string's index in the table: strings are not shared, except "". */
static int64_t str(struct pb *b, const char *s)
{
	if (!s || !*s)
		return 0;
	if (b->nstr == b->strcap) {
		size_t cap = b->strcap * 2;
		char **n = realloc(b->strs, cap * sizeof(*n));

		if (!n)
			return 0;
		b->strs = n;
		b->strcap = cap;
	}
	b->strs[b->nstr] = (char *)s;
	return (int64_t)b->nstr++;
}

static int thread_index(struct pb *b, const char *name)
{
	for (int i = 0; i < b->nthreads; i++)
		if (!strcmp(b->threads[i], name))
			return i;
	b->threads[b->nthreads] = (char *)name;
	return b->nthreads++;
}

static void function_at(struct pb *b, size_t i, const char *name, const char *file)
{
	perftools__profiles__function__init(&b->fn[i]);
	b->fn[i].id = i + 1;
	b->fn[i].name = b->fn[i].system_name = str(b, name);
	b->fn[i].filename = str(b, file);
	b->fnp[i] = &b->fn[i];
}

/* The functions (indices into b->fn) of a location, innermost first. */
static bool same_location(const struct pb *b, const Location *l, const uint32_t *fns, int n)
{
	if (l->n_line != (size_t)n)
		return false;
	for (int i = 0; i < n; i++)
		if (l->line[i]->function_id != fns[i] + 1)
			return false;
	return true;
}

static size_t location_slot(const struct pb *b, const uint32_t *fns, int n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < n; i++)
		h = (h ^ fns[i]) * 0x100000001b3ull;
	return (size_t)h & (b->lhcap - 1);
}

/* The location of functions fns (innermost first) with their lines: its
 * id, made if new. Functions of frames take their frame's line. */
static uint64_t location_of(struct pb *b, const struct stack_set *ss, const uint32_t *fns, int n)
{
	size_t at = location_slot(b, fns, n);
	Location *l;

	for (; b->lhash[at] >= 0; at = (at + 1) & (b->lhcap - 1))
		if (same_location(b, &b->loc[b->lhash[at]], fns, n))
			return b->loc[b->lhash[at]].id;
	l = &b->loc[b->nloc];
	perftools__profiles__location__init(l);
	l->id = b->nloc + 1;
	l->n_line = (size_t)n;
	l->line = &b->linep[b->nline];
	for (int i = 0; i < n; i++, b->nline++) {
		perftools__profiles__line__init(&b->line[b->nline]);
		b->line[b->nline].function_id = fns[i] + 1;
		if ((int)fns[i] < ss->nframes)
			b->line[b->nline].line = ss->frames[fns[i]].line;
		b->linep[b->nline] = &b->line[b->nline];
	}
	b->locp[b->nloc] = l;
	b->lhash[at] = (int)b->nloc++;
	return l->id;
}

static int alloc_all(struct pb *b, const struct stack_set *ss)
{
	size_t nf = (size_t)ss->nframes + (size_t)ss->n, nids = 0;

	for (int i = 0; i < ss->n; i++)
		nids += (size_t)ss->stacks[i].nframes + 1;
	b->strcap = 16 + 3 * nf;
	b->strs = calloc(b->strcap, sizeof(*b->strs));
	b->fn = calloc(nf + 1, sizeof(*b->fn));
	b->fnp = calloc(nf + 1, sizeof(*b->fnp));
	/* at most a location, and a line, per frame of a stack */
	b->loc = calloc(nids + 1, sizeof(*b->loc));
	b->locp = calloc(nids + 1, sizeof(*b->locp));
	b->line = calloc(nids + 1, sizeof(*b->line));
	b->linep = calloc(nids + 1, sizeof(*b->linep));
	for (b->lhcap = 256; b->lhcap < 2 * (nids + 1); b->lhcap *= 2)
		;
	b->lhash = malloc(b->lhcap * sizeof(*b->lhash));
	if (b->lhash)
		memset(b->lhash, -1, b->lhcap * sizeof(*b->lhash));
	b->smp = calloc((size_t)ss->n + 1, sizeof(*b->smp));
	b->smpp = calloc((size_t)ss->n + 1, sizeof(*b->smpp));
	b->ids = calloc(nids + 1, sizeof(*b->ids));
	b->vals = calloc(2 * (size_t)ss->n + 1, sizeof(*b->vals));
	b->lab = calloc(2 * (size_t)ss->n + 1, sizeof(*b->lab));
	b->labp = calloc(2 * (size_t)ss->n + 1, sizeof(*b->labp));
	b->threads = calloc((size_t)ss->n + 1, sizeof(*b->threads));
	return b->strs && b->fn && b->fnp && b->loc && b->locp && b->line && b->linep &&
	       b->lhash && b->smp && b->smpp && b->ids && b->vals && b->lab && b->labp &&
	       b->threads ? 0 : -1;
}

static void free_all(struct pb *b)
{
	free(b->strs), free(b->fn), free(b->fnp), free(b->loc), free(b->locp);
	free(b->line), free(b->linep), free(b->smp), free(b->smpp), free(b->ids);
	free(b->vals), free(b->lab), free(b->labp), free(b->threads), free(b->lhash);
}

static void label(Label *l, Label **lp, int64_t key, int64_t val)
{
	perftools__profiles__label__init(l);
	l->key = key;
	l->str = val;
	*lp = l;
}

/* Stack s's location ids into m, leaf first: each frame with the frames
 * inlined into it (after it, root first) as one location. */
static void locations_of(struct pb *b, const struct stack_set *ss, const struct sstack *s,
			 Sample *m)
{
	uint32_t fns[64];

	for (int k = s->nframes - 1; k >= 0; ) {
		int n = 0;

		/* innermost first, down to the frame they were inlined into */
		while (k > 0 && ss->frames[s->frames[k]].inlined && n < 63)
			fns[n++] = s->frames[k--];
		fns[n++] = s->frames[k--];
		m->location_id[m->n_location_id++] = location_of(b, ss, fns, n);
	}
}

/* One stack's sample: location ids leaf first, then its thread's frame. */
static void sample_of(struct pb *b, const struct stack_set *ss, int i, bool no_thread,
		      uint64_t **ids)
{
	const struct sstack *s = &ss->stacks[i];
	Sample *m = &b->smp[i];

	perftools__profiles__sample__init(m);
	m->location_id = *ids;
	locations_of(b, ss, s, m);
	if (!no_thread) {
		uint32_t fn = (uint32_t)ss->nframes + (uint32_t)thread_index(b, s->thread);

		m->location_id[m->n_location_id++] = location_of(b, ss, &fn, 1);
	}
	*ids += m->n_location_id;
	m->value = &b->vals[2 * i];
	m->n_value = 2;
	m->value[s->kind == STK_CPU] = (int64_t)s->ns;
	m->label = &b->labp[2 * i];
	label(&b->lab[2 * i], &m->label[m->n_label++], str(b, "thread"), str(b, s->thread));
	if (s->lock[0])
		label(&b->lab[2 * i + 1], &m->label[m->n_label++], str(b, "lock"), str(b, s->lock));
	b->smpp[i] = m;
}

static void fill(struct pb *b, const struct stack_set *ss, const struct flame_opts *o)
{
	Profile *p = &b->p;
	uint64_t *ids = b->ids;
	size_t nfn;

	perftools__profiles__profile__init(p);
	b->strs[b->nstr++] = "";
	for (int t = 0; t < 2; t++) {
		perftools__profiles__value_type__init(&b->vt[t]);
		b->vt[t].type = str(b, t ? "cpu" : "wait");
		b->vt[t].unit = str(b, "nanoseconds");
		b->vtp[t] = &b->vt[t];
	}
	for (int i = 0; i < ss->nframes; i++)
		function_at(b, (size_t)i, ss->frames[i].func, ss->frames[i].file);
	for (int i = 0; i < ss->n; i++)
		sample_of(b, ss, i, o->no_thread, &ids);
	nfn = (size_t)ss->nframes;
	for (int t = 0; t < b->nthreads; t++)
		function_at(b, nfn++, b->threads[t], "");
	p->n_sample_type = 2;
	p->sample_type = b->vtp;
	p->n_sample = (size_t)ss->n;
	p->sample = b->smpp;
	p->n_function = nfn;
	p->n_location = b->nloc;
	p->location = b->locp;
	p->function = b->fnp;
	perftools__profiles__value_type__init(&b->period);
	b->period.type = b->vt[0].type;
	b->period.unit = b->vt[0].unit;
	p->period_type = &b->period;
	p->period = 1;
	p->duration_nanos = (int64_t)o->duration_ns;
	p->time_nanos = (int64_t)time(NULL) * 1000000000ll;
	p->default_sample_type = stacks_total(ss, STK_WAIT) ? b->vt[0].type : b->vt[1].type;
	p->n_string_table = b->nstr;
	p->string_table = b->strs;
}

/* The packed message gzipped into f (pprof reads gzip or plain). */
static int gzip_to(FILE *f, const uint8_t *buf, size_t len)
{
	z_stream z = { 0 };
	unsigned char out[65536];
	int rc;

	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (Bytef *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, Z_FINISH);
		fwrite(out, 1, sizeof(out) - z.avail_out, f);
	} while (rc == Z_OK);
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

int flame_pprof_write(const struct stack_set *ss, const struct flame_opts *o, const char *path)
{
	struct pb b = { 0 };
	struct outfile out;
	uint8_t *buf = NULL;
	size_t len;
	FILE *f;
	int rc = -1;

	if (alloc_all(&b, ss)) {
		fprintf(stderr, "fctrace: --pprof %s: out of memory\n", path);
		free_all(&b);
		return -1;
	}
	fill(&b, ss, o);
	len = perftools__profiles__profile__get_packed_size(&b.p);
	buf = malloc(len ? len : 1);
	if (buf && (f = outfile_open(&out, "--pprof", path))) {
		perftools__profiles__profile__pack(&b.p, buf);
		if (gzip_to(f, buf, len))
			fprintf(stderr, "fctrace: --pprof %s: cannot compress\n", path);
		rc = outfile_close(&out);
	} else if (!buf) {
		fprintf(stderr, "fctrace: --pprof %s: out of memory\n", path);
	}
	free(buf);
	free_all(&b);
	return rc;
}
