#!/bin/sh
# bpf_arm64_check.sh CLANG VMLINUX_H OUTDIR BPF_SRC... - make test's arm64
# compile check of the BPF objects. There is no arm64 vmlinux.h here, so
# this compiles with -D__TARGET_ARCH_arm64 against this machine's x86 one
# with struct pt_regs swapped for arm64's layout (and arm64's uapi
# struct user_pt_regs, which libbpf's arm64 register macros name).
#
# What it catches: x86-only code on the arm64 side - syscall registers
# read by x86 names (di, si, r10 ...) instead of libbpf's
# PT_REGS_PARM*_SYSCALL macros, a missing arm64 syscall number, macros
# that do not exist for arm64. What it cannot: every other kernel type
# is still x86's (tracepoint arguments, task_struct ...); CO-RE
# relocations resolve against arm64 BTF only when loaded there; the
# arm64 verifier and JIT. Those need an arm64 machine.
set -e
clang=$1 vmlinux=$2 out=$3
shift 3
mkdir -p "$out"
awk '
/^struct pt_regs \{/ {
	print "struct user_pt_regs {\n\t__u64 regs[31];\n\t__u64 sp;\n\t__u64 pc;\n\t__u64 pstate;\n};\n"
	print "struct pt_regs {\n\tunion {\n\t\tstruct user_pt_regs user_regs;\n\t\tstruct {"
	print "\t\t\tu64 regs[31];\n\t\t\tu64 sp;\n\t\t\tu64 pc;\n\t\t\tu64 pstate;\n\t\t};\n\t};"
	print "\tu64 orig_x0;\n\ts32 syscallno;\n\tu32 pmr;\n\tu64 sdei_ttbr1;\n};"
	skip = 1; swapped = 1; next
}
skip && /^};/ { skip = 0; next }
!skip
END { if (!swapped) { print "bpf_arm64_check: no struct pt_regs in the input" > "/dev/stderr"; exit 1 } }
' "$vmlinux" > "$out/vmlinux.h"
for src in "$@"; do
	# the uapi asm/errno.h usdt.bpf.h needs is asm-generic's on both arches
	"$clang" -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_arm64 -I"$out" -Ibpf \
		-idirafter "/usr/include/$(uname -m)-linux-gnu" \
		-c "$src" -o "$out/$(basename "$src" .c).o"
done
echo "arm64 compile check: $# BPF objects built with -D__TARGET_ARCH_arm64 (x86 BTF, arm64 pt_regs)"
