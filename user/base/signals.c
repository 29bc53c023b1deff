/*
 * signals.c - every signal whose default would end fctrace (Ctrl-C,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, the real-time ones...)
 * only sets a flag and asks the workload to stop; the normal paths then
 * detach every probe and remove the data files, so there is exactly one
 * cleanup path whether a run ends or is interrupted, and the exit status
 * is 128 + the signal (one that came ignored stays ignored, but for
 * SIGINT and SIGTERM, as before). Left alone: SIGKILL and SIGSTOP (they cannot be
 * caught), the crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
 * SIGTRAP, SIGSYS: returning from them would fault again), and SIGPIPE,
 * ignored so a closed pipe is a write error that is reported.
 *
 * A command fctrace runs gets back what the caller gave fctrace before
 * it execs (signals_restore_for_exec): every disposition fctrace changed,
 * SIG_IGN where the caller ignored a signal, and the signal mask, as a
 * plain exec would have passed them on.
 *
 * SIGCONT is counted: it comes after a SIGSTOP or SIGTSTP (or a stray
 * kill -CONT), and a stopped run's threads count the stopped time as
 * blocked, with any lock they held held all along.
 */
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include "base/signals.h"

static volatile sig_atomic_t caught, from_terminal;
static volatile sig_atomic_t continued;
static void (*stop_subject)(void);	/* what runs, asked to stop (signals_install) */

/* What the caller gave fctrace, for a command it execs: each signal's
 * disposition before fctrace changed it, and the signal mask. */
static struct sigaction original[_NSIG];
static bool changed[_NSIG];
static sigset_t original_mask;

static const int stopping[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
	SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT,
};

/* sigaction, keeping the disposition it replaces the first time */
static void set_action(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (sigaction(sig, sa, &old) || sig >= _NSIG || changed[sig])
		return;
	original[sig] = old;
	changed[sig] = true;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	if (!caught) {
		caught = sig;
		/* the tty sends Ctrl-C to the whole foreground group (SI_KERNEL) */
		from_terminal = si && si->si_code == SI_KERNEL;
	}
	if (stop_subject)
		stop_subject();
}

/* Catch sig, unless it came ignored and is not Ctrl-C or SIGTERM: under
 * nohup, or in a shell's background job, SIGHUP or SIGQUIT stays ignored. */
static void catch(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old) || (old.sa_handler == SIG_IGN && sig != SIGINT &&
					   sig != SIGTERM))
		return;
	set_action(sig, sa);
}

static void on_continue(int sig)
{
	(void)sig;
	continued++;
}

void signals_install(void (*on_stop)(void))
{
	stop_subject = on_stop;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stopping) / sizeof(stopping[0]); i++)
		catch(stopping[i], &sa);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		catch(sig, &sa);
	sa.sa_handler = on_continue;
	sa.sa_flags = SA_RESTART;	/* a continue must not cut a wait short */
	set_action(SIGCONT, &sa);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	set_action(SIGPIPE, &sa);
	sigprocmask(SIG_SETMASK, NULL, &original_mask);
}

void signals_restore_for_exec(void)
{
	for (int sig = 1; sig < _NSIG; sig++)
		if (changed[sig])
			sigaction(sig, &original[sig], NULL);
	sigprocmask(SIG_SETMASK, &original_mask, NULL);
}

int signals_caught(void)
{
	return caught;
}

int signals_from_terminal(void)
{
	return from_terminal;
}

int signals_exit_code(void)
{
	return caught ? 128 + caught : 0;
}

unsigned signals_continued(void)
{
	return (unsigned)continued;
}
