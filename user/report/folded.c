/*
 * folded.c - --folded: collapsed stacks, the text flamegraph.pl, inferno
 * and speedscope read. With on-CPU stacks in the run, the first frame
 * says which graph a line belongs to ("wait" or "cpu").
 */
#include <stdio.h>
#include "base/outfile.h"
#include "report/flame.h"

/* A frame's name as one field: ';' separates frames, a newline lines. */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static bool mixed(const struct stack_set *ss)
{
	return stacks_total(ss, STK_CPU) && stacks_total(ss, STK_WAIT);
}

void flame_folded_line(FILE *f, const struct stack_set *ss, const struct sstack *s, bool no_thread)
{
	const char *sep = "";

	if (mixed(ss)) {
		fputs(stacks_kind_name(s->kind), f);
		sep = ";";
	}
	if (!no_thread) {
		fputs(sep, f);
		put_field(f, s->thread[0] ? s->thread : "?");
		sep = ";";
	}
	for (int i = 0; i < s->nframes; i++) {
		fputs(sep, f);
		put_field(f, ss->frames[s->frames[i]].func);
		sep = ";";
	}
}

int flame_folded_write(const struct stack_set *ss, const struct flame_opts *o, const char *path)
{
	struct outfile out;
	FILE *f = outfile_open(&out, "--folded", path);

	if (!f)
		return -1;
	for (int i = 0; i < ss->n; i++) {
		if (!ss->stacks[i].ns)
			continue;
		flame_folded_line(f, ss, &ss->stacks[i], o->no_thread);
		fprintf(f, " %llu\n", (unsigned long long)ss->stacks[i].ns);
	}
	return outfile_close(&out);
}
