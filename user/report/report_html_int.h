/*
 * report_html_int.h - what the three HTML pages (report_html.c: run,
 * report_html_compare.c, report_html_sweep.c) share.
 */
#ifndef FCTRACE_REPORT_HTML_INT_H
#define FCTRACE_REPORT_HTML_INT_H

#include <stdio.h>
#include "report/report.h"

#define PAGE_W	1120	/* chart width of a full-page report, px */
#define HALF_W	540	/* chart width in one column of a compare page */

/* One colour per workload, in the order they first appear. */
#define NCOLOURS 8
extern const char *const wl_colours[NCOLOURS];

void html_h1(FILE *f, const char *text);
/* "42 %": a whole-percent label, also an axis tick formatter */
char *html_pct0(char *buf, size_t n, double ratio);
/* Everything a run's page shows below its title, charts w px wide. */
void html_run_body(FILE *f, const struct session *s, double w);
/* --timeline: the swimlanes, w px wide (nothing without a timeline) */
void html_timeline_section(FILE *f, const struct session *s, double w);

/* The programs' caches and their curves, w px wide (nothing without
 * any; report_html_caches.c). */
struct joined_run;
void html_caches_section(FILE *f, const struct joined_run *m, double w);

/* The flame graphs of the run's stacks, w px wide (nothing without
 * stacks), with the script that zooms them (report_html_flame.c). */
void html_flame_section(FILE *f, const struct session *s, double w);
/* How many of the run's wait stacks waited on the lock named lock. */
int html_lock_stacks(const struct session *s, const char *lock);

#endif
