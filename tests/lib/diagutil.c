/* diagutil.c - see diagutil.h. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "diagutil.h"
#include "explain/words.h"

const struct diag_cause *cause_of(const struct diagnosis *d, const char *id)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->causes[i].cause, id))
			return &d->causes[i];
	return NULL;
}

const struct diag_cause *first_code_cause(const struct diagnosis *d)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->causes[i].cause, "cpu_oversubscription") &&
		    strcmp(d->causes[i].cause, "cpu_competition"))
			return &d->causes[i];
	return NULL;
}

bool has_text(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return true;
	print_error("'%s' not in '%s'\n", needle, hay);
	return false;
}

bool any_evidence(const struct diag_cause *c, const char *needle)
{
	for (int i = 0; c && i < c->nevidence; i++)
		if (strstr(c->evidence[i], needle))
			return true;
	print_error("no evidence of %s says '%s'\n", c ? c->cause : "(no cause)", needle);
	return false;
}

static bool figs_is(const char *whose, const struct diag_fig *figs, int n, const char *key,
		    double want)
{
	double v = figs_get(figs, n, key);

	if (fabs(v - want) <= 1e-6 * fabs(want) + 1e-12)
		return true;
	if (isnan(v))
		print_error("%s has no figure %s (want %.9g)\n", whose, key, want);
	else
		print_error("%s's %s is %.9g, want %.9g\n", whose, key, v, want);
	return false;
}

bool fig_is(const struct diag_cause *c, const char *key, double want)
{
	if (!c) {
		print_error("no cause to hold %s\n", key);
		return false;
	}
	return figs_is(c->cause, c->figs, c->nfigs, key, want);
}

bool why_fig_is(const struct diagnosis *d, const char *key, double want)
{
	return figs_is("the Why", d->figs, d->nfigs, key, want);
}

bool has_fig(const struct diag_cause *c, const char *key)
{
	return c && !isnan(figs_get(c->figs, c->nfigs, key));
}

bool why_has_fig(const struct diagnosis *d, const char *key)
{
	return !isnan(figs_get(d->figs, d->nfigs, key));
}

double fig_of(const struct diag_cause *c, const char *key)
{
	return c ? figs_get(c->figs, c->nfigs, key) : NAN;
}
