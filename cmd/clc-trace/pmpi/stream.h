/* clc-trace PMPI library: the event streams (docs/format.md) and what
 * keeps them safe when the process dies (docs/tracer.md, "Unfinished runs").
 *
 * A stream is a file of blocks. Events are encoded into one of two
 * buffers; a full buffer is a block, handed to a writer thread, which
 * writes it at its offset in the file while the other buffer fills. The
 * buffers are not the process's own memory: they live in a file,
 * DIR/.clc-meta/<rank>.tail, mapped shared, whose control page says, per
 * buffer, where its block goes, how much of it is committed (whole
 * records) and whether the writer has written it. What a process has
 * committed therefore outlives it, whatever kills it (SIGKILL included):
 * clc-trace writes the blocks the file says are unwritten
 * (tracer.RecoverTails). A fatal or terminating signal, MPI_Abort and an
 * exit without MPI_Finalize write them at once (streams_crash_flush,
 * streams_close).
 *
 * Unwritten events do not get old: a block is also handed over after
 * flush_events events, and the writer thread asks for a hand-over at the
 * next event, or writes the committed part itself when the program records
 * nothing, once a block has held events for flush_seconds. */
#ifndef CLC_STREAM_H
#define CLC_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format_gen.h"

#define BLOCK_HDR 24
#define MAX_RECORD 128 /* room kept for one record and its attachment */

/* The control page of a tail file (its layout is format_gen.h's, which
 * package tracer reads). */
typedef struct tail_stream {
  uint64_t commit[2]; /* per buffer: events << 32 | bytes (the block header included) */
  uint64_t off[2];    /* the file offset of the buffer's block */
  uint32_t written[2]; /* 1: the block is in the file as committed */
} tail_stream;

typedef struct tail_ctl {
  char magic[8];
  uint32_t version, nstreams;
  uint64_t bufbytes; /* bytes per buffer */
  uint64_t data;     /* offset of the first buffer; stream s's buffer b is at data + (2s+b)*bufbytes */
  int64_t pid;
  uint32_t rank, closed; /* closed: the streams were closed, nothing to recover */
  char host[64];
  tail_stream s[2];
} tail_ctl;

_Static_assert(sizeof(tail_ctl) == CLC_TAIL_CTL_SIZE, "tail control layout");
_Static_assert(offsetof(tail_ctl, bufbytes) == CLC_TAIL_OFF_BUFBYTES, "tail control layout");
_Static_assert(offsetof(tail_ctl, data) == CLC_TAIL_OFF_DATA, "tail control layout");
_Static_assert(offsetof(tail_ctl, pid) == CLC_TAIL_OFF_PID, "tail control layout");
_Static_assert(offsetof(tail_ctl, closed) == CLC_TAIL_OFF_CLOSED, "tail control layout");
_Static_assert(offsetof(tail_ctl, host) == CLC_TAIL_OFF_HOST, "tail control layout");
_Static_assert(offsetof(tail_ctl, s) == CLC_TAIL_OFF_STREAMS, "tail control layout");
_Static_assert(sizeof(tail_stream) == CLC_TAIL_STREAM_SIZE, "tail control layout");
_Static_assert(offsetof(tail_stream, off) == CLC_TAIL_STREAM_OFF_OFF, "tail control layout");
_Static_assert(offsetof(tail_stream, written) == CLC_TAIL_STREAM_OFF_WRITTEN, "tail control layout");

typedef struct stream {
  int fd;
  tail_stream *ctl;
  unsigned char *buf[2];
  int cur;         /* the buffer being filled (read by the writer thread) */
  size_t cap, len; /* len includes the BLOCK_HDR bytes reserved at the front */
  uint32_t nev;
  int64_t last;
  uint64_t off;    /* file offset of the current block */
  uint64_t total;  /* events in blocks the writer wrote */
  int flush_req;   /* the writer thread asks for a hand-over at the next event */
  /* hand-over to the writer thread */
  int pending;     /* 1: a full buffer waits for the writer; 2: being written */
  int pbuf;
  size_t plen;
  uint32_t pnev;
  uint64_t poff;
  /* the writer's view of the current block at its last tick */
  uint64_t seen_off, seen_commit, partial_off, partial_commit;
  int err;         /* errno of the first failed write */
} stream;

extern stream st_main, st_truth;
extern int have_truth;
/* Blocks are handed over after this many events (0 = only when full). */
extern uint32_t clc_flush_events;

/* streams_config sets the buffer size and the flush bounds (events and
 * seconds; 0 = none) before streams_open. */
void streams_config(size_t buf_cap, uint32_t flush_events, double flush_seconds);
/* streams_open opens the stream files of rank (main, and truth when
 * truth_path is not NULL), the tail file and the writer thread. It
 * returns 0, or -1 with errno set. A tail file that cannot be made is not
 * an error: *warning then says why (the buffers are the process's own). */
int streams_open(const char *main_path, const char *truth_path, const char *tail_path, int rank, const char *host,
                 const char **warning);
/* stream_flush hands the current block over. */
void stream_flush(stream *s);
/* streams_close writes every event, stops the writer and removes the tail
 * file. */
void streams_close(void);
/* streams_crash_flush writes every committed event from wherever the
 * process is (async-signal-safe) and returns the events in the stream. */
uint64_t streams_crash_flush(void);
/* streams_forget drops the streams without writing (a forked child). */
void streams_forget(void);

static inline unsigned char *put_uv(unsigned char *p, uint64_t v) {
  while (v >= 0x80) { *p++ = (unsigned char)(v | 0x80); v >>= 7; }
  *p++ = (unsigned char)v;
  return p;
}
static inline unsigned char *put_sv(unsigned char *p, int64_t v) {
  return put_uv(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* put_record appends one record to s (not yet committed). */
static inline void put_record(stream *s, int kind, int64_t t, const unsigned char *body, size_t n) {
  if (__builtin_expect(s->len + MAX_RECORD > s->cap || s->nev >= clc_flush_events ||
                         __atomic_load_n(&s->flush_req, __ATOMIC_RELAXED), 0)) stream_flush(s);
  unsigned char *p = s->buf[s->cur] + s->len;
  *p++ = (unsigned char)kind;
  p = put_sv(p, t - s->last);
  memcpy(p, body, n);
  p += n;
  s->len = (size_t)(p - s->buf[s->cur]);
  s->last = t;
  s->nev++;
}

/* commit makes what s holds part of the tail (whole records only). */
static inline void commit(stream *s) {
  __atomic_store_n(&s->ctl->commit[s->cur], (uint64_t)s->nev << 32 | (uint64_t)s->len, __ATOMIC_RELEASE);
}

#endif
