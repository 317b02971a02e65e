/* strata dist — y = alpha·A·x + beta·y for the distributed CrsMatrix in the three modes of
 * Kreutzer et al. (IPDPSW 2012; strata/dist.h): vector (exchange, then compute), overlap (the
 * diagonal block between the start and the wait of the exchange) and task (a communication
 * thread starts the sends and waits while the calling thread computes the diagonal block). The
 * work and its order on the exec are the same in every mode, so y is the same bit for bit. */
#include <pthread.h>
#include <stdio.h>

#include "dist_impl.h"

/* the communication thread of one matrix: job 1 = start the import's sends and wait for the
 * exchange; -1 = quit. The handoff through the mutex orders the two threads' MPI calls
 * (MPI_THREAD_SERIALIZED is enough). */
struct strata_impl_task {
  pthread_t tid;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int job, done;
  strata_dist_plan_t *plan;
};

static void *task_main(void *arg) {
  strata_impl_task_t *T = (strata_impl_task_t *)arg;
  pthread_mutex_lock(&T->mu);
  for (;;) {
    while (T->job == 0) pthread_cond_wait(&T->cv, &T->mu);
    if (T->job < 0) break;
    pthread_mutex_unlock(&T->mu);
    strata_impl_plan_import_send(T->plan);
    strata_impl_plan_import_wait(T->plan);
    pthread_mutex_lock(&T->mu);
    T->job = 0;
    T->done = 1;
    pthread_cond_broadcast(&T->cv);
  }
  pthread_mutex_unlock(&T->mu);
  return NULL;
}

static strata_status_t task_create(strata_dist_plan_t *plan, strata_impl_task_t **out) {
  strata_impl_task_t *T = (strata_impl_task_t *)calloc(1, sizeof *T);
  if (!T) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "dist spmv (task): the thread's state");
  T->plan = plan;
  pthread_mutex_init(&T->mu, NULL);
  pthread_cond_init(&T->cv, NULL);
  const int rc = pthread_create(&T->tid, NULL, task_main, T);
  if (rc) {
    pthread_mutex_destroy(&T->mu);
    pthread_cond_destroy(&T->cv);
    free(T);
    return strata_error_set(STRATA_ERR_INTERNAL, "dist spmv (task): pthread_create failed (%s)", strerror(rc));
  }
  *out = T;
  return STRATA_SUCCESS;
}

void strata_impl_task_destroy(strata_impl_task_t **task) {
  strata_impl_task_t *T = *task;
  if (!T) return;
  pthread_mutex_lock(&T->mu);
  T->job = -1;
  pthread_cond_broadcast(&T->cv);
  pthread_mutex_unlock(&T->mu);
  pthread_join(T->tid, NULL);
  pthread_mutex_destroy(&T->mu);
  pthread_cond_destroy(&T->cv);
  free(T);
  *task = NULL;
}

static void task_go(strata_impl_task_t *T) {
  pthread_mutex_lock(&T->mu);
  T->done = 0;
  T->job = 1;
  pthread_cond_broadcast(&T->cv);
  pthread_mutex_unlock(&T->mu);
}

static void task_join(strata_impl_task_t *T) {
  pthread_mutex_lock(&T->mu);
  while (!T->done) pthread_cond_wait(&T->cv, &T->mu);
  pthread_mutex_unlock(&T->mu);
}

const char *strata_dist_mode_name(strata_dist_mode_t mode) {
  switch (mode) {
  case STRATA_DIST_VECTOR: return "vector";
  case STRATA_DIST_OVERLAP: return "overlap";
  case STRATA_DIST_TASK: return "task";
  }
  return NULL;
}

strata_status_t strata_dist_mode_from_name(const char *name, strata_dist_mode_t *mode) {
  if (!mode) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist mode: NULL mode");
  for (int m = 0; m < 3; ++m)
    if (name && strcmp(name, strata_dist_mode_name((strata_dist_mode_t)m)) == 0) {
      *mode = (strata_dist_mode_t)m;
      return STRATA_SUCCESS;
    }
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist mode '%s': one of vector, overlap, task",
                          name ? name : "(null)");
}

static int overlaps(const double *a, int64_t na, const double *b, int64_t nb) {
  return na > 0 && nb > 0 && a < b + nb && b < a + na;
}

/* what this rank finds wrong with the call (before any communication) */
static strata_status_t spmv_check(strata_exec_t *exec, strata_dist_mode_t mode, double alpha, const strata_dist_crs_t *A,
                                  const double *x, const double *y) {
  const char *what = "dist spmv";
  const int64_t nr = A->row_map->num_local, nc = A->domain_map->num_local;
  const int read_x = alpha != 0.0 && nr > 0;
  if (exec && strata_exec_backend(exec) != strata_exec_backend(A->exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec of backend %s, the matrix's is %s", what,
                            strata_backend_name(strata_exec_backend(exec)), strata_backend_name(strata_exec_backend(A->exec)));
  if (mode != STRATA_DIST_VECTOR && mode != STRATA_DIST_OVERLAP && mode != STRATA_DIST_TASK)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: mode %d is none of vector (0), overlap (1), task (2)", what,
                            (int)mode);
  if (!y && nr > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL y with %lld local rows", what, (long long)nr);
  if (!x && nc > 0 && read_x)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL x with %lld local columns", what, (long long)nc);
  if (read_x && overlaps(x, nc, y, nr))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: x [%lld] and y [%lld] overlap", what, (long long)nc,
                            (long long)nr);
  if (mode == STRATA_DIST_TASK) {
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_SERIALIZED)
      return strata_error_set(STRATA_ERR_UNSUPPORTED,
                              "%s: task mode needs MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE (its communication thread "
                              "calls MPI), and MPI granted %s: initialize MPI with MPI_Init_thread(..., "
                              "MPI_THREAD_SERIALIZED, ...) or use vector or overlap mode",
                              what, strata_dist_thread_level_name(level));
  }
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_crs_spmv(strata_exec_t *exec, strata_dist_mode_t mode, double alpha,
                                     const strata_dist_crs_t *Ac, const double *x, double beta, double *y) {
  if (!Ac) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist spmv: NULL A");
  strata_dist_crs_t *A = (strata_dist_crs_t *)Ac; /* its plan and thread change, not the matrix */
  strata_dist_plan_t *P = A->plan;
  if (P->state != STRATA_IMPL_IDLE)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "dist spmv: exchange in flight on the matrix's plan (applies of one matrix must not overlap)");
  strata_status_t st = spmv_check(exec, mode, alpha, A, x, y);
  if (!st && mode == STRATA_DIST_TASK && !A->task) st = task_create(P, &A->task);
  const int ok = st == STRATA_SUCCESS;
  strata_exec_t *ex = !ok || !exec ? A->exec : exec;
  const int task = ok && mode == STRATA_DIST_TASK, overlap = ok && mode == STRATA_DIST_OVERLAP;
  strata_impl_agree_t agree;
  strata_impl_agree_begin(&agree, P->comm, st);
  strata_status_t cs = STRATA_SUCCESS; /* the products' status on this rank */
#define STRATA_KEEP(call)            \
  do {                               \
    strata_status_t s_ = (call);     \
    if (!cs) cs = s_;                \
  } while (0)
  strata_impl_plan_quiesce(P, ex);
  strata_impl_plan_import_post(P);
  STRATA_KEEP(strata_impl_plan_import_pack(P, ex, x, ok && alpha != 0.0));
  if (task) {
    task_go(A->task);
  } else {
    strata_impl_plan_import_send(P);
    if (!overlap) strata_impl_plan_import_wait(P);
  }
  if (ok) STRATA_KEEP(strata_spmv_plan_apply(ex, A->pdiag, alpha, A->diag, x, beta, y));
  if (task) task_join(A->task);
  else if (overlap) strata_impl_plan_import_wait(P);
  P->cur_exec = ex;
  if (ok && alpha != 0.0 && A->offdiag->nnz > 0) {
    STRATA_KEEP(strata_impl_plan_import_finish(P, ex));
    STRATA_KEEP(strata_spmv_plan_apply(ex, A->poff, alpha, A->offdiag, P->ghost_buf, 1.0, y));
  }
  STRATA_KEEP(strata_impl_plan_release_exec(P, ex)); /* a caller's exec: fenced, not remembered */
#undef STRATA_KEEP
  strata_status_t agreed = strata_impl_agree_end(&agree);
  if (agreed) return agreed;
  /* the products are asynchronous: a fault in them is this rank's (it surfaces at a fence) */
  return cs;
}
