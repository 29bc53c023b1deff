/*
 * pprofutil.c - see pprofutil.h.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pprofutil.h"

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
