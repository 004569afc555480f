/* clc-trace PMPI library: what a fatal or terminating signal does to the
 * trace. The handler writes every committed event (streams_crash_flush,
 * async-signal-safe), notes the signal in the rank's metadata, and hands
 * the signal on to what was there before (the program's or the MPI
 * library's handler, or the default action, which it raises again), so the
 * program dies as it would have. */
#define _GNU_SOURCE
#include "clc.h"
#include "stream.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Crashes, and what launchers, batch systems and a terminal send. */
static const int handled[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXCPU};
static const char *const names[] = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGXCPU"};
#define NHANDLED ((int)(sizeof handled / sizeof handled[0]))

static struct sigaction old_act[NHANDLED];
static int installed[NHANDLED];
static int in_flush;

static int slot(int sig) {
  for (int i = 0; i < NHANDLED; i++) if (handled[i] == sig) return i;
  return -1;
}

static int is_fault(int sig) { return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE; }

/* say writes a crash message to stderr without allocating. */
static void say(int sig, uint64_t n) {
  char b[512];
  size_t l = 0;
  int i = slot(sig);
  const char *parts[] = {"clc-trace: rank ", NULL, ": ", i < 0 ? "signal" : names[i], " (", NULL, "): its ", NULL,
                         " events are written to ", clc_trace_dir(), "; if the launcher kills clc-trace too, `clc-trace --convert ",
                         clc_trace_out(), "` finishes the trace\n"};
  char num[3][24];
  unsigned long long v[3] = {(unsigned long long)clc_world_rank, (unsigned long long)sig, (unsigned long long)n};
  for (int k = 0; k < 3; k++) {
    char *p = num[k] + sizeof num[k];
    *--p = 0;
    do { *--p = (char)('0' + v[k] % 10); v[k] /= 10; } while (v[k]);
    parts[k == 0 ? 1 : k == 1 ? 5 : 7] = p;
  }
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    const char *s = parts[i] ? parts[i] : "?";
    size_t m = strlen(s);
    if (l + m >= sizeof b) m = sizeof b - l - 1;
    memcpy(b + l, s, m);
    l += m;
  }
  ssize_t w = write(2, b, l);
  (void)w;
}

/* chain hands the signal on to the disposition before ours. A fault the
 * CPU raised happens again when the handler returns; anything else is
 * raised again (it stays pending until the handler returns). A handler of
 * the program's is called and ours stays: the program may go on. */
static void chain(int sig, siginfo_t *si, void *uc) {
  int i = slot(sig);
  if (i < 0) return;
  struct sigaction *o = &old_act[i];
  int fault = is_fault(sig) && si && si->si_code > 0;
  if (o->sa_handler == SIG_DFL || o->sa_handler == SIG_IGN || fault) {
    sigaction(sig, o, NULL);
    installed[i] = 0;
    if (!fault) raise(sig);
    return;
  }
  if (o->sa_flags & SA_SIGINFO) o->sa_sigaction(sig, si, uc);
  else o->sa_handler(sig);
}

static void on_signal(int sig, siginfo_t *si, void *uc) {
  int saved = errno;
  if (!__atomic_exchange_n(&in_flush, 1, __ATOMIC_SEQ_CST)) {
    uint64_t n = streams_crash_flush();
    clc_signal_note(sig, n);
    if (is_fault(sig) || sig == SIGABRT) say(sig, n);
    __atomic_store_n(&in_flush, 0, __ATOMIC_SEQ_CST);
  }
  chain(sig, si, uc);
  errno = saved;
}

void clc_signals_install(void) {
  /* the recording thread handles a stack overflow on a stack of its own */
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    static void *alt;
    if (!alt) alt = malloc(1 << 16);
    stack_t ss = {.ss_sp = alt, .ss_size = 1 << 16, .ss_flags = 0};
    if (alt) sigaltstack(&ss, NULL);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NHANDLED; i++) sigaddset(&sa.sa_mask, handled[i]);
  for (int i = 0; i < NHANDLED; i++) {
    struct sigaction old;
    if (installed[i] || sigaction(handled[i], NULL, &old) != 0) continue;
    if (old.sa_handler == SIG_IGN) continue; /* the program ignores it: it does not die of it */
    old_act[i] = old;
    if (sigaction(handled[i], &sa, NULL) == 0) installed[i] = 1;
  }
}

void clc_signals_restore(void) {
  for (int i = 0; i < NHANDLED; i++) {
    if (!installed[i]) continue;
    struct sigaction now;
    /* a handler the program installed after ours stays */
    if (sigaction(handled[i], NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_signal)
      sigaction(handled[i], &old_act[i], NULL);
    installed[i] = 0;
  }
}
