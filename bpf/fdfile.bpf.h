/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * fdfile.bpf.h - the regular file behind a descriptor of the current
 * task: what the handles' stream keys on (fileuse.bpf.c) and how the
 * syscall account tells a read that bypasses the page cache (O_DIRECT)
 * from one that asks it (syscalls.bpf.c). Two forms: tp_btf programs
 * walk the task's file table with plain loads; raw_tp ones with probe
 * reads (their task pointer is not BTF-typed).
 */
#ifndef FCTRACE_FDFILE_BPF_H
#define FCTRACE_FDFILE_BPF_H

#define FCT_S_IFMT		00170000
#define FCT_S_IFREG		0100000
#define FCT_S_IFSOCK		0140000
#define FCT_O_DIRECT		040000

static __always_inline struct file *fct_regular(struct file *file)
{
	if (!file)
		return NULL;
	return (BPF_CORE_READ(file, f_inode, i_mode) & FCT_S_IFMT) == FCT_S_IFREG ? file : NULL;
}

static __always_inline bool fct_is_socket(struct file *file)
{
	return file && (BPF_CORE_READ(file, f_inode, i_mode) & FCT_S_IFMT) == FCT_S_IFSOCK;
}

/* The file behind fd, whatever it is, or NULL (tp_btf programs). */
static __always_inline struct file *fct_fd_any_btf(long fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = task->files->fdt;
	struct file *file = NULL;

	if (fd < 0 || (unsigned long)fd >= fdt->max_fds)
		return NULL;
	bpf_probe_read_kernel(&file, sizeof(file), &fdt->fd[fd]);
	return file;
}

/* The regular file behind fd, or NULL (tp_btf programs). */
static __always_inline struct file *fct_fd_file_btf(long fd)
{
	return fct_regular(fct_fd_any_btf(fd));
}

/* The same with probe reads, for raw_tp programs. */
static __always_inline struct file *fct_fd_file_probed(long fd)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **fds = NULL;
	struct file *file = NULL;

	if (!fdt || fd < 0 || (unsigned long)fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]);
	return fct_regular(file);
}

/* Whether fd is a regular file open O_DIRECT. */
static __always_inline bool fct_fd_direct(long fd, bool btf)
{
	struct file *file = btf ? fct_fd_file_btf(fd) : fct_fd_file_probed(fd);

	return file && (BPF_CORE_READ(file, f_flags) & FCT_O_DIRECT);
}

#endif
