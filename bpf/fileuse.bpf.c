// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * fileuse.bpf.c - the handles group's own programs (fileuse.bpf.h), for
 * when the syscall group's tp_btf programs do not carry the code (that
 * group off, or loaded in its raw_tp form): two hooks on every syscall of
 * the traced threads.
 */
#include "fileuse.bpf.h"

/* the slot first only for calls that are a file's or may be a
 * connection's: fu_fd_of is cheaper */
SEC("tp_btf/sys_enter")
int BPF_PROG(fct_fu_enter, struct pt_regs *regs, long id)
{
	struct fct_slot *t;

	if ((fu_fd_of(regs, id) < 0 && id != FU_CONNECT && !fu_is_send(id)) ||
	    !(t = fct_current_slot()))
		return 0;
	fu_enter(t, regs, id);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fct_fu_exit, struct pt_regs *regs, long ret)
{
	struct fct_slot *t;

	long nr = FU_NR(regs);

	if (((ret < 0 || !fu_is_open(nr)) && nr != FU_CONNECT && !fu_is_recv(nr) &&
	     !fu_is_accept(nr)) || !(t = fct_current_slot()))
		return 0;
	fu_exit(t, regs, ret);
	return 0;
}
