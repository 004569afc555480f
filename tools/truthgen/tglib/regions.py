"""Regions of the simulated programs: name, OTF2 region role, paradigm.

Roles as Score-P registers MPI functions: point-to-point calls and the
Wait/Test family POINT2POINT, MPI_Barrier BARRIER, one-to-all collectives
COLL_ONE2ALL, all-to-one COLL_ALL2ONE, all-to-all COLL_ALL2ALL, scans
COLL_OTHER, everything else (MPI_Init, MPI_Finalize, MPI_Comm_split)
FUNCTION.
"""

REGIONS = (
    ("main", "FUNCTION", "USER"),
    ("compute", "FUNCTION", "USER"),
    ("bookkeeping", "FUNCTION", "USER"),
    ("MPI_Init", "FUNCTION", "MPI"),
    ("MPI_Finalize", "FUNCTION", "MPI"),
    ("MPI_Comm_split", "FUNCTION", "MPI"),
    ("MPI_Send", "POINT2POINT", "MPI"),
    ("MPI_Recv", "POINT2POINT", "MPI"),
    ("MPI_Sendrecv", "POINT2POINT", "MPI"),
    ("MPI_Isend", "POINT2POINT", "MPI"),
    ("MPI_Irecv", "POINT2POINT", "MPI"),
    ("MPI_Wait", "POINT2POINT", "MPI"),
    ("MPI_Waitall", "POINT2POINT", "MPI"),
    ("MPI_Waitany", "POINT2POINT", "MPI"),
    ("MPI_Testsome", "POINT2POINT", "MPI"),
    ("MPI_Barrier", "BARRIER", "MPI"),
    ("MPI_Bcast", "COLL_ONE2ALL", "MPI"),
    ("MPI_Scatterv", "COLL_ONE2ALL", "MPI"),
    ("MPI_Reduce", "COLL_ALL2ONE", "MPI"),
    ("MPI_Gatherv", "COLL_ALL2ONE", "MPI"),
    ("MPI_Allreduce", "COLL_ALL2ALL", "MPI"),
    ("MPI_Allgather", "COLL_ALL2ALL", "MPI"),
    ("MPI_Allgatherv", "COLL_ALL2ALL", "MPI"),
    ("MPI_Alltoall", "COLL_ALL2ALL", "MPI"),
    ("MPI_Alltoallv", "COLL_ALL2ALL", "MPI"),
    ("MPI_Reduce_scatter", "COLL_ALL2ALL", "MPI"),
    ("MPI_Scan", "COLL_OTHER", "MPI"),
    ("MPI_Exscan", "COLL_OTHER", "MPI"),
)

REGION_ID = {name: i for i, (name, _, _) in enumerate(REGIONS)}
