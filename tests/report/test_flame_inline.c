/*
 * test_flame_inline.c - inlined frames (issue 43) in every stack fctrace
 * writes, from a hand-built stack set: start_thread;run;get_locked (inlined
 * into run);pthread_mutex_lock, beside a stack where get_locked was not
 * inlined. Folded: the inlined function between its caller and the lock;
 * pprof (read by protoc against pprof's own profile.proto): one Location
 * for run's address with two lines, get_locked's first, and another for
 * the stack where get_locked is a call of its own; JSON: "inlined": true
 * on that frame alone, read back into the same frames; the HTML flame
 * graph: two get_locked frames, the inlined one titled so.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include "flameutil.h"
#include "report/flame.h"
#include "report/report_html_int.h"
#include "session/session.h"
#include "session/load_stacks.h"

enum { FR_START, FR_RUN, FR_GET_INL, FR_LOCK, FR_RUN2, FR_GET, FR_N };

/* frames 0.. as the enum; stack 1 with get_locked inlined, stack 2 without */
static void build(struct stack_set *ss)
{
	uint32_t inl[] = { FR_START, FR_RUN, FR_GET_INL, FR_LOCK };
	uint32_t call[] = { FR_START, FR_RUN2, FR_GET, FR_LOCK };

	memset(ss, 0, sizeof(*ss));
	assert_int_equal(stacks_frame(ss, "start_thread", "pthread_create.c", 442), FR_START);
	assert_int_equal(stacks_frame(ss, "run", "inline_prog.c", 43), FR_RUN);
	assert_int_equal(stacks_frame_inl(ss, "get_locked", "inline_prog.c", 35, true), FR_GET_INL);
	assert_int_equal(stacks_frame(ss, "pthread_mutex_lock", "", 0), FR_LOCK);
	assert_int_equal(stacks_frame(ss, "run", "inline_prog.c", 44), FR_RUN2);
	/* the same function and line, not inlined: a frame apart */
	assert_int_equal(stacks_frame(ss, "get_locked", "inline_prog.c", 35), FR_GET);
	assert_int_equal(stacks_frame_inl(ss, "get_locked", "inline_prog.c", 35, true), FR_GET_INL);
	assert_int_equal(stacks_add(ss, STK_WAIT, "inliner", "inline_lock (mutex)", inl, 4, 3000,
				    3), 0);
	assert_int_equal(stacks_add(ss, STK_WAIT, "inliner", "inline_lock (mutex)", call, 4, 1000,
				    1), 0);
	stacks_order(ss);
}

static char *tmp_path(const char *name)
{
	static char p[2][96];
	static int i;

	i ^= 1;
	snprintf(p[i], sizeof(p[i]), "/tmp/fct-inline-%d-%s", (int)getpid(), name);
	return p[i];
}

static void test_folded_names_inlined(void **state)
{
	struct stack_set ss;
	struct flame_opts o = { 0 };
	const char *path = tmp_path("w.folded");

	(void)state;
	build(&ss);
	assert_int_equal(flame_folded_write(&ss, &o, path), 0);
	/* by name, inlined or called is one path (as perf's folded stacks) */
	assert_int_equal(folded_ns(path, "inliner;start_thread;run;get_locked;pthread_mutex_lock ",
				   NULL), 3000 + 1000);
	unlink(path);
	stacks_free(&ss);
}

/* pprof: function ids are frame index + 1 (then the thread's) */
static void test_pprof_location_lines(void **state)
{
	struct stack_set ss;
	struct flame_opts o = { 0 };
	const char *path = tmp_path("w.pb.gz");
	char *text;

	(void)state;
	build(&ss);
	assert_int_equal(flame_pprof_write(&ss, &o, path), 0);
	text = pprof_text(path);
	if (!text) {
		unlink(path);
		stacks_free(&ss);
		skip();
	}
	/* run's address: get_locked's line (innermost) then run's */
	assert_non_null(strstr(text, "location { id: 2 line { function_id: 3 line: 35 } "
				     "line { function_id: 2 line: 43 } }"));
	/* the stack of it: lock, that location, start_thread, the thread */
	assert_non_null(strstr(text, "sample { location_id: 1 location_id: 2 location_id: 3 "
				     "location_id: 4 value: 3000 value: 0"));
	/* get_locked called, not inlined: a location of its own, one line */
	assert_non_null(strstr(text, "location { id: 5 line { function_id: 6 line: 35 } }"));
	assert_non_null(strstr(text, "sample { location_id: 1 location_id: 5 location_id: 6 "
				     "location_id: 3 location_id: 4 value: 1000"));
	/* the inlined frame is never a location alone */
	assert_null(strstr(text, "line { function_id: 3 line: 35 } }"));
	free(text);
	unlink(path);
	stacks_free(&ss);
}

static void test_json_round_trip(void **state)
{
	struct stack_set ss, back = { 0 };
	struct json_object *doc = json_object_new_object(), *frames, *f;
	char why[256];
	struct jr r = { .why = why, .n = sizeof(why) };

	(void)state;
	build(&ss);
	json_object_object_add(doc, "stacks", flame_stacks_json(&ss));
	frames = json_object_object_get(json_object_object_get(doc, "stacks"), "frames");
	for (int i = 0; i < FR_N; i++) {
		f = json_object_array_get_idx(frames, (size_t)i);
		assert_int_equal(json_object_object_get_ex(f, "inlined", NULL), i == FR_GET_INL);
	}
	assert_int_equal(load_stacks(&r, doc, &back), 0);
	assert_int_equal(back.nframes, ss.nframes);
	for (int i = 0; i < FR_N; i++) {
		assert_string_equal(back.frames[i].func, ss.frames[i].func);
		assert_int_equal(back.frames[i].inlined, i == FR_GET_INL);
	}
	/* "inlined": false is not what fctrace writes: refused */
	json_object_object_add(json_object_array_get_idx(frames, 0), "inlined",
			       json_object_new_boolean(0));
	stacks_free(&back);
	assert_int_equal(load_stacks(&r, doc, &back), -1);
	assert_non_null(strstr(why, "inlined"));
	stacks_free(&back);
	json_object_put(doc);
	stacks_free(&ss);
}

static void test_html_marks_inlined(void **state)
{
	struct session *s = calloc(1, sizeof(*s));
	char *page = NULL, *at;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);

	(void)state;
	assert_non_null(s);
	build(&s->stacks);
	html_flame_section(f, s, 1000);
	fclose(f);
	at = strstr(page, "data-n=\"get_locked\"><title>get_locked (inlined) - ");
	assert_non_null(at);
	assert_non_null(strstr(page, "data-n=\"get_locked\"><title>get_locked - "));
	free(page);
	stacks_free(&s->stacks);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_names_inlined),
		cmocka_unit_test(test_pprof_location_lines),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_html_marks_inlined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
