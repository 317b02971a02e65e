/* strata bench — the dist suite's Tpetra peer (bench_tpetra.h): the same mesh, ranks, partition and
 * element matrices as fem_dist_assemble (strata's C functions: fem_dist_local_create,
 * fem_dist_local_elements), assembled by Tpetra's own FE path: an FECrsGraph of the owned plus
 * shared rows, then per sample FECrsMatrix beginAssembly, setAllToScalar(0), the sum of every element
 * row into the local (owned-plus-shared) matrix (getLocalMatrixHost().sumIntoValues: Tpetra's fast
 * FE path, what its Finite-Element-Assembly example's "type 3" does in a kernel; the per-row
 * CrsMatrix::sumIntoLocalValues took 1.6-3x longer on 2 ranks here), endAssembly (the shared rows exported to
 * their owners with ADD, fillComplete). The local row and column ids of every element entry are
 * looked up once, before the samples, so the fill times the sums, not a global-to-local lookup. */
#include <mpi.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_FECrsGraph.hpp>
#include <Tpetra_FECrsMatrix.hpp>
#include <Tpetra_Map.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

extern "C" {
#include "fem.h"
#include "fem_dist.h"
}
#include "bench_tpetra.h"

namespace {
using map_t = Tpetra::Map<>;
using LO = map_t::local_ordinal_type;
using GO = map_t::global_ordinal_type;
using graph_t = Tpetra::FECrsGraph<LO, GO>;
using matrix_t = Tpetra::FECrsMatrix<double, LO, GO>;

bool g_started = false;
void tpetra_stop() {
  if (Tpetra::isInitialized()) Tpetra::finalize();
}

/* the error agreed: the lowest failing rank's message on every rank; 1 when any failed */
int agree(int failed, char *msg, size_t len) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int in[2] = {failed ? 0 : 1, rank}, out[2];
  MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  if (out[0]) return 0;
  MPI_Bcast(msg, (int)len, MPI_CHAR, out[1], MPI_COMM_WORLD);
  msg[len - 1] = '\0';
  return 1;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct state {
  fem_dist_local_t L;
  strata_crs_matrix_t E, *P = nullptr;
  int32_t *imp = nullptr;
  strata_exec_t *ser = nullptr;
  std::vector<GO> ogids, vgids; /* the owned rows, then the owned and shared rows (the overlap) */
  std::vector<LO> lrow;         /* [element rows] each one's overlap row */
  state() {
    std::memset(&L, 0, sizeof L);
    std::memset(&E, 0, sizeof E);
  }
};

#define TP_CHECK(call, what)                                                                 \
  do {                                                                                       \
    if ((call) != STRATA_SUCCESS) {                                                          \
      std::snprintf(t->msg, sizeof t->msg, "%s: %s", what, strata_error_message());          \
      throw std::runtime_error(t->msg);                                                      \
    }                                                                                        \
  } while (0)

/* this rank's elements, element rows, overlap rows and their pattern: no communication; throws on
 * an error (caught and agreed by the caller before any collective call) */
void setup(bench_tpetra_fem_t *t, state &S, int rank, int size) {
  const fem_mesh_t *m = t->m;
  const int64_t n = m->num_nodes, K = t->K, nmesh = n - K;
  const int64_t f0 = t->first_ids[rank], f1 = t->first_ids[rank + 1];
  std::vector<int32_t> owner((size_t)n);
  for (int r = 0; r < size; ++r)
    for (int64_t g = t->first_ids[r]; g < t->first_ids[r + 1]; ++g) owner[(size_t)g] = r;
  TP_CHECK(fem_dist_local_create(t->e, m, K, t->sel, t->nsel, t->new_ids, owner.data(), rank, &S.L), "this rank's elements");
  TP_CHECK(fem_dist_local_elements(t->e, &S.L, n, nmesh, K, &S.E, &S.imp), "strata's element kernel");
  const int64_t ner = S.L.ner;
  /* the overlap rows: the owned ones in order, then the shared ones (sorted) */
  std::vector<GO> ogids;
  for (int64_t g = f0; g < f1; ++g) ogids.push_back((GO)g);
  std::vector<GO> shared;
  for (int64_t r = 0; r < ner; ++r)
    if (S.L.row_gids[r] < f0 || S.L.row_gids[r] >= f1) shared.push_back((GO)S.L.row_gids[r]);
  std::sort(shared.begin(), shared.end());
  shared.erase(std::unique(shared.begin(), shared.end()), shared.end());
  std::vector<GO> vgids(ogids);
  vgids.insert(vgids.end(), shared.begin(), shared.end());
  auto lrow_of = [&](int64_t g) -> LO {
    if (g >= f0 && g < f1) return (LO)(g - f0);
    return (LO)((f1 - f0) + (std::lower_bound(shared.begin(), shared.end(), (GO)g) - shared.begin()));
  };
  /* the pattern of the overlap rows (strata's COO to CSR on the host: duplicates merged) */
  const int64_t enz = S.E.nnz;
  std::vector<int32_t> er((size_t)enz + 1), ec((size_t)enz + 1);
  std::vector<LO> lrow((size_t)ner + 1);
  for (int64_t r = 0; r < ner; ++r) {
    lrow[(size_t)r] = lrow_of(S.L.row_gids[r]);
    for (int64_t k = S.E.row_offsets[r]; k < S.E.row_offsets[r + 1]; ++k) er[(size_t)k] = lrow[(size_t)r], ec[(size_t)k] = S.E.col_indices[k];
  }
  TP_CHECK(strata_exec_default(STRATA_BACKEND_SERIAL, &S.ser), "the serial backend");
  TP_CHECK(strata_crs_create_from_coo(S.ser, (int32_t)vgids.size(), (int32_t)n, enz, er.data(), ec.data(), nullptr, &S.P),
           "the overlap rows' pattern");
  S.ogids.swap(ogids), S.vgids.swap(vgids), S.lrow.swap(lrow);
}

/* Tpetra's graph and matrix, the samples, the gather to rank 0; throws on an error */
void run(bench_tpetra_fem_t *t, state &S, int rank, int size) {
  const fem_mesh_t *m = t->m;
  const int64_t n = m->num_nodes, K = t->K, nmesh = n - K;
  const int64_t f0 = t->first_ids[rank], f1 = t->first_ids[rank + 1];
  const int64_t ner = S.L.ner, enz = S.E.nnz;
  const std::vector<GO> &ogids = S.ogids, &vgids = S.vgids;
  const std::vector<LO> &lrow = S.lrow;
  auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD));
  const Tpetra::global_size_t INV = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  Teuchos::RCP<const map_t> owned = Teuchos::rcp(new map_t(INV, Teuchos::ArrayView<const GO>(ogids), 0, comm));
  Teuchos::RCP<const map_t> overlap = Teuchos::rcp(new map_t(INV, Teuchos::ArrayView<const GO>(vgids), 0, comm));
  MPI_Barrier(MPI_COMM_WORLD);
  double tg = strata_timer_now();
  Kokkos::DualView<size_t *, typename graph_t::device_type> counts("counts", vgids.size());
  auto ch = counts.view_host();
  for (size_t i = 0; i < vgids.size(); ++i) ch(i) = (size_t)(S.P->row_offsets[i + 1] - S.P->row_offsets[i]);
  counts.modify_host();
  counts.sync_device();
  Kokkos::DualView<const size_t *, typename graph_t::device_type> ccounts = counts;
  Teuchos::RCP<graph_t> G = Teuchos::rcp(new graph_t(owned, overlap, ccounts));
  G->beginAssembly();
  std::vector<GO> cg;
  for (size_t i = 0; i < vgids.size(); ++i) {
    cg.clear();
    for (int64_t k = S.P->row_offsets[i]; k < S.P->row_offsets[i + 1]; ++k) cg.push_back((GO)S.P->col_indices[k]);
    G->insertGlobalIndices(vgids[i], Teuchos::ArrayView<const GO>(cg));
  }
  G->endAssembly();
  matrix_t A(G);
  tg = strata_timer_now() - tg;
  MPI_Allreduce(MPI_IN_PLACE, &tg, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  t->graph_s = tg;
  /* every element entry's local column, once */
  A.beginAssembly();
  auto cmap = A.getColMap();
  std::vector<LO> lcol((size_t)enz + 1);
  for (int64_t k = 0; k < enz; ++k) lcol[(size_t)k] = cmap->getLocalElement((GO)S.E.col_indices[k]);
  A.endAssembly();
  const bool sorted = A.getCrsGraph()->isSorted(); /* the rows' columns: binary search in the long bulk rows */
  /* the samples */
  std::vector<double> ph[8];
  double elapsed = 0;
  int64_t missed = 0;
  for (int s = 0; s < 1000 && (s < t->min_samples || elapsed < t->min_time); ++s) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = strata_timer_now();
    fem_element_rows_free(t->e, &S.E, &S.imp);
    TP_CHECK(fem_dist_local_elements(t->e, &S.L, n, nmesh, K, &S.E, &S.imp), "strata's element kernel");
    const double t1 = strata_timer_now();
    A.beginAssembly();
    A.setAllToScalar(0.0);
    {
      const auto lcl = A.getLocalMatrixHost(); /* the owned-plus-shared matrix while assembling */
      const double *ev = S.E.values;
      for (int64_t r = 0; r < ner; ++r) {
        const int64_t b = S.E.row_offsets[r];
        const LO len = (LO)(S.E.row_offsets[r + 1] - b);
        missed += len - lcl.sumIntoValues(lrow[(size_t)r], lcol.data() + b, len, ev + b, sorted, false);
      }
    }
    const double t2 = strata_timer_now();
    A.endAssembly();
    const double t3 = strata_timer_now();
    double mx[4] = {t1 - t0, t2 - t1, t3 - t2, t3 - t0}, mn[4];
    std::memcpy(mn, mx, sizeof mn);
    MPI_Allreduce(MPI_IN_PLACE, mx, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, mn, 4, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    for (int i = 0; i < 4; ++i) ph[i].push_back(mx[i]), ph[4 + i].push_back(mn[i]);
    elapsed += mx[3];
  }
  MPI_Allreduce(MPI_IN_PLACE, &missed, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (missed) {
    std::snprintf(t->msg, sizeof t->msg, "Tpetra's sumIntoLocalValues missed %lld entries (over the ranks)", (long long)missed);
    throw std::runtime_error(t->msg);
  }
  t->samples = (int)ph[0].size();
  t->total_samples = (double *)std::malloc((ph[3].size() + 1) * sizeof(double));
  if (!t->total_samples) throw std::bad_alloc();
  std::copy(ph[3].begin(), ph[3].end(), t->total_samples);
  t->element_s = median(ph[0]), t->fill_s = median(ph[1]), t->assemble_s = median(ph[2]), t->total_s = median(ph[3]);
  t->element_min_s = median(ph[4]), t->fill_min_s = median(ph[5]), t->assemble_min_s = median(ph[6]);
  t->total_min_s = median(ph[7]);
  /* the owned rows to rank 0, in the mesh's numbering */
  std::vector<int64_t> old_of((size_t)n);
  for (int64_t i = 0; i < n; ++i) old_of[(size_t)t->new_ids[i]] = i;
  std::vector<int32_t> rr, cc;
  std::vector<double> vv;
  const size_t maxlen = A.getNodeMaxNumRowEntries();
  typename matrix_t::nonconst_global_inds_host_view_type gi("gi", maxlen);
  typename matrix_t::nonconst_values_host_view_type gv("gv", maxlen);
  for (int64_t g = f0; g < f1; ++g) {
    size_t len = 0;
    A.getGlobalRowCopy((GO)g, gi, gv, len);
    for (size_t k = 0; k < len; ++k)
      rr.push_back((int32_t)old_of[(size_t)g]), cc.push_back((int32_t)old_of[(size_t)gi(k)]), vv.push_back(gv(k));
  }
  int cnt = (int)rr.size();
  std::vector<int> counts_r((size_t)size), displs((size_t)size);
  MPI_Gather(&cnt, 1, MPI_INT, counts_r.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int64_t total = 0;
  for (int r = 0; r < size; ++r) displs[(size_t)r] = (int)total, total += counts_r[(size_t)r];
  MPI_Bcast(&total, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  t->nnz = total;
  if (rank == 0) {
    t->num_entries = total;
    t->rows = (int32_t *)std::malloc(((size_t)total + 1) * sizeof(int32_t));
    t->cols = (int32_t *)std::malloc(((size_t)total + 1) * sizeof(int32_t));
    t->vals = (double *)std::malloc(((size_t)total + 1) * sizeof(double));
    if (!t->rows || !t->cols || !t->vals) throw std::bad_alloc();
  }
  MPI_Gatherv(rr.data(), cnt, MPI_INT32_T, t->rows, counts_r.data(), displs.data(), MPI_INT32_T, 0, MPI_COMM_WORLD);
  MPI_Gatherv(cc.data(), cnt, MPI_INT32_T, t->cols, counts_r.data(), displs.data(), MPI_INT32_T, 0, MPI_COMM_WORLD);
  MPI_Gatherv(vv.data(), cnt, MPI_DOUBLE, t->vals, counts_r.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}
} // namespace

extern "C" int bench_tpetra_available(void) { return 1; }

extern "C" int bench_tpetra_fem_run(bench_tpetra_fem_t *t) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  t->msg[0] = '\0';
  t->num_entries = 0, t->rows = t->cols = nullptr, t->vals = nullptr, t->total_samples = nullptr;
  if (!g_started) { /* MPI is running already: Tpetra starts Kokkos only, and finalizes no MPI */
    int argc = 1;
    char name[] = "strata", *argv0[] = {name, nullptr}, **argv = argv0;
    Tpetra::initialize(&argc, &argv);
    g_started = true;
    std::atexit(tpetra_stop);
  }
  int failed = 0;
  state S;
  try {
    setup(t, S, rank, size);
  } catch (const std::exception &x) {
    if (!t->msg[0]) std::snprintf(t->msg, sizeof t->msg, "the peer's setup: %s", x.what());
    failed = 1;
  }
  if (!agree(failed, t->msg, sizeof t->msg)) try {
      run(t, S, rank, size);
    } catch (const std::exception &x) { /* (an exception on one rank only may leave the others in a collective) */
      if (!t->msg[0]) std::snprintf(t->msg, sizeof t->msg, "Tpetra: %s", x.what());
      failed = 1;
    }
  fem_element_rows_free(t->e, &S.E, &S.imp);
  fem_dist_local_free(t->e, &S.L);
  strata_crs_destroy(&S.P);
  if (agree(failed, t->msg, sizeof t->msg)) {
    bench_tpetra_fem_free(t);
    return -1;
  }
  return 0;
}

extern "C" void bench_tpetra_fem_free(bench_tpetra_fem_t *t) {
  std::free(t->rows), std::free(t->cols), std::free(t->vals), std::free(t->total_samples);
  t->rows = t->cols = nullptr, t->vals = nullptr, t->total_samples = nullptr;
  t->num_entries = 0;
}
