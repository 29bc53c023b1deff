/* words.c - figures in sentences (words.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "base/units.h"
#include "explain/words.h"

#define RING	24

double fig_ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* Several figures per sentence: a ring of buffers per thread. */
static char *slot(void)
{
	static __thread char ring[RING][32];
	static __thread unsigned next;

	return ring[next++ % RING];
}

const char *fig_ns(double v) { return units_ns(slot(), 32, v); }
const char *fig_pct(double r) { return units_pct(slot(), 32, r); }
const char *fig_cnt(double v) { return units_count(slot(), 32, v); }

const char *fig_pct_small(double r)
{
	return r < 0.01 ? "< 1 %" : fig_pct(r);
}

const char *fig_plural(double n)
{
	return units_plural(n);
}

void figs_set(struct diag_fig *figs, int *n, int max, const char *key, double v)
{
	int i = 0;

	while (i < *n && strcmp(figs[i].key, key))
		i++;
	if (i == max)
		return;
	if (i == *n) {
		snprintf(figs[i].key, sizeof(figs[i].key), "%s", key);
		(*n)++;
	}
	figs[i].value = v;
}

void cause_fig(struct diag_cause *c, const char *key, double v)
{
	figs_set(c->figs, &c->nfigs, EXPLAIN_MAX_FIGS, key, v);
}

void why_fig(struct diagnosis *d, const char *key, double v)
{
	figs_set(d->figs, &d->nfigs, EXPLAIN_MAX_WHY_FIGS, key, v);
}

double figs_get(const struct diag_fig *figs, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(figs[i].key, key))
			return figs[i].value;
	return NAN;
}

void evidence_add(struct diag_cause *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nevidence >= EXPLAIN_MAX_EVIDENCE)
		return;
	va_start(ap, fmt);
	vsnprintf(c->evidence[c->nevidence++], sizeof(c->evidence[0]), fmt, ap);
	va_end(ap);
}

void words_append(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

const char *jvm_holders_words(const struct jvm_holders_off *h, char *buf, size_t n)
{
	switch (h->why) {
	case JH_ENTER_UNPROBED:
		snprintf(buf, n, "HotSpot's ObjectMonitor::EnterI could not be probed (%s)",
			 h->detail);
		return buf;
	case JH_NO_VMSTRUCTS:
		snprintf(buf, n, "the JVM's field offsets could not be read from its vmStructs "
			 "table (%s)", strerror(-h->err));
		return buf;
	case JH_AS_SAVED:
		snprintf(buf, n, "%s", h->detail);
		return buf;
	default:
		return NULL;
	}
}
