/* signals.h - every catchable ending signal: stop the workload, then clean up normally. */
#ifndef FCTRACE_SIGNALS_H
#define FCTRACE_SIGNALS_H

/* Catch them; on_stop (async-signal-safe, may be NULL) is called from
 * the handler to ask what runs to stop soon (the workloads' wl_request_stop:
 * base/ knows nothing of them). */
void signals_install(void (*on_stop)(void));
/* The signal that asked us to stop, or 0. */
int signals_caught(void);
/* Did the terminal send it (Ctrl-C to the foreground group, so a child
 * in the group got it too), rather than kill(1)? */
int signals_from_terminal(void);
/* 128 + signal, for the exit status of an interrupted run. */
int signals_exit_code(void);
/* In a child about to exec a command: every disposition signals_install
 * changed back to what the caller gave fctrace (SIG_IGN kept), and the
 * caller's signal mask. Async-signal-safe. */
void signals_restore_for_exec(void);
/* SIGCONTs so far: a difference across a run means it was stopped. */
unsigned signals_continued(void);

#endif
