/* strata dist — partitions of the rows into the ranks and the renumbering that makes each rank's
 * rows contiguous (strata/dist.h). The METIS call is the solver module's (strata_partition_rows:
 * the graph of A + Aᵀ without the diagonal); it runs on one rank, the result is broadcast. */
#include <stdio.h>

#include "dist_impl.h"
#include "strata/schwarz.h"


static const char *const part_names[3] = {"block", "metis", "auto"};

strata_dist_partitioner_t strata_dist_partitioner_resolve(strata_dist_partitioner_t method) {
  if (method == STRATA_DIST_PARTITION_AUTO) return strata_have_metis() ? STRATA_DIST_PARTITION_METIS : STRATA_DIST_PARTITION_BLOCK;
  return method;
}

const char *strata_dist_partitioner_name(strata_dist_partitioner_t method) {
  return (int)method >= 0 && (int)method < 3 ? part_names[method] : NULL;
}

strata_status_t strata_dist_partitioner_from_name(const char *name, strata_dist_partitioner_t *method) {
  for (int k = 0; name && method && k < 3; ++k)
    if (!strcmp(name, part_names[k])) {
      *method = (strata_dist_partitioner_t)k;
      return STRATA_SUCCESS;
    }
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist partitioner '%s': one of block, metis, auto",
                          name ? name : "(null)");
}

/* MPI ready and a communicator: this rank's rank and size (refused on this rank only) */
static strata_status_t comm_ready(MPI_Comm comm, const char *what, int *rank, int *size) {
  if (!strata_impl_mpi_ready(what)) return STRATA_ERR_INVALID_ARGUMENT;
  if (comm == MPI_COMM_NULL) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: MPI_COMM_NULL", what);
  MPI_Comm_rank(comm, rank);
  MPI_Comm_size(comm, size);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_agree(MPI_Comm comm, strata_status_t st) {
  int rank = 0, size = 1;
  strata_status_t s0 = comm_ready(comm, "dist agree", &rank, &size);
  return s0 ? s0 : strata_impl_agree(comm, st);
}

/* num_rows the same on every rank, root a rank: the checks every rank can make alike */
static strata_status_t common_checks(MPI_Comm comm, int root, int64_t num_rows, const char *what) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int64_t mm[2] = {num_rows, -num_rows}, out[2];
  MPI_Allreduce(mm, out, 2, MPI_INT64_T, MPI_MAX, comm);
  if (root < 0 || root >= size)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: root %d outside the %d ranks", what, root, size);
  if (out[0] != -out[1])
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_rows differs between ranks (%lld and %lld)", what,
                            (long long)-out[1], (long long)out[0]);
  if (num_rows < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_rows %lld < 0", what, (long long)num_rows);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_partition_renumber(MPI_Comm comm, int root, int64_t num_rows, const int32_t *part,
                                               int64_t *new_ids, strata_dist_map_t **map) {
  const char *what = "dist partition renumber";
  if (map) *map = NULL;
  int rank = 0, size = 1;
  strata_status_t st = comm_ready(comm, what, &rank, &size);
  if (st) return st;
  st = common_checks(comm, root, num_rows, what);
  if (!st && num_rows > 0 && !new_ids) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL new_ids", what);
  if (!st && rank == root && num_rows > 0 && !part)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL part on the root rank %d", what, root);
  int32_t *p = NULL;
  int64_t *cnt = NULL;
  if (!st) {
    p = (int32_t *)strata_impl_alloc(num_rows, sizeof(int32_t));
    cnt = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
    if (!p || !cnt) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld rows", what, (long long)num_rows);
  }
  if (!st && rank == root) {
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < num_rows; ++i)
      if (part[i] < 0 || part[i] >= size)
        if (bad++ == 0) first = i;
    if (bad)
      st = strata_error_set(STRATA_ERR_INVALID_DATA, "%s: %lld parts outside [0, %d) (the ranks; the first: row %lld, part %d)",
                            what, (long long)bad, size, (long long)first, (int)part[first]);
    else
      memcpy(p, part, (size_t)num_rows * sizeof(int32_t));
  }
  if ((st = strata_impl_agree(comm, st))) goto done;
  for (int64_t o = 0; o < num_rows; o += INT_MAX / 2) { /* in pieces: MPI's int count */
    const int64_t n = num_rows - o < INT_MAX / 2 ? num_rows - o : INT_MAX / 2;
    MPI_Bcast(p + o, (int)n, MPI_INT32_T, root, comm);
  }
  for (int64_t i = 0; i < num_rows; ++i) cnt[p[i] + 1]++;
  for (int r = 0; r < size; ++r) cnt[r + 1] += cnt[r];
  {
    const int64_t mine = cnt[rank + 1] - cnt[rank];
    for (int64_t i = 0; i < num_rows; ++i) new_ids[i] = cnt[p[i]]++; /* stable within a part */
    if (map) st = strata_dist_map_create_contiguous(comm, mine, map); /* agreed there */
    else st = STRATA_SUCCESS;
  }
done:
  free(p);
  free(cnt);
  return st;
}

strata_status_t strata_dist_partition_crs(MPI_Comm comm, int root, strata_exec_t *exec, const strata_crs_matrix_t *A,
                                          strata_dist_partitioner_t method, int64_t *num_rows, int64_t **new_ids,
                                          strata_dist_map_t **map) {
  const char *what = "dist partition";
  if (num_rows) *num_rows = 0;
  if (new_ids) *new_ids = NULL;
  if (map) *map = NULL;
  int rank = 0, size = 1;
  strata_status_t st = comm_ready(comm, what, &rank, &size);
  if (st) return st;
  if (!num_rows || !new_ids || !map)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, !num_rows ? "num_rows" : !new_ids ? "new_ids" : "map");
  else if (root < 0 || root >= size)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: root %d outside the %d ranks", what, root, size);
  else if (method != STRATA_DIST_PARTITION_BLOCK && method != STRATA_DIST_PARTITION_METIS &&
           method != STRATA_DIST_PARTITION_AUTO)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: partitioner %d is none of BLOCK (0), METIS (1), AUTO (2)", what,
                          (int)method);
  int64_t n = 0;
  int32_t *part = NULL;
  if (!st && rank == root) {
    if (!A) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL matrix on the root rank %d", what, root);
    else if (A->num_rows != A->num_cols)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: A is %d x %d, not square", what, A->num_rows, A->num_cols);
    else if (size > (A->num_rows > 0 ? A->num_rows : 1))
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s (%s): %d ranks for the %d rows of A: the partition count (the ranks) must lie in [1, %d], "
                            "at most the rows (run on at most %d ranks; a block map, strata_dist_map_create_block, "
                            "leaves ranks without rows)", what, strata_dist_partitioner_name(method), size, A->num_rows,
                            A->num_rows > 0 ? A->num_rows : 1, A->num_rows > 0 ? A->num_rows : 1);
    if (!st) {
      n = A->num_rows;
      part = (int32_t *)strata_impl_alloc(n, sizeof(int32_t));
      if (!part) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld parts", what, (long long)n);
    }
    if (!st) {
      const strata_partitioner_t pm = strata_dist_partitioner_resolve(method) == STRATA_DIST_PARTITION_METIS
                                          ? STRATA_PARTITION_METIS
                                          : STRATA_PARTITION_CONTIGUOUS;
      st = strata_partition_rows(exec, A, (int32_t)size, pm, part);
    }
  }
  if ((st = strata_impl_agree(comm, st))) {
    free(part);
    return st;
  }
  MPI_Bcast(&n, 1, MPI_INT64_T, root, comm);
  int64_t *ids = (int64_t *)strata_impl_alloc(n, sizeof(int64_t));
  st = ids ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld new ids", what, (long long)n);
  if ((st = strata_impl_agree(comm, st))) {
    free(part);
    free(ids);
    return st;
  }
  st = strata_dist_partition_renumber(comm, root, n, part, ids, map);
  free(part);
  if (st) {
    free(ids);
    return st;
  }
  *num_rows = n;
  if (n > 0) *new_ids = ids;
  else free(ids);
  return STRATA_SUCCESS;
}
