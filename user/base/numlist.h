/* numlist.h - "10,50,60,100", "1-8" and "1-4,8" lists for sweeps. */
#ifndef FCTRACE_NUMLIST_H
#define FCTRACE_NUMLIST_H

#include <stdint.h>

#define NUMLIST_MAX 64

struct numlist {
	unsigned n;
	uint64_t v[NUMLIST_MAX];
};

/* Parse s into l, every value within [lo, hi]; ascending ranges only.
 * Returns 0, or -1 with a reason in err. */
int numlist_parse(const char *s, uint64_t lo, uint64_t hi, struct numlist *l,
		  char *err, unsigned errlen);

/* Parse one number with an optional K/M/G (x1024) suffix; -1 on junk. */
int parse_size(const char *s, uint64_t *out);

#endif
