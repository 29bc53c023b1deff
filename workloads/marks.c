/*
 * marks.c - where a worker's measured window begins and ends.
 *
 * These functions do nothing on purpose: fctrace attaches uprobes to them
 * so that the kernel-side account of a thread starts and stops on exactly
 * the CLOCK_MONOTONIC instants the thread measured itself. They cost a
 * call when nothing is attached; noinline and the empty asm keep the
 * compiler from folding them away.
 */
#include "workload.h"

__attribute__((noinline, used)) void fctrace_thread_begin(uint64_t now_ns,
							   unsigned index)
{
	__asm__ __volatile__("" : : "r"(now_ns), "r"(index) : "memory");
}

__attribute__((noinline, used)) void fctrace_thread_end(uint64_t now_ns,
							 unsigned index)
{
	__asm__ __volatile__("" : : "r"(now_ns), "r"(index) : "memory");
}
