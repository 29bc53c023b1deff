/*
 * test_usym_inline.c - a sampled stack unwound with its inlined frames
 * (trace/usym.c over trace/uinline.c), without BPF: this test binary
 * (built -O2 -g) records its own registers and the top of its stack in a
 * static always_inline function, inlined into a noinline one, as the BPF
 * side would at a futex wait, and hands them to usym. The frames are the
 * inlined function (marked inlined, at the line of the recording) then
 * its caller (at the line that called it); the site names the inlined
 * function, "from" its caller.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "trace/usym.h"

static struct fct_ustack sample;
static int record_line, call_line;
static volatile long sink;

/* The registers unwinding needs (DWARF order: rbp 6, rsp 7, rip 16) at
 * this very instruction, and the stack above it. */
static inline __attribute__((always_inline)) void record_here(void)
{
	uint64_t ip, sp, bp;

	record_line = __LINE__ + 1;
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=r"(ip), "=r"(sp), "=r"(bp));
	sample.regs[16] = ip;
	sample.regs[7] = sp;
	sample.regs[6] = bp;
	memcpy(sample.stack, (const void *)(uintptr_t)sp, sizeof(sample.stack));
	sample.stack_len = sizeof(sample.stack);
	sink++;
}

__attribute__((noinline)) static void waits_here(void)
{
	call_line = __LINE__ + 1;
	record_here();
	sink++;
}

static void test_inlined_frames_and_site(void **state)
{
	struct usym *u = usym_new();
	struct uframe f[USYM_MAX_STACK];
	enum wait_kind kind;
	char site[160];
	int n = 0;

	(void)state;
	memset(&sample, 0, sizeof(sample));
	sample.tgid = (uint32_t)getpid();
	sample.tid = (uint32_t)syscall(SYS_gettid);
	waits_here();
	assert_int_equal(usym_snapshot(u, getpid()), 0);
	usym_wait_stack(u, &sample, sizeof(sample), site, sizeof(site), &kind, f,
			USYM_MAX_STACK, &n);
	if (n == 0 && geteuid()) {	/* map_files wants privilege */
		usym_free(u);
		skip();
	}
	print_message("site: %s\n", site);
	assert_true(n >= 2);
	assert_string_equal(f[0].func, "record_here");
	assert_true(f[0].inlined);
	assert_string_equal(f[0].file, "test_usym_inline.c");
	assert_int_equal(f[0].line, record_line);
	assert_string_equal(f[1].func, "waits_here");
	assert_false(f[1].inlined);
	assert_int_equal(f[1].line, call_line);
	assert_string_equal(f[1].module, f[0].module);
	/* the site: in the inlined function, from the one it is inlined in */
	assert_int_equal(strncmp(site, "record_here (test_usym_inline.c:", 32), 0);
	assert_non_null(strstr(site, ", inlined) from waits_here+0x"));
	usym_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlined_frames_and_site),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
