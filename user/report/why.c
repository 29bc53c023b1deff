/*
 * why.c - the diagnosis as text (the "Why" section of the terminal
 * report) and as JSON. The rules that make it are in explain/rules.c.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "report/why.h"
#include "report/whatif_print.h"

/* Display width of a UTF-8 string: continuation bytes take no column. */
static int columns(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* A figure and its unit stay on one line: "2.24 s", "60.0 %", "< 1 %". */
static bool glued(const char *prev, size_t plen, const char *next)
{
	static const char *const units[] = { "%", "ns", "µs", "ms", "s", "k", "M", "G",
					     "KiB", "MiB", "GiB" };
	size_t nlen = strcspn(next, " ");

	while (nlen && strchr(".,;:)", next[nlen - 1]))
		nlen--;
	if (plen == 1 && *prev == '<')
		return true;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (nlen == strlen(units[i]) && !strncmp(next, units[i], nlen))
			return true;
	return false;
}

/* Length of the next unbreakable run of text. */
static size_t word_len(const char *s)
{
	size_t w = strcspn(s, " ");

	while (s[w] == ' ' && s[w + 1] && glued(s, w, s + w + 1))
		w += 1 + strcspn(s + w + 1, " ");
	return w;
}

/* Print text word-wrapped at WHY_WIDTH: the first line after lead, the rest
 * indented by as many columns as lead takes. */
void why_wrap(FILE *f, const char *lead, const char *text)
{
	int indent = columns(lead, strlen(lead)), col = indent;

	fputs(lead, f);
	while (*text) {
		size_t w = word_len(text);
		int wc = columns(text, w);

		if (col > indent && col + 1 + wc > WHY_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, w, f);
		col += wc;
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

static void print_cause(FILE *f, int i, const struct diag_cause *c)
{
	char lead[16], tag[96];

	snprintf(lead, sizeof(lead), "%d. ", i + 1);
	why_wrap(f, lead, c->title);
	snprintf(tag, sizeof(tag), "[%s: %.1f %% of %s, confidence %.0f %%]", c->cause,
		 100 * c->share, c->share_of[0] ? c->share_of : "thread time", 100 * c->confidence);
	why_wrap(f, "   ", tag);
	for (int e = 0; e < c->nevidence; e++) {
		snprintf(lead, sizeof(lead), "   %c) ", 'a' + e);
		why_wrap(f, lead, c->evidence[e]);
	}
}

/* The what-if model's lines, wrapped like the rest. */
void why_print_model(FILE *f, const struct whatif_params *p)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem) {
		whatif_print(f, p);
		return;
	}
	whatif_print(mem, p);
	fclose(mem);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		why_wrap(f, "", line);
	free(text);
}

void why_print(FILE *f, const struct diagnosis *d)
{
	if (!d->n) {
		fputs("Why: nothing to explain (no operations were measured)\n", f);
		return;
	}
	fprintf(f, "%s\n\n", d->headline);
	for (int i = 0; i < d->n; i++)	/* the ranked come first (explain_floor) */
		if (d->causes[i].ranked)
			print_cause(f, i, &d->causes[i]);
	if (d->also[0])
		why_wrap(f, "", d->also);
	fputc('\n', f);
	if (d->threads[0])
		why_wrap(f, "", d->threads);
	why_wrap(f, "", d->beyond);
	if (d->has_whatif) {
		fputc('\n', f);
		why_print_model(f, &d->whatif);
	}
	fputc('\n', f);
	why_wrap(f, "Fix: ", d->fix);
}

/* The figures the words say, by key: {"working_set_items": 60, ...}. */
static struct json_object *figs_json(const struct diag_fig *figs, int n)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < n; i++)
		json_object_object_add(o, figs[i].key, json_object_new_double(figs[i].value));
	return o;
}

static struct json_object *cause_json(const struct diag_cause *c)
{
	struct json_object *o = json_object_new_object(), *ev = json_object_new_array();

	json_object_object_add(o, "cause", json_object_new_string(c->cause));
	json_object_object_add(o, "share", json_object_new_double(c->share));
	json_object_object_add(o, "share_of", json_object_new_string(c->share_of[0] ? c->share_of :
								       "thread time"));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	for (int e = 0; e < c->nevidence; e++)
		json_object_array_add(ev, json_object_new_string(c->evidence[e]));
	json_object_object_add(o, "evidence", ev);
	json_object_object_add(o, "confidence", json_object_new_double(c->confidence));
	/* under the confidence floor: kept, but on the Also-seen line */
	json_object_object_add(o, "ranked", json_object_new_boolean(c->ranked));
	json_object_object_add(o, "figures", figs_json(c->figs, c->nfigs));
	json_object_object_add(o, "knob", json_object_new_string(c->knob));
	return o;
}

struct json_object *why_causes_json(const struct diagnosis *d)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < d->n; i++)
		json_object_array_add(a, cause_json(&d->causes[i]));
	return a;
}

struct json_object *why_summary_json(const struct diagnosis *d)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "headline", json_object_new_string(d->headline));
	json_object_object_add(o, "fix", json_object_new_string(d->fix));
	json_object_object_add(o, "beyond", json_object_new_string(d->beyond));
	if (d->threads[0])
		json_object_object_add(o, "threads", json_object_new_string(d->threads));
	/* always there, "" when every cause is ranked: a reader need not ask */
	json_object_object_add(o, "also_seen", json_object_new_string(d->also));
	json_object_object_add(o, "figures", figs_json(d->figs, d->nfigs));
	return o;
}
