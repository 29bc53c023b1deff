/*
 * flameutil.c - see flameutil.h.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "flameutil.h"

int64_t pprof_wait_total(const char *gz)
{
	char cmd[1024], line[256];
	int64_t sum = 0;
	bool first = true;
	FILE *p;

	if (system("command -v protoc >/dev/null"))
		return -1;
	snprintf(cmd, sizeof(cmd), "zcat %s | protoc --decode perftools.profiles.Profile "
		 "-I %s profile.proto", gz, PPROF_PROTO_DIR);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "sample {"))
			first = true;
		else if (strstr(line, "  value: ") && first) {
			sum += strtoll(strstr(line, "value: ") + 7, NULL, 10);
			first = false;
		}
	}
	assert_int_equal(pclose(p), 0);
	return sum;
}

char *pprof_text(const char *gz)
{
	char cmd[1024], *out = NULL;
	size_t len = 0, n = 0;
	int c, space = 0;
	FILE *p;

	if (system("command -v protoc >/dev/null"))
		return NULL;
	snprintf(cmd, sizeof(cmd), "zcat %s | protoc --decode perftools.profiles.Profile "
		 "-I %s profile.proto", gz, PPROF_PROTO_DIR);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((c = fgetc(p)) != EOF) {
		if (n + 2 >= len) {
			len = len ? 2 * len : 4096;
			out = realloc(out, len);
			assert_non_null(out);
		}
		if (c == ' ' || c == '\n' || c == '\t')
			space = n > 0;
		else {
			if (space)
				out[n++] = ' ';
			space = 0;
			out[n++] = (char)c;
		}
	}
	assert_int_equal(pclose(p), 0);
	assert_non_null(out);
	out[n] = '\0';
	return out;
}

uint64_t folded_ns(const char *path, const char *n1, const char *n2)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	uint64_t sum = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' '), value[32];

		assert_non_null(sp);
		snprintf(value, sizeof(value), "%s", sp + 1);
		sp[1] = '\0';	/* the value cut, the space before it kept */
		if (strstr(line, n1) && (!n2 || strstr(line, n2)))
			sum += strtoull(value, NULL, 10);
	}
	fclose(f);
	return sum;
}
