/*
 * The MPI side of package comm/mpi: an MPI process that makes MPI calls for
 * its parent, a Go process without cgo (docs/scale.md, "The engine").
 *
 * The parent passes an open file of /dev/shm as fd 5 (argv[1]: its size in
 * bytes), which both map: every buffer of a call lives there, so no byte of
 * a message crosses the pipe. Commands come on fd 3, one 64-byte record
 * each (op, status, a[0..6]); every command is answered on fd 4 with a
 * record of the same shape whose status is 0, or ST_SHAPE when the
 * processes passed arguments of different shapes (every process then gets
 * ST_SHAPE: the check is collective). Offsets and counts are in bytes
 * unless said otherwise; "limit" is the largest message one MPI call may
 * move (at most INT_MAX): larger transfers go in pieces.
 *
 * When the parent goes away (its end of the command pipe closes, or
 * writing an answer fails) the helper calls MPI_Abort, so that the launcher
 * ends the whole job instead of leaving the other processes waiting.
 */
#include <mpi.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
	OP_FINALIZE = 0,
	OP_HELLO = 1,         /* answer: a0 rank, a1 size, a2 pid */
	OP_BARRIER = 2,         /* sleeps while it waits long: barrier() */
	OP_REMAP = 3,         /* a0 new size of the mapping */
	OP_ABORT = 4,         /* a0 exit code */
	OP_ALLTOALL_N = 5,    /* a0 P int64 send counts, a1 P int64 receive counts */
	OP_ALLTOALLV = 6,     /* a0 send counts, a1 receive counts, a2 send data, a3 receive data, a4 limit */
	OP_ALLGATHER = 7,     /* a0 send, a1 bytes, a2 receive (P·bytes) */
	OP_ALLGATHERV = 8,    /* a0 P int64 counts, a1 send, a2 receive, a3 limit */
	OP_BCAST = 9,         /* a0 root, a1 offset, a2 bytes, a3 limit */
	OP_ALLREDUCE_I64 = 10 /* a0 op (0 sum, 1 max, 2 min), a1 offset, a2 values, a3 limit */
};

enum { ST_OK = 0, ST_SHAPE = 1 };

struct rec {
	uint32_t op, status;
	uint64_t a[7];
};

static int rank = -1, size = 0;
/* The Go process: the helper's parent, or (launched mode) its child. */
static int parent, gopid;
/* The command pipe, the answer pipe and the mapped file. */
static int cmd_fd = 3, rep_fd = 4, shm_fd = 5;
static char *shm;
static size_t shm_size;

static int full(int fd, void *p, size_t n, int writing)
{
	char *b = p;
	while (n > 0) {
		ssize_t k = writing ? write(fd, b, n) : read(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static void die(const char *why)
{
	fprintf(stderr, "clc-correct process %d of %d (MPI helper pid %d, Go process pid %d): %s; aborting the MPI job\n", rank, size,
		(int)getpid(), gopid, why);
	fflush(stderr);
	/* MPI_Abort waits for the launcher to end the job; a launcher that is
	 * gone already never does. */
	alarm(10);
	MPI_Abort(MPI_COMM_WORLD, 1);
	_exit(1);
}

/* watchdog ends the helper when its Go process has gone away and the main
 * thread has not (it is inside an MPI call that waits for processes the
 * launcher has ended): no helper outlives its job. The main thread, if it
 * can, aborts the job first (die). */
static void *watchdog(void *arg)
{
	(void)arg;
	struct timespec tick = { 0, 250000000 };
	while (getppid() == parent)
		nanosleep(&tick, NULL);
	sleep(5);
	fprintf(stderr, "clc-correct process %d of %d (MPI helper pid %d): its Go process (pid %d) went away; exiting\n", rank, size,
		(int)getpid(), gopid);
	_exit(1);
	return NULL;
}

/* span checks that [off, off+n) lies in the mapping and returns its start. */
static char *span(uint64_t off, uint64_t n)
{
	if (off > shm_size || n > shm_size - off)
		die("a command reaches beyond the shared mapping (a bug in comm/mpi)");
	return shm + off;
}

static int64_t *counts(uint64_t off)
{
	return (int64_t *)span(off, (uint64_t)size * 8);
}

static int clamp_limit(uint64_t limit)
{
	return limit == 0 || limit > INT_MAX ? INT_MAX : (int)limit;
}

/* barrier is MPI_Ibarrier, waited for by spinning for a millisecond, then
 * by naps that grow to a millisecond: a process that waits long at a
 * barrier (for one that computes) leaves the CPU to the others. */
static void barrier(void)
{
	MPI_Request req;
	MPI_Status st;
	int done = 0;
	long nap = 50000; /* ns */
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	double t0 = MPI_Wtime();
	for (;;) {
		MPI_Test(&req, &done, &st);
		if (done)
			return;
		if (MPI_Wtime() - t0 < 1e-3)
			continue;
		struct timespec ts = { 0, nap };
		nanosleep(&ts, NULL);
		if (nap < 1000000)
			nap *= 2;
	}
}

/* bcast_pieces broadcasts n bytes at p from root in messages of at most limit. */
static void bcast_pieces(char *p, int64_t n, int limit, int root)
{
	for (int64_t off = 0; off < n; off += limit) {
		int64_t k = n - off < limit ? n - off : limit;
		MPI_Bcast(p + off, (int)k, MPI_BYTE, root, MPI_COMM_WORLD);
	}
}

/* p2p_pieces moves what an all-to-all moves by nonblocking sends and
 * receives of at most limit bytes each: the pieces between two processes
 * arrive in order (MPI does not overtake messages of one tag). */
static void p2p_pieces(const int64_t *sc, const int64_t *rc, char *sbuf, char *rbuf, int limit)
{
	size_t nreq = 0;
	for (int p = 0; p < size; p++)
		nreq += (size_t)((sc[p] + limit - 1) / limit + (rc[p] + limit - 1) / limit);
	MPI_Request *req = malloc((nreq ? nreq : 1) * sizeof *req);
	MPI_Status *st = malloc((nreq ? nreq : 1) * sizeof *st);
	if (!req || !st)
		die("out of memory for the requests of an all-to-all");
	size_t k = 0;
	int64_t roff = 0, soff = 0;
	for (int p = 0; p < size; p++) {
		for (int64_t o = 0; o < rc[p]; o += limit)
			MPI_Irecv(rbuf + roff + o, (int)(rc[p] - o < limit ? rc[p] - o : limit), MPI_BYTE, p, 0, MPI_COMM_WORLD, &req[k++]);
		roff += rc[p];
	}
	for (int p = 0; p < size; p++) {
		for (int64_t o = 0; o < sc[p]; o += limit)
			MPI_Isend(sbuf + soff + o, (int)(sc[p] - o < limit ? sc[p] - o : limit), MPI_BYTE, p, 0, MPI_COMM_WORLD, &req[k++]);
		soff += sc[p];
	}
	MPI_Waitall((int)k, req, st);
	free(req);
	free(st);
}

static void alltoallv(struct rec *r)
{
	int64_t *sc = counts(r->a[0]), *rc = counts(r->a[1]);
	int limit = clamp_limit(r->a[4]);
	int64_t st = 0, rt = 0;
	for (int p = 0; p < size; p++) {
		st += sc[p];
		rt += rc[p];
	}
	char *sbuf = span(r->a[2], (uint64_t)st), *rbuf = span(r->a[3], (uint64_t)rt);
	/* One MPI_Alltoallv if every process's totals fit one call (all must
	 * agree on the way). */
	int64_t big = st > rt ? st : rt, most;
	MPI_Allreduce(&big, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
	if (most > limit) {
		p2p_pieces(sc, rc, sbuf, rbuf, limit);
		return;
	}
	int *buf = malloc((size_t)size * 4 * sizeof *buf);
	if (!buf)
		die("out of memory for the counts of an all-to-all");
	int *isc = buf, *isd = buf + size, *irc = buf + 2 * size, *ird = buf + 3 * size;
	int so = 0, ro = 0;
	for (int p = 0; p < size; p++) {
		isc[p] = (int)sc[p];
		isd[p] = so;
		so += isc[p];
		irc[p] = (int)rc[p];
		ird[p] = ro;
		ro += irc[p];
	}
	MPI_Alltoallv(sbuf, isc, isd, MPI_BYTE, rbuf, irc, ird, MPI_BYTE, MPI_COMM_WORLD);
	free(buf);
}

static void allgatherv(struct rec *r)
{
	int64_t *c = counts(r->a[0]);
	int limit = clamp_limit(r->a[3]);
	int64_t total = 0, at = 0;
	for (int p = 0; p < size; p++) {
		if (p == rank)
			at = total;
		total += c[p];
	}
	char *sbuf = span(r->a[1], (uint64_t)c[rank]), *rbuf = span(r->a[2], (uint64_t)total);
	if (total > limit) {
		/* Every process knows total: all take this way. */
		memmove(rbuf + at, sbuf, (size_t)c[rank]);
		int64_t off = 0;
		for (int p = 0; p < size; p++) {
			bcast_pieces(rbuf + off, c[p], limit, p);
			off += c[p];
		}
		return;
	}
	int *buf = malloc((size_t)size * 2 * sizeof *buf);
	if (!buf)
		die("out of memory for the counts of an allgather");
	int o = 0;
	for (int p = 0; p < size; p++) {
		buf[p] = (int)c[p];
		buf[size + p] = o;
		o += buf[p];
	}
	MPI_Allgatherv(sbuf, (int)c[rank], MPI_BYTE, rbuf, buf, buf + size, MPI_BYTE, MPI_COMM_WORLD);
	free(buf);
}

static uint32_t allreduce_i64(struct rec *r)
{
	/* The processes must pass as many values: compare the largest and
	 * the smallest count, which every process gets alike. */
	int64_t n = (int64_t)r->a[2], in[2] = { n, -n }, out[2];
	MPI_Allreduce(in, out, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
	if (out[0] != -out[1])
		return ST_SHAPE;
	MPI_Op op = r->a[0] == 1 ? MPI_MAX : r->a[0] == 2 ? MPI_MIN : MPI_SUM;
	int64_t *v = (int64_t *)span(r->a[1], (uint64_t)n * 8);
	int64_t per = clamp_limit(r->a[3]) / 8;
	if (per < 1)
		per = 1;
	for (int64_t off = 0; off < n; off += per)
		MPI_Allreduce(MPI_IN_PLACE, v + off, (int)(n - off < per ? n - off : per), MPI_INT64_T, op, MPI_COMM_WORLD);
	return ST_OK;
}

static void remap(int fd, uint64_t n)
{
	if (munmap(shm, shm_size) != 0)
		die("unmapping the shared mapping failed");
	shm = mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (shm == MAP_FAILED)
		die("mapping the grown shared mapping failed");
	shm_size = (size_t)n;
}

/* forward passes a signal the launcher sends (launched mode: SIGINT,
 * SIGTERM) on to the Go process and ends the helper: the launcher is ending
 * the job, and the Go process, told twice (the parent's death signal is
 * SIGTERM too), stops at once and removes what it was writing. */
static void forward(int sig)
{
	if (gopid > 0)
		kill(gopid, sig);
	_exit(128 + sig);
}

/* launch is the launched mode (argv: --run PROGRAM ARGS...), for a
 * launcher that refuses a child calling MPI_Init: the helper is the
 * process the launcher started, and it starts the Go program as its child
 * before MPI_Init, with the pipes and the mapped file as its fds 3, 4, 5
 * and CLC_MPI_HELPER_FDS naming the mapping's size. The Go process gets
 * SIGTERM when the helper dies (PR_SET_PDEATHSIG). */
static void launch(char **argv)
{
	int cmd[2], rep[2];
	char name[] = "/dev/shm/clc-mpi-XXXXXX";
	int fd = mkstemp(name);
	if (fd < 0 || unlink(name) != 0 || ftruncate(fd, (off_t)shm_size) != 0 || pipe(cmd) != 0 || pipe(rep) != 0) {
		perror("clc-correct's MPI helper: the mapping and the pipes");
		exit(1);
	}
	int me = (int)getpid();
	pid_t pid = fork();
	if (pid < 0) {
		perror("clc-correct's MPI helper: fork");
		exit(1);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if ((int)getppid() != me)
			_exit(1);
		/* Out of the way of 3, 4, 5 first, then onto them. */
		/* The Go process writes commands and reads answers. */
		close(cmd[0]);
		close(rep[1]);
		int c = fcntl(cmd[1], F_DUPFD, 10), r = fcntl(rep[0], F_DUPFD, 10), f = fcntl(fd, F_DUPFD, 10);
		close(cmd[1]);
		close(rep[0]);
		close(fd);
		if (c < 0 || r < 0 || f < 0 || dup2(c, 3) < 0 || dup2(r, 4) < 0 || dup2(f, 5) < 0) {
			perror("clc-correct's MPI helper: the Go process's fds");
			_exit(1);
		}
		close(c);
		close(r);
		close(f);
		char v[32];
		snprintf(v, sizeof v, "%zu", shm_size);
		setenv("CLC_MPI_HELPER_FDS", v, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "clc-correct's MPI helper: starting %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	gopid = (int)pid;
	cmd_fd = cmd[0];
	rep_fd = rep[1];
	shm_fd = fd;
	close(cmd[1]);
	close(rep[0]);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* finish ends the helper after MPI_Finalize: in launched mode with the Go
 * process's exit status, which is the job's. */
static int finish(void)
{
	if (gopid == parent)
		return 0;
	int st;
	while (waitpid(gopid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int main(int argc, char **argv)
{
	parent = gopid = (int)getppid();
	if (argc >= 3 && strcmp(argv[1], "--run") == 0) {
		shm_size = 1 << 20;
		launch(argv + 2);
	} else if (argc == 2) {
		shm_size = strtoull(argv[1], NULL, 10);
	} else {
		fprintf(stderr, "usage: %s BYTES (started by clc-correct, package comm/mpi), or %s --run PROGRAM [ARGS...]\n", argv[0], argv[0]);
		return 2;
	}
	shm = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	if (shm == MAP_FAILED) {
		perror("clc-correct's MPI helper: mmap of the shared file");
		return 1;
	}
	pthread_t wd;
	if (gopid == parent && pthread_create(&wd, NULL, watchdog, NULL) != 0) {
		perror("clc-correct's MPI helper: starting its watchdog");
		return 1;
	}
	MPI_Init(&argc, &argv);
	/* A write to a parent that went away must fail, not kill us silently. */
	signal(SIGPIPE, SIG_IGN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	struct rec r;
	while (full(cmd_fd, &r, sizeof r, 0) == 0) {
		struct rec out;
		memset(&out, 0, sizeof out);
		out.op = r.op;
		switch (r.op) {
		case OP_FINALIZE:
			MPI_Finalize();
			full(rep_fd, &out, sizeof out, 1);
			return finish();
		case OP_HELLO:
			out.a[0] = (uint64_t)rank;
			out.a[1] = (uint64_t)size;
			out.a[2] = (uint64_t)getpid();
			break;
		case OP_BARRIER:
			barrier();
			break;
		case OP_REMAP:
			remap(shm_fd, r.a[0]);
			break;
		case OP_ABORT:
			fflush(stderr);
			MPI_Abort(MPI_COMM_WORLD, (int)r.a[0]);
			_exit((int)r.a[0]);
		case OP_ALLTOALL_N:
			MPI_Alltoall(counts(r.a[0]), 1, MPI_INT64_T, counts(r.a[1]), 1, MPI_INT64_T, MPI_COMM_WORLD);
			break;
		case OP_ALLTOALLV:
			alltoallv(&r);
			break;
		case OP_ALLGATHER:
			MPI_Allgather(span(r.a[0], r.a[1]), (int)r.a[1], MPI_BYTE, span(r.a[2], r.a[1] * (uint64_t)size), (int)r.a[1], MPI_BYTE,
				      MPI_COMM_WORLD);
			break;
		case OP_ALLGATHERV:
			allgatherv(&r);
			break;
		case OP_BCAST:
			if (r.a[0] >= (uint64_t)size)
				die("a broadcast from a process that does not exist (a bug in comm/mpi)");
			bcast_pieces(span(r.a[1], r.a[2]), (int64_t)r.a[2], clamp_limit(r.a[3]), (int)r.a[0]);
			break;
		case OP_ALLREDUCE_I64:
			out.status = allreduce_i64(&r);
			break;
		default:
			die("an unknown command (a bug in comm/mpi)");
		}
		if (full(rep_fd, &out, sizeof out, 1) != 0)
			die("its Go process went away (the answer pipe closed)");
	}
	die("its Go process went away without finalizing (the command pipe closed)");
	return 1;
}
