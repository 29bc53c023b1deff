/*
 * test_termsafe.c - text a target chose never reaches a terminal raw.
 * The escaper alone (no root): C0, DEL, C1 as bytes and as UTF-8, bad
 * UTF-8 (overlong, surrogate, stray continuation, cut short) and the
 * marks that reorder or hide text are shown as \xNN, printable text of
 * any script passes, a cut never splits an escape or a character. Then,
 * as root and traced, a program whose threads are named "\e[31m..\e]0;x\a"
 * and "\xc2\x9b31m\e[2J" and whose argv holds an OSC sequence: its table
 * (and `report` of its saved run) holds no ESC, BEL or C1 byte, shows
 * them escaped, and its JSON keeps the names as they were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "base/termsafe.h"
#include "binutil.h"
#include "bpfutil.h"
#include "testutil.h"

#define TARGET		".output/tests/target_prog"
#define WAITER		"\033[31m..\033]0;x\a"
#define MAIN_NAME	"\xc2\x9b" "31m\033[2J"

static const char *safe(const char *s)
{
	static char buf[512];

	return term_safe(buf, sizeof(buf), s);
}

static void test_escapes(void **state)
{
	assert_string_equal(safe("waiter-static"), "waiter-static");
	assert_string_equal(safe(WAITER), "\\x1b[31m..\\x1b]0;x\\x07");
	assert_string_equal(safe(MAIN_NAME), "\\xc2\\x9b31m\\x1b[2J");
	assert_string_equal(safe("a\nb\rc\td\x7f"), "a\\x0ab\\x0dc\\x09d\\x7f");
	assert_string_equal(safe("\x9b" "1m"), "\\x9b1m");			/* an 8-bit CSI */
	assert_string_equal(safe("\xc2\x85"), "\\xc2\\x85");			/* NEL */
	assert_string_equal(safe("\xc0\x9b"), "\\xc0\\x9b");			/* overlong ESC */
	assert_string_equal(safe("\xe0\x80\x9b"), "\\xe0\\x80\\x9b");		/* overlong */
	assert_string_equal(safe("\xed\xa0\x80"), "\\xed\\xa0\\x80");		/* a surrogate */
	assert_string_equal(safe("\xe2\x80\xae" "evil"), "\\xe2\\x80\\xaeevil");	/* RLO */
	assert_string_equal(safe("a\xe2\x80\x8b" "b"), "a\\xe2\\x80\\x8bb");	/* zero width */
	assert_string_equal(safe("\xef\xbb\xbf"), "\\xef\\xbb\\xbf");		/* BOM */
	assert_string_equal(safe("\xe2\x82"), "\\xe2\\x82");			/* cut short */
	assert_string_equal(safe("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");	/* > U+10FFFF */
	/* printable text of every script passes as it is */
	assert_string_equal(safe("µs é 日本 \xc2\xa0 \xf0\x9f\x98\x80"),
			    "µs é 日本 \xc2\xa0 \xf0\x9f\x98\x80");
	assert_string_equal(safe("C:\\x1b"), "C:\\x1b");	/* a backslash is text */
}

/* A buffer too small cuts before an escape or a character, never in one. */
static void test_cut(void **state)
{
	char buf[8];

	assert_string_equal(term_safe(buf, sizeof(buf), "ab\033cdef"), "ab\\x1bc");
	assert_string_equal(term_safe(buf, 6, "ab\033cdef"), "ab");
	assert_string_equal(term_safe(buf, 5, "abc日本"), "abc");
	assert_string_equal(term_safe(buf, 1, "abc"), "");
}

/* The stream: newlines kept, the rest as term_safe, however it was cut
 * into writes (a character split between two fprintf calls too). */
static void test_stream(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len), *f;

	assert_non_null(mem);
	f = term_stream(mem);
	assert_non_null(f);
	fprintf(f, "tid %d %s\n", 7, WAITER);
	fputc(0xe6, f);			/* 日, in three writes */
	fflush(f);
	fputc(0x97, f);
	fputc(0xa5, f);
	fputs(" \xc2", f);
	fputs("\x9b" "x\n", f);
	assert_int_equal(fclose(f), 0);
	fclose(mem);
	assert_string_equal(text, "tid 7 \\x1b[31m..\\x1b]0;x\\x07\n日 \\xc2\\x9bx\n");
	free(text);
}

/* ---- a traced program with such names, as root ------------------------- */

/* No byte a terminal would act on in text (newlines aside). */
static void assert_terminal_safe(const char *what, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f ||
		    (c == 0xc2 && i + 1 < len && (unsigned char)text[i + 1] < 0xa0))
			fail_msg("%s: byte 0x%02x at %zu: \"%.60s\"", what, c, i,
				 text + (i > 20 ? i - 20 : 0));
	}
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	assert_non_null(f);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	return buf;
}

/* The names as the JSON kept them: the waiter's and main's comm. */
static void assert_json_raw(const char *path)
{
	struct json_object *doc = json_object_from_file(path), *threads, *name;
	bool waiter = false, main_name = false;

	assert_non_null(doc);
	assert_true(json_object_object_get_ex(doc, "threads", &threads));
	for (size_t i = 0; i < json_object_array_length(threads); i++) {
		struct json_object *t = json_object_array_get_idx(threads, i);

		if (!json_object_object_get_ex(t, "comm", &name))
			continue;
		waiter |= !strcmp(json_object_get_string(name), WAITER);
		main_name |= !strcmp(json_object_get_string(name), MAIN_NAME);
	}
	json_object_put(doc);
	assert_true(waiter);
	assert_true(main_name);
}

static void test_traced_names(void **state)
{
	char *dir, json[600], err_path[600], out_path[600];
	char *run[] = { (char *)fctrace_binary(), "run", "--json", json, "--", TARGET, "escape",
			"300", "\033]0;TITLE\a", NULL };
	char *report[] = { (char *)fctrace_binary(), "report", json, NULL };
	struct spawn_opts so = { .uid = -1 };
	FILE *err, *out;
	char *text;
	size_t len;

	BPF_TEST_REQUIRE();
	if (require_fctrace_binary("test_traced_names") || access(TARGET, X_OK))
		fail_msg("needs ./fctrace and " TARGET " (make)");
	dir = test_dir_make();
	snprintf(json, sizeof(json), "%s/run.json", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	err = fopen(err_path, "w+");
	so.errfd = fileno(err);
	assert_int_equal(wait_exit(spawn_fctrace(run, &so)), 0);	/* the table: stderr */
	fclose(err);
	text = read_file(err_path, &len);
	assert_terminal_safe("run --", text, len);
	assert_non_null(strstr(text, "\\x1b[31m..\\x1b]0;x\\x07"));
	assert_non_null(strstr(text, "\\xc2\\x9b31m\\x1b[2J"));
	assert_non_null(strstr(text, "\\x1b]0;TITLE\\x07"));		/* argv, in the header */
	free(text);
	assert_json_raw(json);
	out = fopen(out_path, "w+");
	so.outfd = fileno(out);
	so.errfd = -1;
	assert_int_equal(wait_exit(spawn_fctrace(report, &so)), 0);	/* the saved run */
	fclose(out);
	text = read_file(out_path, &len);
	assert_terminal_safe("report", text, len);
	assert_non_null(strstr(text, "\\x1b[31m..\\x1b]0;x\\x07"));
	free(text);
	unlink(json);
	unlink(err_path);
	unlink(out_path);
	test_dir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_traced_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
