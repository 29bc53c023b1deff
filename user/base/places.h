/*
 * places.h - the places 0..n-1 of an array, in the order a comparator
 * gives them (qsort_r's, with arg): an index over an array that stays
 * where it is - the locks by their waits, the words by their names.
 */
#ifndef FCTRACE_PLACES_H
#define FCTRACE_PLACES_H

/* Free the result; NULL out of memory (at least one int is asked for, so
 * n = 0 gives an empty order, not NULL). */
int *places_sorted(int n, const void *arg, int (*cmp)(const void *, const void *, void *));

#endif
