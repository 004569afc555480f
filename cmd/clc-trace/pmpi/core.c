/* clc-trace PMPI library: buffers, native-format writer, timer, emulated
 * clock error, communicator and request tables, clock-offset measurement,
 * the manifest. See docs/tracer.md and docs/format.md. */
#define _GNU_SOURCE
#include "clc.h"
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

__thread int clc_t __attribute__((tls_model("initial-exec"))) = 0;
int clc_world_rank = -1, clc_world_size = 0;
uint64_t clc_unknown_comm = 0;

#define CLC_X_NAME(n, g) #n,
static const char *const region_names[R_COUNT] = {CLC_REGIONS(CLC_X_NAME)};
#undef CLC_X_NAME
#define CLC_X_GROUP(n, g) g,
const unsigned char clc_region_group[R_COUNT] = {CLC_REGIONS(CLC_X_GROUP)};
#undef CLC_X_GROUP

clc_call clc_cur;
/* All groups but spawn (never recorded) are on unless CLC_TRACE_GROUPS says otherwise. */
unsigned clc_groups = ~0u;
/* Runs of unsuccessful polls collapse (CLC_TRACE_POLLS=all keeps every call). */
static int collapse_polls = 1;

static void warnf(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(buf, sizeof buf, "clc-trace: rank %d: ", clc_world_rank);
  vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  va_end(ap);
  size_t l = strlen(buf);
  if (l + 1 < sizeof buf) { buf[l++] = '\n'; }
  ssize_t w = write(2, buf, l);
  (void)w;
}

/* ------------------------------------------------------ emulated clocks */

/* The emulated clock of this rank: local = t + off + drift*(t-base) +
 * sum_k amp_k*sin(w_k*(t-base)+phi_k), all in ticks. Zero for the
 * reference group (the one holding rank 0). */
static struct {
  int on;
  double off, drift, amp[3], w[3], phi[3];
  int64_t base;
  char spec[256];
  double s_off, s_drift, s_wander, s_period;
  uint64_t seed;
  int rpn;
} emu;

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double unif(uint64_t *x) { return (double)(splitmix(x) >> 11) / 9007199254740992.0; }

static inline int64_t emu_time(int64_t t) {
  if (!emu.on) return t;
  double d = (double)(t - emu.base);
  double v = emu.off + emu.drift * d;
  for (int k = 0; k < 3; k++) v += emu.amp[k] * sin(emu.w[k] * d + emu.phi[k]);
  return t + (int64_t)llround(v);
}

/* parse_emulate reads "seed=S,offset=SEC,drift=FRAC,wander=SEC,period=SEC,rpn=N";
 * it returns -1 for anything else (an unknown key, a value that is not a
 * number), which the caller refuses. */
static int parse_emulate(const char *spec) {
  emu.s_off = 1e-3; emu.s_drift = 1e-5; emu.s_wander = 2e-6; emu.s_period = 0.2;
  emu.seed = 1; emu.rpn = 1;
  snprintf(emu.spec, sizeof emu.spec, "%s", spec);
  if (strlen(spec) >= 256) return -1;
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s", spec);
  for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '='), *end = NULL;
    if (!eq || !eq[1]) return -1;
    *eq++ = 0;
    errno = 0;
    if (!strcmp(tok, "seed")) emu.seed = strtoull(eq, &end, 10);
    else if (!strcmp(tok, "offset")) emu.s_off = strtod(eq, &end);
    else if (!strcmp(tok, "drift")) emu.s_drift = strtod(eq, &end);
    else if (!strcmp(tok, "wander")) emu.s_wander = strtod(eq, &end);
    else if (!strcmp(tok, "period")) emu.s_period = strtod(eq, &end);
    else if (!strcmp(tok, "rpn")) emu.rpn = (int)strtol(eq, &end, 10);
    else return -1;
    if (*end || errno) return -1;
  }
  return emu.rpn < 1 ? -1 : 0;
}

static void setup_emulate(double hz, int64_t base) {
  int group = clc_world_rank / emu.rpn;
  emu.base = base;
  if (group == 0) { emu.on = 0; return; }
  uint64_t x = emu.seed * 0x100000001B3ull + (uint64_t)group;
  for (int i = 0; i < 4; i++) splitmix(&x);
  emu.on = 1;
  emu.off = (2 * unif(&x) - 1) * emu.s_off * hz;
  emu.drift = (2 * unif(&x) - 1) * emu.s_drift;
  for (int k = 0; k < 3; k++) {
    double period = emu.s_period * (0.5 + 1.5 * unif(&x)) * (k + 1);
    emu.amp[k] = emu.s_wander * (0.3 + 0.7 * unif(&x)) / (k + 1) * hz;
    emu.w[k] = 2 * M_PI / (period * hz);
    emu.phi[k] = 2 * M_PI * unif(&x);
  }
}

/* The local (possibly emulated) clock, as offset measurements must see it. */
static inline int64_t local_now(void) { return emu_time(clc_now()); }

/* --------------------------------------------------------------- emitting */

static inline void emit(int kind, int64_t t, const unsigned char *body, size_t n) {
  if (have_truth) put_record(&st_truth, kind, t, body, n);
  put_record(&st_main, kind, emu_time(t), body, n);
  /* both streams hold the event before either says so */
  if (have_truth) commit(&st_truth);
  commit(&st_main);
}

/* emit_attr writes an attachment (an OTF2 attribute list with one uint64
 * attribute) bound to the event just written. put_record left room for it
 * in the same block: records are at most MAX_RECORD/2 bytes. */
static unsigned char *put_otf2_compressed(unsigned char *p, uint64_t v) {
  if (v == 0) { *p++ = 0; return p; }
  if (v == UINT64_MAX) { *p++ = 0xff; return p; }
  int nb = 0;
  for (uint64_t x = v; x; x >>= 8) nb++;
  *p++ = (unsigned char)nb;
  for (int i = 0; i < nb; i++) *p++ = (unsigned char)(v >> (8 * i));
  return p;
}

static void emit_attr(int attr, uint64_t v) {
  unsigned char b[32], *p = b;
  p = put_otf2_compressed(p, 1);               /* one attribute */
  p = put_otf2_compressed(p, (uint64_t)attr);  /* its id */
  *p++ = 4;                                     /* OTF2_TYPE_UINT64 */
  p = put_otf2_compressed(p, v);
  size_t n = (size_t)(p - b);
  stream *ss[2] = {&st_main, &st_truth};
  for (int k = 0; k < 1 + have_truth; k++) {
    stream *s = ss[k];
    unsigned char *q = s->buf[s->cur] + s->len;
    *q++ = 255;
    *q++ = 1; /* format: OTF2 attribute list */
    q = put_uv(q, n);
    memcpy(q, b, n);
    q += n;
    s->len = (size_t)(q - s->buf[s->cur]);
  }
  if (have_truth) commit(&st_truth);
  commit(&st_main);
}

/* ------------------------------------------------- calls and poll runs */

static void end_run(void);

/* A run of unsuccessful calls of one test or probe function with nothing
 * else recorded in between: its first call is written as it happens, its
 * last is kept here until the run ends, and the calls between are only
 * counted (the last call's leave gets attribute clc::calls, the length of
 * the run). */
static struct {
  int active, region;
  uint64_t count;
  int64_t t0, t1;
  int nreq, cap;
  uint64_t *reqs;
} run;

static void write_call(int region, int64_t t0, int64_t t1, const uint64_t *reqs, int nreq, uint64_t calls) {
  unsigned char b[16];
  emit(K_ENTER, t0, b, (size_t)(put_uv(b, (uint64_t)region) - b));
  for (int i = 0; i < nreq; i++) emit(K_REQUEST_TEST, t1, b, (size_t)(put_uv(b, reqs[i]) - b));
  emit(K_LEAVE, t1, b, (size_t)(put_uv(b, (uint64_t)region) - b));
  if (calls > 2) emit_attr(ATTR_CALLS, calls);
}

static void end_run(void) {
  if (!run.active) return;
  run.active = 0;
  if (run.count >= 2) write_call(run.region, run.t0, run.t1, run.reqs, run.nreq, run.count);
}

/* prefix runs before every event of the current call: a poll run ends
 * and the call's enter is written. */
static inline void prefix(void) {
  if (run.active) end_run();
  if (clc_cur.enter_pending) {
    clc_cur.enter_pending = 0;
    unsigned char b[16];
    emit(K_ENTER, clc_cur.t0, b, (size_t)(put_uv(b, (uint64_t)clc_cur.region) - b));
  }
}

static inline void record(int kind, int64_t t, const unsigned char *body, size_t n) {
  if (clc_cur.mute) return;
  prefix();
  emit(kind, t, body, n);
}

void clc_region(int kind, int64_t t, int region) {
  unsigned char b[16];
  record(kind, t, b, (size_t)(put_uv(b, (uint64_t)region) - b));
}

void clc_msg(int kind, int64_t t, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req) {
  unsigned char b[64], *p = b;
  p = put_uv(p, peer);
  p = put_uv(p, comm);
  p = put_uv(p, tag);
  p = put_uv(p, bytes);
  if (kind == K_ISEND || kind == K_IRECV) p = put_uv(p, req);
  record(kind, t, b, (size_t)(p - b));
}

void clc_reqev(int kind, int64_t t, uint64_t req) {
  unsigned char b[16];
  record(kind, t, b, (size_t)(put_uv(b, req) - b));
}

void clc_collbegin(int64_t t) { record(K_COLL_BEGIN, t, NULL, 0); }

void clc_collend(int kind, int64_t t, int op, uint32_t comm, uint32_t root1, uint64_t sent, uint64_t recvd, uint64_t req) {
  unsigned char b[64], *p = b;
  *p++ = (unsigned char)op;
  p = put_uv(p, comm);
  p = put_uv(p, root1);
  p = put_uv(p, sent);
  p = put_uv(p, recvd);
  if (kind == K_NBCOLL_COMPLETE) p = put_uv(p, req);
  record(kind, t, b, (size_t)(p - b));
}

void clc_commev(int kind, int64_t t, uint32_t comm) {
  unsigned char b[16];
  record(kind, t, b, (size_t)(put_uv(b, comm) - b));
}

void clc_user_event(int kind, int64_t t, uint32_t region) {
  end_run();
  unsigned char b[16];
  emit(kind, t, b, (size_t)(put_uv(b, region) - b));
}

void clc_add_bytes(uint64_t b) {
  clc_cur.has_bytes = 1;
  clc_cur.bytes += b;
}

static void grow_ids(uint64_t **ids, int *cap, int n) {
  if (n <= *cap) return;
  int c = *cap ? *cap : 16;
  while (c < n) c *= 2;
  uint64_t *p = realloc(*ids, sizeof **ids * (size_t)c);
  if (!p) return;
  *ids = p;
  *cap = c;
}

void clc_poll_fail(const MPI_Request *reqs, int n) {
  clc_cur.poll_failed = 1;
  if (clc_cur.mute || !clc_group_on(G_XREQTEST)) return;
  for (int i = 0; i < n; i++) {
    clc_req *q = clc_req_find(reqs[i]);
    if (!q || !q->active || !clc_group_on(q->group)) continue;
    grow_ids(&clc_cur.tested, &clc_cur.tested_cap, clc_cur.ntested + 1);
    if (clc_cur.ntested < clc_cur.tested_cap) clc_cur.tested[clc_cur.ntested++] = q->id;
  }
}

/* poll_leave ends an unsuccessful test or probe: it starts or continues a
 * run. */
static void poll_leave(int64_t t1) {
  if (collapse_polls && run.active && run.region == clc_cur.region) {
    run.count++;
    run.t0 = clc_cur.t0;
    run.t1 = t1;
    grow_ids(&run.reqs, &run.cap, clc_cur.ntested);
    run.nreq = clc_cur.ntested < run.cap ? clc_cur.ntested : run.cap;
    if (run.nreq) memcpy(run.reqs, clc_cur.tested, sizeof *run.reqs * (size_t)run.nreq);
    return;
  }
  end_run();
  clc_cur.enter_pending = 0;
  write_call(clc_cur.region, clc_cur.t0, t1, clc_cur.tested, clc_cur.ntested, 0);
  if (collapse_polls) {
    run.active = 1;
    run.region = clc_cur.region;
    run.count = 1;
    run.nreq = 0;
  }
}

void clc_leave(int64_t t1) {
  if (clc_cur.mute && clc_cur.enter_pending) {
    /* a filtered-out call that recorded nothing */
  } else if (clc_cur.poll_failed && clc_cur.enter_pending) {
    poll_leave(t1);
  } else {
    prefix();
    unsigned char b[16];
    emit(K_LEAVE, t1, b, (size_t)(put_uv(b, (uint64_t)clc_cur.region) - b));
    if (clc_cur.has_bytes) emit_attr(ATTR_BYTES, clc_cur.bytes);
  }
  clc_cur.bytes = 0;
  clc_t = 1;
}

uint64_t clc_tsize(MPI_Datatype d) {
  int s = 0;
  if (d == MPI_DATATYPE_NULL || PMPI_Type_size(d, &s) != MPI_SUCCESS || s < 0) return 0;
  return (uint64_t)s;
}

uint64_t clc_status_bytes(const MPI_Status *st, MPI_Datatype dt) {
  int cnt = 0;
  if (PMPI_Get_count(st, dt, &cnt) != MPI_SUCCESS || cnt == MPI_UNDEFINED || cnt <= 0) return 0;
  return (uint64_t)cnt * clc_tsize(dt);
}

/* -------------------------------------------------------------- metadata */

/* Every rank keeps its definitions as lines of text, mirrored into
 * DIR/.clc-meta/<rank>.txt as they arise (so a killed run can still get a
 * manifest, built by clc-trace) and sent to rank 0 at MPI_Finalize. */
static char *meta;
static size_t meta_len, meta_cap;
static int meta_fd = -1;
static char dir[4096];
static char otf2_out[4096]; /* the OTF2 archive's directory of an OTF2 run */

static void metaf(const char *fmt, ...) {
  char line[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  if (meta_len + (size_t)n + 1 > meta_cap) {
    size_t c = meta_cap ? 2 * meta_cap : 4096;
    while (c < meta_len + (size_t)n + 1) c *= 2;
    char *m = realloc(meta, c);
    if (!m) return;
    meta = m;
    meta_cap = c;
  }
  memcpy(meta + meta_len, line, (size_t)n);
  meta_len += (size_t)n;
  meta[meta_len] = 0;
  if (meta_fd >= 0) {
    ssize_t w = write(meta_fd, line, (size_t)n);
    (void)w;
  }
}

void clc_define_user_region(uint32_t id, const char *name) {
  char line[4096];
  size_t n = 0;
  for (; name[n] && n + 1 < sizeof line; n++) line[n] = name[n] == '\n' || name[n] == '\r' ? ' ' : name[n];
  line[n] = 0;
  metaf("uregion %u %s\n", id, line);
}

/* Long member lists are written in pieces of at most this many ranks. */
#define MEMBERS_PER_LINE 512

/* ---------------------------------------------------------- communicators */

static clc_comm *comms;
static size_t ncomm_cap, ncomm;
static clc_comm *last_comm;
static uint32_t own_counter; /* communicators this rank defined (as rank 0) */
static MPI_Group world_group = MPI_GROUP_NULL;
static MPI_Comm sync_comm = MPI_COMM_NULL;

static inline uint64_t comm_key(MPI_Comm c) {
  uint64_t k = 0;
  memcpy(&k, &c, sizeof c < sizeof k ? sizeof c : sizeof k);
  return k ^ 0x5bd1e995u; /* never 0 for a real handle */
}
static inline size_t hslot(uint64_t k, size_t cap) {
  k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33;
  return (size_t)k & (cap - 1);
}

static clc_comm *comm_slot(uint64_t k) {
  size_t i = hslot(k, ncomm_cap);
  while (comms[i].key && comms[i].key != k) i = (i + 1) & (ncomm_cap - 1);
  return &comms[i];
}

static void comm_grow(void) {
  size_t oc = ncomm_cap;
  clc_comm *old = comms;
  ncomm_cap = oc ? 2 * oc : 64;
  comms = calloc(ncomm_cap, sizeof *comms);
  for (size_t i = 0; i < oc; i++)
    if (old[i].key) *comm_slot(old[i].key) = old[i];
  free(old);
  last_comm = NULL;
}

static void comm_put(MPI_Comm c, uint32_t pos, int size, int rank) {
  if (2 * (ncomm + 1) > ncomm_cap) comm_grow();
  uint64_t k = comm_key(c);
  clc_comm *s = comm_slot(k);
  if (!s->key) {
    ncomm++;
  } else if (s->nbrs) { /* a handle MPI reused */
    free(s->nbrs->in);
    free(s->nbrs->out);
    free(s->nbrs);
  }
  s->nbrs = NULL;
  s->key = k; s->pos = pos; s->size = size; s->rank = rank;
  last_comm = NULL;
}

/* define_comm writes the definition of a communicator this rank owns. */
static void define_comm(uint32_t pos, const char *name, MPI_Comm c, int size) {
  int *in = malloc(sizeof(int) * (size_t)size), *out = malloc(sizeof(int) * (size_t)size);
  MPI_Group g;
  PMPI_Comm_group(c, &g);
  for (int i = 0; i < size; i++) in[i] = i;
  PMPI_Group_translate_ranks(g, size, in, world_group, out);
  PMPI_Group_free(&g);
  for (int i = 0; i < size; i += MEMBERS_PER_LINE) {
    char line[MEMBERS_PER_LINE * 12 + 64];
    int n = snprintf(line, sizeof line, "comm %u %d %s", pos, i, name);
    for (int j = i; j < size && j < i + MEMBERS_PER_LINE; j++) n += snprintf(line + n, sizeof line - (size_t)n, " %d", out[j]);
    metaf("%s\n", line);
  }
  free(in);
  free(out);
}

static uint32_t comm_pos(int owner, uint32_t counter) {
  return 1u + (counter - 1u) * (uint32_t)clc_world_size + (uint32_t)owner;
}

clc_comm *clc_comm_lookup(MPI_Comm c) {
  uint64_t k = comm_key(c);
  if (last_comm && last_comm->key == k) return last_comm;
  clc_comm *s = comm_slot(k);
  if (s->key) return last_comm = s;
  if (c == MPI_COMM_SELF) {
    /* MPI_COMM_SELF is defined on first use by its only member. */
    uint32_t pos = comm_pos(clc_world_rank, ++own_counter);
    define_comm(pos, "MPI_COMM_SELF", c, 1);
    comm_put(c, pos, 1, 0);
    return clc_comm_lookup(c);
  }
  return NULL;
}

clc_comm *clc_comm_find(MPI_Comm c) {
  clc_comm *k = clc_comm_lookup(c);
  if (!k) clc_unknown_comm++;
  return k;
}

void clc_comm_register(MPI_Comm c, const char *how, int64_t t) {
  if (c == MPI_COMM_NULL) return;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  if (inter) return; /* inter-communicators are not supported */
  int size, rank;
  PMPI_Comm_size(c, &size);
  PMPI_Comm_rank(c, &rank);
  unsigned id[2] = {0, 0};
  if (rank == 0) { id[0] = (unsigned)clc_world_rank; id[1] = ++own_counter; }
  PMPI_Bcast(id, 2, MPI_UNSIGNED, 0, c);
  uint32_t pos = comm_pos((int)id[0], id[1]);
  if (rank == 0) define_comm(pos, how, c, size);
  comm_put(c, pos, size, rank);
  clc_commev(K_COMM_CREATE, t, pos);
}

void clc_comm_forget(MPI_Comm c, int64_t t) {
  uint64_t k = comm_key(c);
  clc_comm *s = comm_slot(k);
  if (!s->key) return;
  clc_commev(K_COMM_DESTROY, t, s->pos);
  if (s->nbrs) {
    free(s->nbrs->in);
    free(s->nbrs->out);
    free(s->nbrs);
    s->nbrs = NULL;
  }
  /* backward-shift deletion for linear probing */
  size_t i = (size_t)(s - comms);
  comms[i].key = 0;
  ncomm--;
  for (size_t j = (i + 1) & (ncomm_cap - 1); comms[j].key; j = (j + 1) & (ncomm_cap - 1)) {
    clc_comm e = comms[j];
    comms[j].key = 0;
    *comm_slot(e.key) = e;
  }
  last_comm = NULL;
}

/* make_nbrs finds the neighbours of a process topology in the order of
 * the neighbourhood collectives' buffers (MPI-3.1, 7.6): per dimension of
 * a Cartesian topology the neighbour in the negative, then in the
 * positive direction; a graph's neighbours; a distributed graph's sources
 * and destinations. */
static clc_nbrs *make_nbrs(MPI_Comm c) {
  clc_nbrs *nb = calloc(1, sizeof *nb);
  if (!nb) return NULL;
  int topo = MPI_UNDEFINED;
  PMPI_Topo_test(c, &topo);
  if (topo == MPI_CART) {
    int nd = 0;
    PMPI_Cartdim_get(c, &nd);
    nb->nin = nb->nout = 2 * nd;
    nb->in = malloc(sizeof(int) * (size_t)(2 * nd + 1));
    nb->out = malloc(sizeof(int) * (size_t)(2 * nd + 1));
    for (int d = 0; d < nd; d++) {
      int lo = MPI_PROC_NULL, hi = MPI_PROC_NULL;
      PMPI_Cart_shift(c, d, 1, &lo, &hi);
      nb->in[2 * d] = nb->out[2 * d] = lo;
      nb->in[2 * d + 1] = nb->out[2 * d + 1] = hi;
    }
  } else if (topo == MPI_GRAPH) {
    int me = 0, n = 0;
    PMPI_Comm_rank(c, &me);
    PMPI_Graph_neighbors_count(c, me, &n);
    nb->nin = nb->nout = n;
    nb->in = malloc(sizeof(int) * (size_t)(n + 1));
    nb->out = malloc(sizeof(int) * (size_t)(n + 1));
    PMPI_Graph_neighbors(c, me, n, nb->in);
    if (n > 0) memcpy(nb->out, nb->in, sizeof(int) * (size_t)n);
  } else if (topo == MPI_DIST_GRAPH) {
    int in = 0, out = 0, w = 0;
    PMPI_Dist_graph_neighbors_count(c, &in, &out, &w);
    nb->nin = in;
    nb->nout = out;
    nb->in = malloc(sizeof(int) * (size_t)(in + 1));
    nb->out = malloc(sizeof(int) * (size_t)(out + 1));
    int *wi = malloc(sizeof(int) * (size_t)(in + 1)), *wo = malloc(sizeof(int) * (size_t)(out + 1));
    PMPI_Dist_graph_neighbors(c, in, nb->in, wi, out, nb->out, wo);
    free(wi);
    free(wo);
  }
  return nb;
}

const clc_nbrs *clc_comm_nbrs(MPI_Comm c) {
  clc_comm *k = clc_comm_lookup(c);
  if (!k) return NULL;
  if (!k->nbrs) k->nbrs = make_nbrs(c);
  return k->nbrs;
}

int clc_comm_n(MPI_Comm c) {
  clc_comm *k = clc_comm_lookup(c);
  if (k) return k->size;
  int n = 0;
  PMPI_Comm_size(c, &n);
  return n;
}

int clc_nbr_in(MPI_Comm c) {
  const clc_nbrs *nb = clc_comm_nbrs(c);
  return nb ? nb->nin : 0;
}

int clc_nbr_out(MPI_Comm c) {
  const clc_nbrs *nb = clc_comm_nbrs(c);
  return nb ? nb->nout : 0;
}

/* --------------------------------------------------------------- requests */

static clc_req *reqs;
static size_t nreq_cap, nreq;
static uint64_t req_counter;

uint64_t clc_next_req_id(void) { return ++req_counter; }

static inline uint64_t req_key(MPI_Request r) {
  uint64_t k = 0;
  memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
  return k ^ 0x2545F491u;
}
static clc_req *req_slot(uint64_t k) {
  size_t i = hslot(k, nreq_cap);
  while (reqs[i].key && reqs[i].key != k) i = (i + 1) & (nreq_cap - 1);
  return &reqs[i];
}

clc_req *clc_req_add(MPI_Request r, int kind, uint32_t comm) {
  if (r == MPI_REQUEST_NULL) return NULL;
  if (2 * (nreq + 1) > nreq_cap) {
    size_t oc = nreq_cap;
    clc_req *old = reqs;
    nreq_cap = oc ? 2 * oc : 256;
    reqs = calloc(nreq_cap, sizeof *reqs);
    for (size_t i = 0; i < oc; i++)
      if (old[i].key) *req_slot(old[i].key) = old[i];
    free(old);
  }
  uint64_t k = req_key(r);
  clc_req *q = req_slot(k);
  if (q->key && q->active && !q->persistent) {
    /* MPI returned the handle of an outstanding request again: both MPIs
     * hand out one shared, already completed request for operations that
     * complete at once (non-blocking collectives on one member). Queue
     * behind it: completions of the handle take them in call order. */
    clc_req *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    clc_req **p = &q->more;
    while (*p) p = &(*p)->more;
    *p = x;
    q = x;
  } else if (!q->key) {
    nreq++;
  } else { /* a handle MPI reused */
    free(q->recv);
    while (q->more) {
      clc_req *x = q->more;
      q->more = x->more;
      free(x->recv);
      free(x);
    }
  }
  memset(q, 0, sizeof *q);
  q->key = k;
  q->kind = kind;
  q->comm = comm;
  q->active = 1;
  q->group = clc_region_group[clc_cur.region];
  q->id = clc_next_req_id();
  return q;
}

clc_req *clc_req_find(MPI_Request r) {
  if (r == MPI_REQUEST_NULL || nreq == 0) return NULL;
  clc_req *q = req_slot(req_key(r));
  return q->key ? q : NULL;
}

void clc_req_del(clc_req *q) {
  free(q->recv);
  q->recv = NULL;
  if (q->more) { /* the next request of the same handle moves up */
    clc_req *x = q->more;
    *q = *x;
    free(x);
    return;
  }
  size_t i = (size_t)(q - reqs);
  reqs[i].key = 0;
  nreq--;
  for (size_t j = (i + 1) & (nreq_cap - 1); reqs[j].key; j = (j + 1) & (nreq_cap - 1)) {
    clc_req e = reqs[j];
    reqs[j].key = 0;
    *req_slot(e.key) = e;
  }
}

/* complete_nbr records the logical receives of a neighbourhood
 * collective's request. */
static void complete_nbr(clc_req *q, int64_t t) {
  for (int i = 0; i < q->nrecv; i++)
    clc_msg(K_IRECV, t, q->recv[i].src, q->comm, CLC_NBR_TAG, q->recv[i].bytes, q->recv[i].id);
  free(q->recv);
  q->recv = NULL;
  q->nrecv = 0;
}

/* record_completion records the completion of the active request q with
 * status st at t. It is recorded when the call that started the request
 * was, whatever the group of the completing call. */
static inline __attribute__((always_inline)) void record_completion(clc_req *q, MPI_Status *st, int64_t t) {
  int mute = clc_cur.mute;
  clc_cur.mute = !clc_group_on(q->group);
  int cancelled = 0;
  if (st) PMPI_Test_cancelled(st, &cancelled);
  if (cancelled) {
    clc_reqev(K_REQUEST_CANCELLED, t, q->id);
  } else if (q->kind == RQ_SEND) {
    clc_reqev(K_ISEND_COMPLETE, t, q->id);
  } else if (q->kind == RQ_RECV) {
    if (st && st->MPI_SOURCE >= 0) {
      clc_msg(K_IRECV, t, (uint32_t)st->MPI_SOURCE, q->comm, (uint32_t)st->MPI_TAG, clc_status_bytes(st, q->dtype), q->id);
    } else {
      /* a receive from MPI_PROC_NULL: nothing arrived */
      clc_reqev(K_REQUEST_CANCELLED, t, q->id);
    }
  } else if (q->kind == RQ_NBCOLL) {
    clc_collend(K_NBCOLL_COMPLETE, t, q->op, q->comm, (uint32_t)q->root1, q->bytes, q->rbytes, q->id);
  } else if (q->kind == RQ_NBR) {
    complete_nbr(q, t);
  }
  clc_cur.mute = mute;
}

void clc_complete(MPI_Request r, MPI_Status *st, int64_t t) {
  clc_req *q = clc_req_find(r);
  if (!q) return;
  /* an inactive request's completion was recorded before (by
   * MPI_Request_get_status, or a persistent request's last activation) or
   * it was never started: nothing to record */
  if (q->active) record_completion(q, st, t);
  if (q->persistent) q->active = 0;
  else clc_req_del(q);
}

void clc_complete_keep(MPI_Request r, MPI_Status *st, int64_t t) {
  clc_req *q = clc_req_find(r);
  if (!q || !q->active) return;
  record_completion(q, st, t);
  q->active = 0; /* kept, inactive: the Wait, Test or free that follows records nothing */
}

/* ---------------------------------------------------------------- scratch */

static MPI_Request *scr_reqs; static int scr_reqs_n;
static MPI_Status *scr_st; static int scr_st_n;

const MPI_Request *clc_copy_reqs(const MPI_Request *r, int n) {
  if (n > scr_reqs_n) { free(scr_reqs); scr_reqs_n = n + 64; scr_reqs = malloc(sizeof *scr_reqs * (size_t)scr_reqs_n); }
  if (n > 0) memcpy(scr_reqs, r, sizeof *r * (size_t)n);
  return scr_reqs;
}
MPI_Status *clc_scratch_status(int n) {
  if (n > scr_st_n) { free(scr_st); scr_st_n = n + 64; scr_st = malloc(sizeof *scr_st * (size_t)scr_st_n); }
  return scr_st;
}

/* ------------------------------------------------------ offset measurement */

enum { TAG_GO = 7001, TAG_PING, TAG_PONG, TAG_REF, TAG_DONE, TAG_REL };
static int sync_tree;
static int sync_min = 20, sync_patience = 10, sync_max = 400;

/* sleep_recv waits for a message by polling with short sleeps, so that
 * waiting ranks leave the cores to the pair that is measuring. */
static void sleep_recv(void *buf, int n, MPI_Datatype dt, int src, int tag) {
  int flag = 0;
  struct timespec ts = {0, 20000};
  for (;;) {
    PMPI_Iprobe(src, tag, sync_comm, &flag, MPI_STATUS_IGNORE);
    if (flag) break;
    nanosleep(&ts, NULL);
  }
  PMPI_Recv(buf, n, dt, src, tag, sync_comm, MPI_STATUS_IGNORE);
}

/* The best round-trip time a server has seen so far (ticks, 0 = none):
 * clients keep measuring while theirs is much worse ("adaptively more
 * rounds while the RTT is poor"). */
static long long best_seen;

/* serve answers the pings of one client until it says it is done. */
static void serve(int client) {
  long long go = best_seen;
  PMPI_Send(&go, 1, MPI_LONG_LONG, client, TAG_GO, sync_comm);
  for (;;) {
    long long ping[2];
    PMPI_Recv(ping, 2, MPI_LONG_LONG, client, TAG_PING, sync_comm, MPI_STATUS_IGNORE);
    if (ping[0]) {
      if (ping[1] > 0 && (best_seen == 0 || ping[1] < best_seen)) best_seen = ping[1];
      break;
    }
    long long t = (long long)local_now();
    PMPI_Send(&t, 1, MPI_LONG_LONG, client, TAG_PONG, sync_comm);
  }
}

/* measure runs ping-pong rounds with server and returns the round with the
 * smallest round-trip time: at local time *when, server - local = *off.
 * It stops after sync_min rounds once the best RTT has not improved for
 * sync_patience rounds and is within twice the best the server has seen,
 * or after sync_max rounds. */
static void measure(int server, int64_t *when, int64_t *off, int64_t *rtt) {
  long long ref;
  sleep_recv(&ref, 1, MPI_LONG_LONG, server, TAG_GO);
  int64_t best = INT64_MAX;
  int since = 0;
  for (int round = 0; round < sync_max; round++) {
    long long ping[2] = {0, 0}, ts;
    int64_t t1 = local_now();
    PMPI_Send(ping, 2, MPI_LONG_LONG, server, TAG_PING, sync_comm);
    PMPI_Recv(&ts, 1, MPI_LONG_LONG, server, TAG_PONG, sync_comm, MPI_STATUS_IGNORE);
    int64_t t2 = local_now();
    int64_t r = t2 - t1;
    if (r < best) {
      best = r;
      *when = t1 + r / 2;
      *off = (int64_t)ts - *when;
      *rtt = r;
      since = 0;
    } else {
      since++;
    }
    if (round + 1 >= sync_min && since >= sync_patience && (ref <= 0 || best <= 2 * ref)) break;
  }
  long long done[2] = {1, best};
  PMPI_Send(done, 2, MPI_LONG_LONG, server, TAG_PING, sync_comm);
  /* in the tree scheme this rank serves others next: its own RTT is their reference */
  if (best_seen == 0 || best < best_seen) best_seen = best;
}

/* release holds every rank until all measurements are done, sleep-polling. */
static void release(void) {
  long long x = 1;
  if (clc_world_rank == 0) {
    for (int r = 1; r < clc_world_size; r++) sleep_recv(&x, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_DONE);
    for (int r = 1; r < clc_world_size; r++) PMPI_Send(&x, 1, MPI_LONG_LONG, r, TAG_REL, sync_comm);
  } else {
    PMPI_Send(&x, 1, MPI_LONG_LONG, 0, TAG_DONE, sync_comm);
    sleep_recv(&x, 1, MPI_LONG_LONG, 0, TAG_REL);
  }
}

static int64_t sync_ticks_total;

static void sync_offsets(void) {
  int64_t t0 = clc_now();
  int me = clc_world_rank, p = clc_world_size;
  int64_t when = local_now(), off = 0, rtt = 0;
  if (p > 1) {
    if (!sync_tree) {
      if (me == 0) for (int r = 1; r < p; r++) serve(r);
      else measure(0, &when, &off, &rtt);
    } else {
      int maxpow = 1;
      while (maxpow < p) maxpow *= 2;
      for (int s = maxpow / 2; s >= 1; s /= 2) {
        if (me % (2 * s) == 0 && me + s < p) {
          serve(me + s);
          long long ref[2] = {off, rtt};
          PMPI_Send(ref, 2, MPI_LONG_LONG, me + s, TAG_REF, sync_comm);
        } else if (me % (2 * s) == s) {
          int64_t o, r;
          measure(me - s, &when, &o, &r);
          long long ref[2];
          PMPI_Recv(ref, 2, MPI_LONG_LONG, me - s, TAG_REF, sync_comm, MPI_STATUS_IGNORE);
          off = o + ref[0];
          rtt = r + ref[1];
        }
      }
    }
    release();
  }
  if (me == 0) { when = local_now(); off = 0; rtt = 0; }
  metaf("offset %lld %lld %lld\n", (long long)when, (long long)off, (long long)rtt);
  sync_ticks_total += clc_now() - t0;
}

/* -------------------------------------------------------------- life cycle */

static struct timespec cal_ts0;
static int64_t cal_tsc0;
static double hz_init;
static int invariant_tsc = -1;
static int traced;

static double ts_ns(const struct timespec *a) { return (double)a->tv_sec * 1e9 + (double)a->tv_nsec; }

/* tsc_flags returns which of constant_tsc (the TSC ticks at one rate
 * whatever the CPU's frequency) and nonstop_tsc (it does not stop in deep
 * sleep states) /proc/cpuinfo reports: bit 0 and bit 1; -1 when it cannot
 * tell. Both make the TSC invariant. (rdtscp, which the library executes,
 * needs no check: without it the first MPI call would fault.) */
static int tsc_flags(void) {
#if defined(__x86_64__) || defined(__i386__)
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return -1;
  char line[8192];
  int got = -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5)) continue;
    got = (strstr(line, " constant_tsc") != NULL) | (strstr(line, " nonstop_tsc") != NULL) << 1;
    break;
  }
  fclose(f);
  return got;
#else
  return 0;
#endif
}

/* warn_tsc says which invariance the timer lacks (rank 0). */
static void warn_tsc(int flags) {
#if defined(__x86_64__) || defined(__i386__)
  if (flags < 0) {
    warnf("cannot read /proc/cpuinfo: whether the TSC ticks at a constant rate and never stops is unknown");
  } else if (flags != 3) {
    warnf("the CPU does not report %s%s%s: %s%s%s; the trace's times may be wrong",
          flags & 1 ? "" : "constant_tsc", flags == 0 ? " and " : "", flags & 2 ? "" : "nonstop_tsc",
          flags & 1 ? "" : "the TSC may tick faster or slower with the CPU's frequency", flags == 0 ? ", and " : "",
          flags & 2 ? "" : "the TSC may stop while a core sleeps in a deep C-state");
  }
#else
  (void)flags;
#endif
}

static int mkdirs(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
  return 0;
}

static void at_exit(void);
static void in_child(void);

/* new_dir creates prefix + the date (+ _2, _3, ... when it exists) and
 * returns its name in out ("" when it cannot). */
static void new_dir(const char *prefix, char *out, size_t n) {
  char date[64];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(date, sizeof date, "%Y%m%d_%H%M%S", &tm);
  out[0] = 0;
  for (int k = 1; k < 1000; k++) {
    char name[4096];
    if (k == 1) snprintf(name, sizeof name, "%s%s", prefix, date);
    else snprintf(name, sizeof name, "%s%s_%d", prefix, date, k);
    if (mkdir(name, 0755) == 0) {
      snprintf(out, n, "%s", name);
      return;
    }
    if (errno != EEXIST) {
      warnf("cannot create the trace directory %s: %s", name, strerror(errno));
      return;
    }
  }
}

/* trace_dir settles the trace directory: CLC_TRACE_DIR, or a new one rank
 * 0 creates from CLC_TRACE_NEWDIR and tells the others (then also into the
 * file CLC_TRACE_DIR_NOTE, for this rank's clc-trace). */
static int trace_dir(void) {
  const char *d = getenv("CLC_TRACE_DIR"), *nd = getenv("CLC_TRACE_NEWDIR");
  const char *o = getenv("CLC_TRACE_OTF2_OUT");
  if (o) snprintf(otf2_out, sizeof otf2_out, "%s", o);
  if (nd && *nd) {
    char chosen[4096] = "";
    if (clc_world_rank == 0) new_dir(nd, chosen, sizeof chosen);
    PMPI_Bcast(chosen, (int)sizeof chosen, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!chosen[0]) return -1;
    const char *note = getenv("CLC_TRACE_DIR_NOTE");
    int fd = note && *note ? open(note, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
    if (fd >= 0) {
      ssize_t w = write(fd, chosen, strlen(chosen));
      (void)w;
      close(fd);
    }
    const char *sub = getenv("CLC_TRACE_NEWDIR_SUB");
    if (sub && *sub) {
      snprintf(dir, sizeof dir, "%s/%s", chosen, sub);
      snprintf(otf2_out, sizeof otf2_out, "%s", chosen);
    } else {
      snprintf(dir, sizeof dir, "%s", chosen);
    }
    return 0;
  }
  if (!d || !*d) {
    if (clc_world_rank == 0) warnf("CLC_TRACE_DIR is not set (the launcher did not pass the environment on?): not tracing");
    return -1;
  }
  snprintf(dir, sizeof dir, "%s", d);
  return 0;
}

/* env_valid checks the CLC_TRACE_* variables clc-trace sets. A malformed
 * value (set by hand, or left in the environment by something other than
 * clc-trace) is refused loudly: rank 0 says which and no rank traces,
 * rather than record silently less than asked (a garbage
 * CLC_TRACE_GROUPS once kept 8 of 462 events). Every rank takes the same
 * decision (an allreduce), so that none waits in a collective of the
 * tracing the others skip. */
static int env_valid(void) {
  static const struct { const char *name, *want; } vars[] = {
    {"CLC_TRACE_GROUPS", "a group mask (a whole number)"},
    {"CLC_TRACE_POLLS", "all or collapse"},
    {"CLC_TRACE_SYNC", "flat or tree"},
    {"CLC_TRACE_SYNC_ROUNDS", "MIN,PATIENCE,MAX with 1 <= MIN <= MAX, PATIENCE >= 1"},
    {"CLC_TRACE_BUFFER", "a buffer size in bytes from 4096 to 67108864"},
    {"CLC_TRACE_FLUSH", "EVENTS,SECONDS"},
    {"CLC_TRACE_EMULATE", "seed=,offset=,drift=,wander=,period=,rpn= with numbers"},
    {"CLC_TRACE_FILTER", "lines \"I|E|IM|EM pattern\""},
  };
  int bad = -1;
  for (int i = 0; bad < 0 && i < (int)(sizeof vars / sizeof vars[0]); i++) {
    const char *v = getenv(vars[i].name);
    if (!v) continue;
    char *end = NULL;
    int n = -1, ok = 0;
    errno = 0;
    switch (i) {
    case 0: strtoul(v, &end, 10); ok = *v >= '0' && *v <= '9' && !*end && !errno; break;
    case 1: ok = !strcmp(v, "all") || !strcmp(v, "collapse"); break;
    case 2: ok = !strcmp(v, "flat") || !strcmp(v, "tree"); break;
    case 3: {
      int a = 0, p = 0, c = 0;
      ok = sscanf(v, "%d,%d,%d%n", &a, &p, &c, &n) == 3 && n == (int)strlen(v) && a >= 1 && p >= 1 && c >= a;
      break;
    }
    case 4: {
      long long x = strtoll(v, &end, 10);
      ok = *v && !*end && !errno && x >= 4096 && x <= (64ll << 20);
      break;
    }
    case 5: {
      unsigned long e = 0;
      double sec = 0;
      ok = v[0] != '-' && sscanf(v, "%lu,%lf%n", &e, &sec, &n) == 2 && n == (int)strlen(v) && sec >= 0;
      break;
    }
    case 6: ok = parse_emulate(v) == 0; break;
    case 7: ok = clc_filter_valid(v); break;
    }
    if (!ok) bad = i;
  }
  int any = bad >= 0;
  PMPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any && clc_world_rank == 0) {
    if (bad >= 0)
      warnf("%s=\"%.200s\" is malformed (want %s): not tracing; clc-trace sets the CLC_TRACE_* variables itself", vars[bad].name,
            getenv(vars[bad].name), vars[bad].want);
    else
      warnf("a CLC_TRACE_* variable of another rank is malformed: not tracing");
  }
  return !any;
}

void clc_init(int64_t t_enter, int region) {
  PMPI_Comm_rank(MPI_COMM_WORLD, &clc_world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &clc_world_size);
  if (!env_valid()) return;
  if (trace_dir() != 0) return;
  clc_user_init();
  const char *gr = getenv("CLC_TRACE_GROUPS");
  if (gr && *gr) clc_groups = (unsigned)strtoul(gr, NULL, 10) | (1u << G_ENV);
  const char *po = getenv("CLC_TRACE_POLLS");
  collapse_polls = !(po && !strcmp(po, "all"));
  const char *sy = getenv("CLC_TRACE_SYNC");
  sync_tree = sy && !strcmp(sy, "tree");
  const char *rounds = getenv("CLC_TRACE_SYNC_ROUNDS");
  if (rounds && *rounds) sscanf(rounds, "%d,%d,%d", &sync_min, &sync_patience, &sync_max);
  int tf = tsc_flags();
  invariant_tsc = tf < 0 ? -1 : tf == 3;
  if (clc_world_rank == 0) warn_tsc(tf);
  size_t buf_cap = 1u << 20;
  const char *b = getenv("CLC_TRACE_BUFFER");
  if (b && *b) buf_cap = (size_t)atoll(b);
  unsigned long flush_events = 65536;
  double flush_seconds = 1;
  const char *fl = getenv("CLC_TRACE_FLUSH");
  if (fl && *fl) sscanf(fl, "%lu,%lf", &flush_events, &flush_seconds);
  streams_config(buf_cap, flush_events > UINT32_MAX ? UINT32_MAX : (uint32_t)flush_events, flush_seconds);

  /* a first frequency estimate, needed by the clock emulation and by a
   * manifest written after an aborted run */
  clock_gettime(CLOCK_MONOTONIC_RAW, &cal_ts0);
  cal_tsc0 = clc_now();
  struct timespec slp = {0, 10000000}, ts1;
  nanosleep(&slp, NULL);
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts1);
  hz_init = (double)(clc_now() - cal_tsc0) * 1e9 / (ts_ns(&ts1) - ts_ns(&cal_ts0));

  const char *e = getenv("CLC_TRACE_EMULATE");
  if (e && *e) {
    parse_emulate(e);
    /* One base time for all ranks (rank 0's MPI_Init entry), so that ranks
     * of one emulated node share exactly one clock. */
    long long base = (long long)t_enter;
    PMPI_Bcast(&base, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    setup_emulate(hz_init, (int64_t)base);
    have_truth = 1;
  }

  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  for (char *p = host; *p; p++) if (*p <= ' ' || *p == '"' || *p == '\\') *p = '_';
  char path[4200], tpath[4200], tail[4200];
  snprintf(path, sizeof path, "%s/events", dir);
  int bad = mkdirs(path);
  snprintf(path, sizeof path, "%s/.clc-meta", dir);
  bad |= mkdirs(path);
  if (have_truth) {
    snprintf(path, sizeof path, "%s/truth/events", dir);
    bad |= mkdirs(path);
  }
  snprintf(path, sizeof path, "%s/.clc-meta/%d.txt", dir, clc_world_rank);
  meta_fd = bad ? -1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  snprintf(path, sizeof path, "%s/events/%d.clce", dir, clc_world_rank);
  snprintf(tpath, sizeof tpath, "%s/truth/events/%d.clce", dir, clc_world_rank);
  snprintf(tail, sizeof tail, "%s/.clc-meta/%d.tail", dir, clc_world_rank);
  const char *warning = NULL;
  if (meta_fd < 0 || streams_open(path, have_truth ? tpath : NULL, tail, clc_world_rank, host, &warning) != 0) {
    warnf("cannot write the trace into %s: %s; not tracing", dir, strerror(errno));
    have_truth = 0;
    return;
  }
  if (warning) warnf("%s", warning);

  /* With emulated clocks, each group of ranks sharing an emulated clock is
   * a node of its own: the node is the clock domain the correction needs
   * (pre-synchronisation per node, the reference node's trust). */
  if (have_truth) {
    size_t hl = strlen(host);
    snprintf(host + hl, sizeof host - hl, "/clock%d", clc_world_rank / emu.rpn);
  }
  metaf("clc-meta 1\nrank %d %d\nhost %s\nresolution %.0f\ninvariant_tsc %d\nsync %s\nemulate %s\n",
        clc_world_rank, clc_world_size, host, hz_init, invariant_tsc, sync_tree ? "tree" : "flat",
        have_truth ? emu.spec : "-");
  if (clc_world_rank == 0)
    for (int r = 0; r < R_COUNT; r++) metaf("region %d %s\n", r, region_names[r]);

  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  comm_put(MPI_COMM_WORLD, 0, clc_world_size, clc_world_rank);
  if (clc_world_rank == 0) define_comm(0, "MPI_COMM_WORLD", MPI_COMM_WORLD, clc_world_size);
  PMPI_Comm_dup(MPI_COMM_WORLD, &sync_comm);

  traced = 1;
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(at_exit);
    pthread_atfork(NULL, NULL, in_child);
  }
  clc_signals_install();
  clc_region(K_ENTER, t_enter, region);
  sync_offsets();
  clc_region(K_LEAVE, clc_now(), region);
  clc_t = 1;
}

/* ------------------------------------------------------------ the manifest */

typedef struct rankinfo {
  char host[256];
  long long events, truth_events;
  int node;
  char *offsets; /* JSON fragment */
} rankinfo;

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

/* write_manifest parses the gathered metadata texts of all ranks and writes
 * clc.json into base (DIR or DIR/truth). */
static int write_manifest(const char *base, char **texts, int p, double hz, int truth, int complete) {
  rankinfo *ri = calloc((size_t)p, sizeof *ri);
  uint32_t ncomms = 1;
  /* user regions: "uregion ID NAME" of every rank */
  uint32_t nreg = R_COUNT;
  char **unames = NULL;
  /* pass 1: sizes */
  for (int r = 0; r < p; r++) {
    snprintf(ri[r].host, sizeof ri[r].host, "unknown");
    ri[r].events = ri[r].truth_events = -1;
    char *t = strdup(texts[r] ? texts[r] : "");
    size_t olen = 0, ocap = 256;
    ri[r].offsets = calloc(ocap, 1);
    for (char *save = NULL, *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
      if (!strncmp(l, "host ", 5)) snprintf(ri[r].host, sizeof ri[r].host, "%s", l + 5);
      else if (!strncmp(l, "events ", 7)) ri[r].events = atoll(l + 7);
      else if (!strncmp(l, "truth_events ", 13)) ri[r].truth_events = atoll(l + 13);
      else if (!strncmp(l, "uregion ", 8)) {
        char *q;
        unsigned long id = strtoul(l + 8, &q, 10);
        if (*q == ' ' && id >= R_COUNT && id < (1ul << 31)) {
          if (id + 1 > nreg) {
            char **u = realloc(unames, sizeof *unames * (id + 1 - R_COUNT));
            if (!u) continue;
            memset(u + (nreg - R_COUNT), 0, sizeof *u * (id + 1 - nreg));
            unames = u;
            nreg = (uint32_t)id + 1;
          }
          free(unames[id - R_COUNT]);
          unames[id - R_COUNT] = strdup(q + 1);
        }
      }
      else if (!strncmp(l, "comm ", 5)) {
        unsigned pos = (unsigned)strtoul(l + 5, NULL, 10);
        if (pos + 1 > ncomms) ncomms = pos + 1;
      } else if (!strncmp(l, "offset ", 7) && !truth) {
        long long a, b, c;
        if (sscanf(l + 7, "%lld %lld %lld", &a, &b, &c) == 3) {
          char frag[128];
          int n = snprintf(frag, sizeof frag, "%s{\"time\": %lld, \"offset\": %lld, \"rtt\": %lld, \"stddev\": 0}", olen ? ", " : "", a, b, c);
          if (olen + (size_t)n + 1 > ocap) { ocap = 2 * (olen + (size_t)n + 1); ri[r].offsets = realloc(ri[r].offsets, ocap); }
          memcpy(ri[r].offsets + olen, frag, (size_t)n + 1);
          olen += (size_t)n;
        }
      }
    }
    free(t);
  }
  /* communicators: names and member lists */
  char **cname = calloc(ncomms, sizeof *cname);
  char **cmem = calloc(ncomms, sizeof *cmem);
  size_t *cmlen = calloc(ncomms, sizeof *cmlen), *cmcap = calloc(ncomms, sizeof *cmcap);
  for (int r = 0; r < p; r++) {
    if (!texts[r]) continue;
    char *t = strdup(texts[r]);
    for (char *save = NULL, *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
      if (strncmp(l, "comm ", 5)) continue;
      char *q = l + 5;
      unsigned pos = (unsigned)strtoul(q, &q, 10);
      strtol(q, &q, 10); /* first member index of this piece: pieces come in order */
      while (*q == ' ') q++;
      char *name = q;
      while (*q && *q != ' ') q++;
      if (*q) *q++ = 0;
      if (!cname[pos]) cname[pos] = strdup(name);
      size_t add = strlen(q) + 2;
      if (cmlen[pos] + add + 1 > cmcap[pos]) { cmcap[pos] = 2 * (cmlen[pos] + add + 1); cmem[pos] = realloc(cmem[pos], cmcap[pos]); }
      for (char *m = q; *m;) {
        while (*m == ' ') m++;
        if (!*m) break;
        char *e = m;
        while (*e && *e != ' ') e++;
        cmlen[pos] += (size_t)sprintf(cmem[pos] + cmlen[pos], "%s%.*s", cmlen[pos] ? ", " : "", (int)(e - m), m);
        m = e;
      }
    }
    free(t);
  }
  /* nodes */
  int nnodes = 0;
  char **nodes = calloc((size_t)p, sizeof *nodes);
  for (int r = 0; r < p; r++) {
    int k;
    for (k = 0; k < nnodes; k++) if (!strcmp(nodes[k], ri[r].host)) break;
    if (k == nnodes) nodes[nnodes++] = ri[r].host;
    ri[r].node = k;
  }

  char path[4200], tmp[4300];
  snprintf(path, sizeof path, "%s/clc.json", base);
  snprintf(tmp, sizeof tmp, "%s/.clc.json.tmp.%d", base, (int)getpid());
  FILE *f = fopen(tmp, "w");
  int rc = -1;
  if (f) {
    fprintf(f, "{\n  \"format\": \"clc-native\",\n  \"version\": 1,\n  \"complete\": %s,\n", complete ? "true" : "false");
    fprintf(f, "  \"timer_resolution\": %.0f,\n", hz);
    /* Ranks of a node share its TSC (with emulation: its emulated clock). */
    fprintf(f, "  \"properties\": {\"creator\": \"clc-trace 1\", \"timer\": \"tsc\", \"invariant_tsc\": \"%d\", \"sync\": \"%s\", \"clc.clock-domain\": \"node\"",
            invariant_tsc, sync_tree ? "tree" : "flat");
    const char *fl = getenv("CLC_TRACE_FLAVOUR");
    if (fl) { fprintf(f, ", \"mpi\": "); json_str(f, fl); }
    const char *cmd = getenv("CLC_TRACE_COMMAND");
    if (cmd) { fprintf(f, ", \"command\": "); json_str(f, cmd); }
    if (have_truth) { fprintf(f, ", \"emulate_clock\": "); json_str(f, emu.spec); }
    if (truth) fprintf(f, ", \"truth\": \"true times of ../events (real TSC, the reference clock)\"");
    fprintf(f, ", \"unknown_comm_events_rank0\": \"%llu\"", (unsigned long long)clc_unknown_comm);
    const char *un = getenv("CLC_TRACE_UNRECORDED");
    if (un && !strncmp(un, "list:", 5)) { fprintf(f, ", \"clc.unrecorded-mpi\": "); json_str(f, un + 5); }
    static const char *const gnames[] = CLC_GROUP_NAMES;
    fprintf(f, ", \"clc.mpi-groups\": \"");
    for (int g = 0, first = 1; g < (int)(sizeof gnames / sizeof gnames[0]); g++)
      if (g != G_SPAWN && clc_group_on(g)) { fprintf(f, "%s%s", first ? "" : ",", gnames[g]); first = 0; }
    fprintf(f, "\", \"clc.polls\": \"%s\"", collapse_polls ? "collapse" : "all");
    fprintf(f, ", \"clc.otf2-attributes\": ");
    json_str(f, CLC_OTF2_ATTRIBUTES);
    fprintf(f, "},\n  \"nodes\": [");
    for (int k = 0; k < nnodes; k++) { fprintf(f, "%s{\"name\": ", k ? ", " : ""); json_str(f, nodes[k]); fputc('}', f); }
    fprintf(f, "],\n  \"regions\": [");
    for (uint32_t r = 0; r < nreg; r++) {
      fprintf(f, "%s{\"name\": ", r ? ", " : "");
      json_str(f, r < R_COUNT ? region_names[r] : unames[r - R_COUNT] ? unames[r - R_COUNT] : "");
      fputc('}', f);
    }
    fprintf(f, "],\n  \"communicators\": [\n");
    for (uint32_t c = 0; c < ncomms; c++) {
      fprintf(f, "    {\"name\": ");
      json_str(f, cname[c] ? cname[c] : "");
      fprintf(f, ", \"members\": [%s]}%s\n", cmem[c] ? cmem[c] : "", c + 1 < ncomms ? "," : "");
    }
    fprintf(f, "  ],\n  \"locations\": [\n");
    for (int r = 0; r < p; r++) {
      long long ev = truth ? ri[r].truth_events : ri[r].events;
      char evs[64] = "";
      if (complete) snprintf(evs, sizeof evs, " \"events\": %lld,", ev < 0 ? 0 : ev);
      fprintf(f, "    {\"id\": %d, \"name\": \"rank %d\", \"node\": %d,%s \"offsets\": [%s]}%s\n",
              r, r, ri[r].node, evs, ri[r].offsets, r + 1 < p ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    /* a complete manifest replaces anything; an incomplete one never
     * replaces an existing manifest (link fails if it exists) */
    if (rc == 0 && (complete ? rename(tmp, path) : link(tmp, path)) != 0 && complete) rc = -1;
    if (rc != 0 || !complete) unlink(tmp);
  }
  for (uint32_t c = 0; c < ncomms; c++) { free(cname[c]); free(cmem[c]); }
  for (uint32_t r = R_COUNT; r < nreg; r++) free(unames[r - R_COUNT]);
  free(unames);
  free(cname); free(cmem); free(cmlen); free(cmcap);
  for (int r = 0; r < p; r++) free(ri[r].offsets);
  free(ri);
  free(nodes);
  return rc;
}

static void close_all(void) {
  end_run();
  clc_user_close(clc_now());
  streams_close();
  clc_signals_restore();
}

void clc_finalize(int64_t t_enter) {
  if (!traced) return;
  clc_t = 2;
  end_run();
  clc_cur.mute = 0;
  clc_cur.enter_pending = 0;
  clc_region(K_ENTER, t_enter, R_MPI_Finalize);
  sync_offsets();
  clc_region(K_LEAVE, clc_now(), R_MPI_Finalize);
  clc_t = 0;
  close_all();
  int werr = st_main.err ? st_main.err : st_truth.err;
  if (werr) warnf("writing the trace failed: %s", strerror(werr));

  struct timespec ts1;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts1);
  double hz = (double)(clc_now() - cal_tsc0) * 1e9 / (ts_ns(&ts1) - ts_ns(&cal_ts0));
  metaf("events %llu\n", (unsigned long long)st_main.total);
  if (have_truth) metaf("truth_events %llu\n", (unsigned long long)st_truth.total);
  metaf("final_resolution %.0f\nsync_seconds %.6f\nunknown_comm_events %llu\n", hz,
        (double)sync_ticks_total / hz, (unsigned long long)clc_unknown_comm);
  if (werr) metaf("error %d\n", werr);
  metaf("done\n");
  if (clc_unknown_comm)
    warnf("%llu message or collective events on communicators the tracer does not know (inter-communicators, or created by functions it does not wrap) were recorded as plain enter/leave",
          (unsigned long long)clc_unknown_comm);

  /* gather the definitions on rank 0 */
  int p = clc_world_size, len = (int)meta_len + 1;
  int *lens = NULL, *displs = NULL;
  char *all = NULL;
  if (clc_world_rank == 0) { lens = malloc(sizeof(int) * (size_t)p); displs = malloc(sizeof(int) * (size_t)p); }
  PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, sync_comm);
  if (clc_world_rank == 0) {
    long long tot = 0;
    for (int r = 0; r < p; r++) { displs[r] = (int)tot; tot += lens[r]; }
    all = malloc((size_t)tot);
  }
  PMPI_Gatherv(meta, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, sync_comm);
  if (clc_world_rank == 0) {
    char **texts = malloc(sizeof(char *) * (size_t)p);
    for (int r = 0; r < p; r++) texts[r] = all + displs[r];
    int bad = 0;
    for (int r = 0; r < p; r++) if (strstr(texts[r], "\nerror ")) bad = 1;
    if (bad) {
      warnf("some ranks could not write their events: the trace in %s is left incomplete", dir);
    } else {
      char tdir[4200];
      snprintf(tdir, sizeof tdir, "%s/truth", dir);
      if (have_truth && write_manifest(tdir, texts, p, hz, 1, 1) != 0) warnf("cannot write %s/clc.json: %s", tdir, strerror(errno));
      if (write_manifest(dir, texts, p, hz, 0, 1) != 0) warnf("cannot write %s/clc.json: %s", dir, strerror(errno));
    }
    free(texts);
    free(all); free(lens); free(displs);
  }
  if (meta_fd >= 0) { close(meta_fd); meta_fd = -1; }
  PMPI_Comm_free(&sync_comm);
  traced = 0;
}

/* unfinished ends a run that will not reach MPI_Finalize (why: the
 * metadata's word for it): every event written, and, since the launcher
 * may kill every process (clc-trace included) right after, the incomplete
 * manifest written now from the metadata files of all ranks. A finishing
 * rank 0 or clc-trace never replaces it; clc-trace finishes the streams of
 * the ranks that die without writing theirs (tracer.RecoverTails). */
static void unfinished(const char *why) {
  clc_t = 0;
  close_all();
  metaf("events %llu\n%s\n", (unsigned long long)st_main.total, why);
  if (meta_fd >= 0) { close(meta_fd); meta_fd = -1; }
  traced = 0;
  char **texts = calloc((size_t)clc_world_size, sizeof *texts);
  for (int r = 0; r < clc_world_size; r++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/.clc-meta/%d.txt", dir, r);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    size_t n;
    while (b && (n = fread(b + len, 1, cap - len - 1, f)) > 0) {
      len += n;
      if (len + 1 == cap) { cap *= 2; b = realloc(b, cap); }
    }
    fclose(f);
    if (b) b[len] = 0;
    texts[r] = b;
  }
  int regions = texts[0] && strstr(texts[0], "\nregion ");
  if (regions) {
    /* rank 0's first estimate, whichever rank writes (as clc-trace does):
     * the trace and its truth get one resolution */
    double hz = hz_init;
    const char *res = strstr(texts[0], "\nresolution ");
    if (res) hz = strtod(res + 12, NULL);
    char tdir[4200];
    snprintf(tdir, sizeof tdir, "%s/truth", dir);
    if (have_truth) write_manifest(tdir, texts, clc_world_size, hz, 1, 0);
    write_manifest(dir, texts, clc_world_size, hz, 0, 0);
  }
  for (int r = 0; r < clc_world_size; r++) free(texts[r]);
  free(texts);
}

/* clc_abort writes what was recorded so far, so that the trace up to here
 * stays readable. */
void clc_abort(void) {
  if (!traced) return;
  unfinished("aborted");
  warnf("MPI_Abort: the trace so far is in %s (incomplete); clc-trace finishes it%s unless the launcher kills it too, "
        "and then `clc-trace --convert %s` does", dir, otf2_out[0] ? " and converts it to OTF2" : "", clc_trace_out());
}

/* at_exit runs when the program returns from main or calls exit() without
 * MPI_Finalize. */
static void at_exit(void) {
  if (!traced) return;
  unfinished("exited");
  if (clc_world_rank == 0)
    warnf("the program exited without calling MPI_Finalize: the trace in %s is incomplete (\"complete\": false); "
          "if the launcher kills clc-trace, `clc-trace --convert %s` finishes it", dir, clc_trace_out());
}

/* in_child: a forked child does not trace, and leaves its parent's streams
 * and files alone. */
static void in_child(void) {
  if (!traced) return;
  traced = 0;
  clc_t = 0;
  streams_forget();
  clc_signals_restore();
  if (meta_fd >= 0) { close(meta_fd); meta_fd = -1; }
}

/* clc_signal_note records in the metadata that signal sig hit the process
 * and that n events were written (async-signal-safe). */
void clc_signal_note(int sig, uint64_t n) {
  char line[64], *p = line + sizeof line;
  *--p = '\n';
  uint64_t v = n;
  do { *--p = (char)('0' + v % 10); v /= 10; } while (v);
  *--p = ' ';
  unsigned u = (unsigned)sig;
  do { *--p = (char)('0' + u % 10); u /= 10; } while (u);
  memcpy(p -= 7, "signal ", 7);
  if (meta_fd >= 0) {
    ssize_t w = write(meta_fd, p, (size_t)(line + sizeof line - p));
    (void)w;
  }
}

const char *clc_trace_dir(void) { return dir; }
const char *clc_trace_out(void) { return otf2_out[0] ? otf2_out : dir; }
