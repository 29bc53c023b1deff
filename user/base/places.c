/*
 * places.c - an array's places in a comparator's order (places.h).
 */
#include <stdlib.h>
#include "base/places.h"

int *places_sorted(int n, const void *arg, int (*cmp)(const void *, const void *, void *))
{
	int *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (int i = 0; i < n; i++)
		v[i] = i;
	if (n > 1)
		qsort_r(v, (size_t)n, sizeof(*v), cmp, (void *)arg);
	return v;
}
