/* clc-trace PMPI library: the event streams, their tail file and the
 * writer thread (see stream.h). */
#define _GNU_SOURCE
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

stream st_main = {.fd = -1}, st_truth = {.fd = -1};
int have_truth;
uint32_t clc_flush_events = UINT32_MAX;

static size_t buf_cap = 1u << 20;
static int64_t flush_ns; /* the writer's tick is half of it; 0 = no ticks */

static tail_ctl *ctl;
static size_t ctl_len;
static int ctl_mapped; /* ctl and the buffers are the tail file, mapped */
static int tail_fd = -1;
static char tail_path[4200];

static pthread_t writer;
static int writer_up, writer_quit;
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wcv_work, wcv_done;
/* The crash flush and the writer thread do not write at once:
 * writer_io is set while the writer writes, io_stop while a crash flush
 * runs (both sequentially consistent: one of them sees the other). */
static int writer_io, io_stop;

/* ---------------------------------------------------------------- CRC-32C */

static uint32_t crc_table[256];
static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[i] = c;
  }
}
/* crc32c continues crc over p[0..n), as Go's crc32.Update with the
 * Castagnoli table: table-driven, or with the SSE4.2 crc32 instruction
 * (same polynomial) when the CPU has it. Async-signal-safe once
 * streams_open ran (it fills the table and asks the CPU). */
static uint32_t crc32c_table(uint32_t crc, const unsigned char *p, size_t n) {
  crc = ~crc;
  while (n--) crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}
#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t crc, const unsigned char *p, size_t n) {
  uint64_t c = ~crc & 0xffffffffu;
  while (n && ((uintptr_t)p & 7)) { c = __builtin_ia32_crc32qi((uint32_t)c, *p++); n--; }
  while (n >= 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c = __builtin_ia32_crc32di(c, v);
    p += 8;
    n -= 8;
  }
  while (n--) c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
  return ~(uint32_t)c;
}
static int have_sse42;
static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t n) {
  return have_sse42 ? crc32c_hw(crc, p, n) : crc32c_table(crc, p, n);
}
#else
static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t n) { return crc32c_table(crc, p, n); }
#endif

static void le32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static void le64(unsigned char *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i)); }

/* ----------------------------------------------------------------- writing */

static int pwrite_all(int fd, struct iovec *iov, int n, uint64_t off) {
  while (n > 0) {
    ssize_t w = pwritev(fd, iov, n, (off_t)off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    off += (uint64_t)w;
    while (n > 0 && (size_t)w >= iov->iov_len) { w -= (ssize_t)iov->iov_len; iov++; n--; }
    if (n > 0) { iov->iov_base = (char *)iov->iov_base + w; iov->iov_len -= (size_t)w; }
  }
  return 0;
}

/* write_block writes buffer b of s as a block of len bytes (header
 * included) and nev events at off. The header is built apart: the buffer
 * is only read (async-signal-safe). */
static int write_block(stream *s, int b, size_t len, uint32_t nev, uint64_t off) {
  unsigned char h[BLOCK_HDR];
  uint32_t S = (uint32_t)(len - BLOCK_HDR);
  memcpy(h, "CLCB", 4);
  h[4] = 0; h[5] = h[6] = h[7] = 0;
  le32(h + 8, S);
  le32(h + 12, S);
  le32(h + 16, nev);
  uint32_t c = crc32c(0, h, 20);
  c = crc32c(c, s->buf[b] + BLOCK_HDR, S);
  le32(h + 20, c);
  struct iovec iov[2] = {{h, BLOCK_HDR}, {s->buf[b] + BLOCK_HDR, S}};
  return pwrite_all(s->fd, iov, 2, off);
}

static void io_begin(void) {
  for (;;) {
    __atomic_store_n(&writer_io, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&io_stop, __ATOMIC_SEQ_CST)) return;
    __atomic_store_n(&writer_io, 0, __ATOMIC_SEQ_CST);
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}
static void io_end(void) { __atomic_store_n(&writer_io, 0, __ATOMIC_SEQ_CST); }

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* tick runs every flush_ns/2 in the writer thread (wmu held): a block that
 * gained events since the last tick is asked for at the next event; one
 * that did not (the program records nothing) has its committed part
 * written now, and again whenever it grows. */
static void tick(stream *s) {
  int c = __atomic_load_n(&s->cur, __ATOMIC_ACQUIRE);
  uint64_t w = __atomic_load_n(&s->ctl->commit[c], __ATOMIC_ACQUIRE);
  uint64_t off = __atomic_load_n(&s->ctl->off[c], __ATOMIC_ACQUIRE);
  uint32_t nev = (uint32_t)(w >> 32);
  if (nev == 0) return;
  if (off != s->seen_off || w != s->seen_commit) {
    s->seen_off = off;
    s->seen_commit = w;
    __atomic_store_n(&s->flush_req, 1, __ATOMIC_RELAXED);
    return;
  }
  if (w == s->partial_commit && off == s->partial_off) return;
  /* The buffer stays as it is while this runs: the recording thread can
   * only hand it over, and the writer (this thread) must write it before
   * it is filled again. */
  pthread_mutex_unlock(&wmu);
  io_begin();
  int e = write_block(s, c, (size_t)(w & 0xffffffffu), nev, off);
  io_end();
  pthread_mutex_lock(&wmu);
  if (e && !s->err) s->err = e;
  s->partial_commit = w;
  s->partial_off = off;
}

static void block_async_signals(void) {
  sigset_t set;
  sigemptyset(&set);
  int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGXCPU, SIGUSR1, SIGUSR2, SIGALRM};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) sigaddset(&set, sigs[i]);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void *writer_main(void *arg) {
  (void)arg;
  /* the program's asynchronous signals go to its own threads */
  block_async_signals();
  int64_t next = flush_ns ? mono_ns() + flush_ns / 2 : 0;
  pthread_mutex_lock(&wmu);
  for (;;) {
    stream *s = NULL;
    if (st_main.pending == 1) s = &st_main;
    else if (st_truth.pending == 1) s = &st_truth;
    if (s) {
      s->pending = 2; /* being written */
      pthread_mutex_unlock(&wmu);
      io_begin();
      int e = write_block(s, s->pbuf, s->plen, s->pnev, s->poff);
      io_end();
      pthread_mutex_lock(&wmu);
      if (e && !s->err) s->err = e;
      if (!e) __atomic_store_n(&s->ctl->written[s->pbuf], 1, __ATOMIC_RELEASE);
      s->total += s->pnev;
      s->pending = 0;
      pthread_cond_broadcast(&wcv_done);
      continue;
    }
    if (writer_quit) break;
    if (!flush_ns) {
      pthread_cond_wait(&wcv_work, &wmu);
      continue;
    }
    struct timespec until = {(time_t)(next / 1000000000), (long)(next % 1000000000)};
    pthread_cond_timedwait(&wcv_work, &wmu, &until);
    int64_t now = mono_ns();
    if (now >= next) {
      next = now + flush_ns / 2;
      tick(&st_main);
      if (have_truth) tick(&st_truth);
    }
  }
  pthread_mutex_unlock(&wmu);
  return NULL;
}

/* --------------------------------------------------------------- hand-over */

/* switch_to makes buffer b of s the current one, its block at off. The
 * control page changes in an order that a reader interrupted anywhere
 * (streams_crash_flush, tracer.RecoverTails) never takes for a block to
 * write: first nothing committed, then the offset, then not written. */
static void switch_to(stream *s, int b, uint64_t off) {
  __atomic_store_n(&s->ctl->commit[b], (uint64_t)BLOCK_HDR, __ATOMIC_RELEASE);
  __atomic_store_n(&s->ctl->off[b], off, __ATOMIC_RELEASE);
  __atomic_store_n(&s->ctl->written[b], 0, __ATOMIC_RELEASE);
  __atomic_store_n(&s->cur, b, __ATOMIC_RELEASE);
  s->off = off;
  s->len = BLOCK_HDR;
  s->nev = 0;
  s->last = 0;
}

/* stream_flush hands the current block to the writer thread (or writes it
 * when there is none) and continues in the other buffer. It waits only if
 * the writer has not finished the previous block: memory stays bounded at
 * two buffers per stream. */
void stream_flush(stream *s) {
  __atomic_store_n(&s->flush_req, 0, __ATOMIC_RELAXED);
  if (s->nev == 0) return;
  int c = s->cur;
  uint64_t end = s->off + s->len;
  if (!writer_up) {
    int e = write_block(s, c, s->len, s->nev, s->off);
    if (e && !s->err) s->err = e;
    if (!e) __atomic_store_n(&s->ctl->written[c], 1, __ATOMIC_RELEASE);
    s->total += s->nev;
  } else {
    pthread_mutex_lock(&wmu);
    while (s->pending) pthread_cond_wait(&wcv_done, &wmu);
    s->pbuf = c;
    s->plen = s->len;
    s->pnev = s->nev;
    s->poff = s->off;
    s->pending = 1;
    pthread_cond_signal(&wcv_work);
    pthread_mutex_unlock(&wmu);
  }
  switch_to(s, c ^ 1, end);
}

/* --------------------------------------------------------------- open, close */

void streams_config(size_t cap, uint32_t flush_events, double flush_seconds) {
  if (cap >= 4096 && cap <= (64u << 20)) buf_cap = cap;
  clc_flush_events = flush_events ? flush_events : UINT32_MAX;
  flush_ns = flush_seconds > 0 ? (int64_t)(flush_seconds * 1e9) : 0;
}

static int open_stream_file(stream *s, const char *path, uint64_t loc) {
  s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (s->fd < 0) return -1;
  unsigned char h[32];
  memcpy(h, "\x89" "CLCEVT\n", 8);
  le32(h + 8, 1);
  le32(h + 12, 0);
  le64(h + 16, loc);
  le32(h + 24, 0);
  le32(h + 28, crc32c(0, h, 28));
  struct iovec iov = {h, 32};
  int e = pwrite_all(s->fd, &iov, 1, 0);
  if (e) { errno = e; return -1; }
  return 0;
}

/* map_tail makes the control page and the buffers: the tail file, or the
 * process's own memory when it cannot be made (reason in *warning). */
static int map_tail(const char *path, int nstreams, size_t bufbytes, const char **warning) {
  size_t len = CLC_TAIL_DATA + (size_t)(2 * nstreams) * bufbytes;
  void *m = MAP_FAILED;
  if (path) {
    snprintf(tail_path, sizeof tail_path, "%s", path);
    tail_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int e = tail_fd < 0 ? errno : posix_fallocate(tail_fd, 0, (off_t)len);
    if (!e) {
      m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, tail_fd, 0);
      if (m == MAP_FAILED) e = errno;
    }
    if (e) {
      static char why[256];
      snprintf(why, sizeof why, "cannot map %s (%s): events not yet written are lost if the process is killed", path, strerror(e));
      *warning = why;
      if (tail_fd >= 0) { close(tail_fd); unlink(path); tail_fd = -1; }
    }
  }
  if (m == MAP_FAILED) {
    m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -1;
  } else {
    ctl_mapped = 1;
  }
  ctl = m;
  ctl_len = len;
  return 0;
}

int streams_open(const char *main_path, const char *truth_path, const char *tailp, int rank, const char *host,
                 const char **warning) {
  crc_init();
#if defined(__x86_64__)
  have_sse42 = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#endif
  *warning = NULL;
  int nstreams = truth_path ? 2 : 1;
  have_truth = truth_path != NULL;
  size_t bufbytes = (buf_cap + BLOCK_HDR + MAX_RECORD + 4095) & ~(size_t)4095;
  if (map_tail(tailp, nstreams, bufbytes, warning) != 0) return -1;
  unsigned char *base = (unsigned char *)ctl;
  stream *ss[2] = {&st_main, &st_truth};
  const char *paths[2] = {main_path, truth_path};
  for (int k = 0; k < nstreams; k++) {
    stream *s = ss[k];
    s->ctl = &ctl->s[k];
    for (int b = 0; b < 2; b++) s->buf[b] = base + CLC_TAIL_DATA + (size_t)(2 * k + b) * bufbytes;
    s->cap = buf_cap + BLOCK_HDR;
    if (open_stream_file(s, paths[k], (uint64_t)rank) != 0) return -1;
    /* buffer 1 stands for the stream header: written, nothing in it */
    s->ctl->commit[1] = BLOCK_HDR;
    s->ctl->off[1] = 0;
    s->ctl->written[1] = 1;
    switch_to(s, 0, 32);
  }
  ctl->version = CLC_TAIL_VERSION;
  ctl->nstreams = (uint32_t)nstreams;
  ctl->bufbytes = bufbytes;
  ctl->data = CLC_TAIL_DATA;
  ctl->pid = (int64_t)getpid();
  ctl->rank = (uint32_t)rank;
  snprintf(ctl->host, sizeof ctl->host, "%s", host);
  /* the magic last: a tail without it is one a process died making */
  __atomic_thread_fence(__ATOMIC_RELEASE);
  memcpy(ctl->magic, CLC_TAIL_MAGIC, 8);

  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&wcv_work, &ca);
  pthread_cond_init(&wcv_done, NULL);
  pthread_condattr_destroy(&ca);
  writer_up = pthread_create(&writer, NULL, writer_main, NULL) == 0;
  return 0;
}

static void stop_writer(void) {
  if (!writer_up) return;
  pthread_mutex_lock(&wmu);
  while (st_main.pending || st_truth.pending) pthread_cond_wait(&wcv_done, &wmu);
  writer_quit = 1;
  pthread_cond_signal(&wcv_work);
  pthread_mutex_unlock(&wmu);
  pthread_join(writer, NULL);
  writer_up = 0;
}

static void drop_tail(void) {
  if (!ctl) return;
  ctl->closed = 1;
  if (ctl_mapped) unlink(tail_path);
  munmap(ctl, ctl_len);
  if (tail_fd >= 0) close(tail_fd);
  tail_fd = -1;
  ctl = NULL;
  st_main.ctl = st_truth.ctl = NULL;
}

void streams_close(void) {
  if (!ctl) return;
  stream_flush(&st_main);
  if (have_truth) stream_flush(&st_truth);
  stop_writer();
  stream *ss[2] = {&st_main, &st_truth};
  for (int k = 0; k < 1 + have_truth; k++) {
    stream *s = ss[k];
    if (close(s->fd) != 0 && !s->err) s->err = errno;
    s->fd = -1;
  }
  /* A stream that could not be written keeps its tail: its events are
   * there. */
  if (st_main.err || st_truth.err) {
    munmap(ctl, ctl_len);
    ctl = NULL;
    return;
  }
  drop_tail();
}

void streams_forget(void) {
  /* a forked child: the mapping and the files are its parent's */
  if (!ctl) return;
  munmap(ctl, ctl_len);
  ctl = NULL;
  writer_up = 0;
}

/* finish writes the blocks of s that the control page says are unwritten
 * and cuts the file after the last one: what tracer.RecoverTails does from
 * the tail file. It returns the events in those blocks. */
static uint64_t finish(stream *s) {
  tail_stream *t = s->ctl;
  uint64_t n = 0, end = 0;
  for (int b = 0; b < 2; b++) {
    uint32_t written = __atomic_load_n(&t->written[b], __ATOMIC_ACQUIRE);
    uint64_t off = __atomic_load_n(&t->off[b], __ATOMIC_ACQUIRE);
    uint64_t w = __atomic_load_n(&t->commit[b], __ATOMIC_ACQUIRE);
    uint32_t nev = (uint32_t)(w >> 32);
    size_t len = (size_t)(w & 0xffffffffu);
    uint64_t e = nev ? off + len : off;
    if (off >= end) end = e;
    if (written || nev == 0) continue;
    if (write_block(s, b, len, nev, off) == 0) n += nev;
  }
  struct stat st;
  if (end >= 32 && fstat(s->fd, &st) == 0 && (uint64_t)st.st_size > end) {
    int r = ftruncate(s->fd, (off_t)end);
    (void)r;
  }
  return n;
}

uint64_t streams_crash_flush(void) {
  if (!ctl) return 0;
  int self = writer_up && pthread_equal(pthread_self(), writer);
  __atomic_store_n(&io_stop, 1, __ATOMIC_SEQ_CST);
  /* wait (at most 5 s) for a block the writer is writing */
  for (int i = 0; !self && i < 5000 && __atomic_load_n(&writer_io, __ATOMIC_SEQ_CST); i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  uint64_t n = st_main.total + finish(&st_main);
  if (have_truth) finish(&st_truth);
  __atomic_store_n(&io_stop, 0, __ATOMIC_SEQ_CST);
  return n;
}
