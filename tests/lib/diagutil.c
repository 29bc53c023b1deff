/* diagutil.c - see diagutil.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "diagutil.h"

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
