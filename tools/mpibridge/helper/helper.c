/*
 * The MPI side of tools/mpibridge (docs/scale.md, "The engine"): an MPI
 * process that makes MPI calls for its parent, a Go process without cgo.
 * The parent passes a file to map (argv[1], of argv[2] bytes), whose pages
 * both map: the calls read and write their buffers there, so no byte of
 * a message crosses the pipe. Commands come on fd 3, one 32-byte record
 * each (op, reps, a, b, c), and every command is answered on fd 4 with a
 * record of the same shape. Each command runs reps times (at least once)
 * between two MPI_Wtime calls; the answer's c is the nanoseconds that
 * took, so that the parent can compare one call per command (the bridge)
 * with reps calls made here (MPI directly).
 */
#include <mpi.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { OP_EXIT = 0, OP_PING = 1, OP_BARRIER = 2, OP_ALLREDUCE = 3, OP_ALLTOALL = 4 };

struct rec {
	uint32_t op, reps;
	uint64_t a, b, c;
};

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

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s MAPFILE BYTES (started by mpibridge)\n", argv[0]);
		return 2;
	}
	size_t size = strtoull(argv[2], NULL, 10);
	int fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	char *shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (shm == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	close(fd);
	MPI_Init(&argc, &argv);
	int rank, n;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	struct rec r;
	while (full(3, &r, sizeof r, 0) == 0) {
		struct rec out = { r.op, r.reps, 0, 0, 0 };
		uint32_t reps = r.reps ? r.reps : 1;
		if (r.op != OP_EXIT && r.op != OP_PING && (r.a > size || r.b > size || r.c > size)) {
			fprintf(stderr, "mpibridge helper: command %u reaches beyond the %zu-byte mapping\n", r.op, size);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		double t0 = MPI_Wtime();
		for (uint32_t k = 0; k < reps; k++) {
			switch (r.op) {
			case OP_EXIT:
				break;
			case OP_PING:
				out.a = (uint64_t)rank;
				out.b = (uint64_t)n;
				break;
			case OP_BARRIER:
				MPI_Barrier(MPI_COMM_WORLD);
				break;
			case OP_ALLREDUCE: /* b doubles at a, in place */
				MPI_Allreduce(MPI_IN_PLACE, shm + r.a, (int)r.b, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
				break;
			case OP_ALLTOALL: /* b bytes per peer from a into c */
				MPI_Alltoall(shm + r.a, (int)r.b, MPI_BYTE, shm + r.c, (int)r.b, MPI_BYTE, MPI_COMM_WORLD);
				break;
			default:
				fprintf(stderr, "mpibridge helper: unknown command %u\n", r.op);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
		out.c = (uint64_t)((MPI_Wtime() - t0) * 1e9);
		if (r.op == OP_EXIT) {
			MPI_Finalize();
			full(4, &out, sizeof out, 1);
			return 0;
		}
		if (full(4, &out, sizeof out, 1) != 0)
			break;
	}
	/* The parent went away without saying goodbye. */
	MPI_Abort(MPI_COMM_WORLD, 1);
	return 1;
}
