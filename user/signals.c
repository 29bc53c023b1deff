/*
 * signals.c - SIGINT/SIGTERM only set a flag and ask the workload to stop;
 * the normal paths then detach every probe and remove the data files, so
 * there is exactly one cleanup path whether a run ends or is interrupted.
 */
#include <signal.h>
#include <string.h>
#include "signals.h"
#include "workload.h"

static volatile sig_atomic_t caught, from_terminal;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	if (!caught) {
		caught = sig;
		/* the tty sends Ctrl-C to the whole foreground group (SI_KERNEL) */
		from_terminal = si && si->si_code == SI_KERNEL;
	}
	wl_request_stop();
}

void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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
