/*
 * html.h - what every HTML report needs: escaping, one self-contained page
 * (inline CSS, nothing fetched when viewed), small tables and legends.
 */
#ifndef FCTRACE_HTML_H
#define FCTRACE_HTML_H

#include <stdio.h>

/* Write s escaped for HTML text and attribute values (& < > " '). */
void html_esc(FILE *f, const char *s);

/* <!doctype html> ... <body>, with the title escaped; html_page_end closes it. */
void html_page_begin(FILE *f, const char *title);
void html_page_end(FILE *f);

/* <pre> of text, escaped; text may be NULL (then nothing). */
void html_pre(FILE *f, const char *cls, const char *text);

/* A row of colour swatches with names. */
void html_legend(FILE *f, const char *const *names, const char *const *colours, int n);

/* Table cells: escaped text, and a number right-aligned. */
void html_td(FILE *f, const char *text);
void html_td_num(FILE *f, const char *text);

#endif /* FCTRACE_HTML_H */
