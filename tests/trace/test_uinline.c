/*
 * test_uinline.c - inlined functions at an address from DWARF
 * (trace/uinline.c), on this test binary itself (built -O2 -g): a static
 * always_inline function that makes a call, inlined into a noinline one.
 * The call's return address less one lies in the inlined function: it is
 * named there, with the line its caller called it from; an address in no
 * inlined function has none; the second question is the cache's answer.
 * Two levels (a function inlined into one inlined into a third): both,
 * innermost first, each with its own call line - which dwarf_getscopes
 * alone does not give (past the first it lists the abstract definition's
 * scopes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <elfutils/libdwfl.h>
#include "trace/uinline.h"

static volatile uintptr_t ret_in_inner, ret_in_outer;
static volatile long sink;

/* where it was called from: the return address (a call inside inner) */
__attribute__((noinline)) static uintptr_t called_from(void)
{
	__asm__ volatile("");
	return (uintptr_t)__builtin_return_address(0);
}

static inline __attribute__((always_inline)) uintptr_t inner_probe(void)
{
	uintptr_t r = called_from();

	sink++;
	return r;
}

static int outer_call_line, mid_call_line, nested_call_line;
static volatile uintptr_t ret_nested;

/* two levels: inner_probe inlined into mid_probe, inlined into nested_probe */
static inline __attribute__((always_inline)) uintptr_t mid_probe(void)
{
	uintptr_t r;

	mid_call_line = __LINE__ + 1;
	r = inner_probe();
	sink++;
	return r;
}

__attribute__((noinline)) static void nested_probe(void)
{
	nested_call_line = __LINE__ + 1;
	ret_nested = mid_probe();
	sink++;
}

__attribute__((noinline)) static void outer_probe(void)
{
	outer_call_line = __LINE__ + 1;
	ret_in_inner = inner_probe();
	ret_in_outer = called_from();	/* not inlined: no inlined function here */
	sink++;
}

static Dwfl *self_dwfl(void)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks cbs = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.debuginfo_path = &debuginfo_path,
	};
	Dwfl *d = dwfl_begin(&cbs);

	assert_non_null(d);
	dwfl_report_begin(d);
	assert_int_equal(dwfl_linux_proc_report(d, getpid()), 0);
	assert_int_equal(dwfl_report_end(d, NULL, NULL), 0);
	return d;
}

static void test_inlined_named_with_call_line(void **state)
{
	Dwfl *d = self_dwfl();
	struct uinline *c = uinline_new();
	Dwarf_Addr pc;
	struct uinl l[UINLINE_MAX];
	int n;

	(void)state;
	outer_probe();
	pc = (Dwarf_Addr)ret_in_inner - 1;	/* the call itself */
	n = uinline_at(c, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX);
	assert_int_equal(n, 1);
	assert_string_equal(l[0].func, "inner_probe");
	assert_int_equal(l[0].call_line, outer_call_line);
	assert_non_null(l[0].call_file);
	assert_non_null(strstr(l[0].call_file, "test_uinline.c"));
	/* again, from the cache: the same */
	memset(l, 0, sizeof(l));
	assert_int_equal(uinline_at(c, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX), 1);
	assert_string_equal(l[0].func, "inner_probe");
	/* without a cache too */
	assert_int_equal(uinline_at(NULL, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX), 1);
	pc = (Dwarf_Addr)ret_in_outer - 1;
	assert_int_equal(uinline_at(c, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX), 0);
	assert_int_equal(uinline_at(c, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX), 0);
	uinline_free(c);
	dwfl_end(d);
}

static void test_two_levels(void **state)
{
	Dwfl *d = self_dwfl();
	struct uinl l[UINLINE_MAX];
	Dwarf_Addr pc;

	(void)state;
	nested_probe();
	pc = (Dwarf_Addr)ret_nested - 1;
	assert_int_equal(uinline_at(NULL, dwfl_addrmodule(d, pc), pc, l, UINLINE_MAX), 2);
	assert_string_equal(l[0].func, "inner_probe");
	assert_int_equal(l[0].call_line, mid_call_line);
	assert_string_equal(l[1].func, "mid_probe");
	assert_int_equal(l[1].call_line, nested_call_line);
	/* room for one: the innermost */
	assert_int_equal(uinline_at(NULL, dwfl_addrmodule(d, pc), pc, l, 1), 1);
	assert_string_equal(l[0].func, "inner_probe");
	dwfl_end(d);
}

/* Many addresses: the cache grows, and keeps answering the same. */
static void test_cache_grows(void **state)
{
	Dwfl *d = self_dwfl();
	struct uinline *c = uinline_new();
	Dwarf_Addr in = (Dwarf_Addr)ret_in_inner - 1, base = (Dwarf_Addr)(uintptr_t)&outer_probe;
	Dwfl_Module *mod = dwfl_addrmodule(d, in);
	struct uinl l[UINLINE_MAX];

	(void)state;
	outer_probe();
	for (Dwarf_Addr a = base; a < base + 4000; a++)
		uinline_at(c, mod, a, l, UINLINE_MAX);
	assert_int_equal(uinline_at(c, mod, in, l, UINLINE_MAX), 1);
	assert_string_equal(l[0].func, "inner_probe");
	assert_int_equal(uinline_at(c, NULL, in, l, UINLINE_MAX), 0);	/* no module */
	uinline_free(c);
	dwfl_end(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlined_named_with_call_line),
		cmocka_unit_test(test_two_levels),
		cmocka_unit_test(test_cache_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
