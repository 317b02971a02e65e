/* strata dist — maps: contiguous (offsets of every rank) and arbitrary lists (a host hash for
 * global-to-local lookup, a distributed directory for owners), strata/dist.h. Tpetra's Map and
 * Directory are the model: the directory cuts the id space [0, max_gid] into p blocks and rank r
 * keeps (owner, local id) of the ids of block r. */
#include <stdio.h>

#include "dist_impl.h"

static uint64_t hash_gid(int64_t g) {
  uint64_t z = (uint64_t)g + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int32_t strata_impl_map_lid(const strata_dist_map_t *map, int64_t gid) {
  if (map->contiguous) {
    const int64_t b = map->offsets[map->rank];
    return gid >= b && gid < b + map->num_local ? (int32_t)(gid - b) : -1;
  }
  if (gid < 0 || !map->hcap) return -1;
  for (uint64_t h = hash_gid(gid) & (uint64_t)(map->hcap - 1);; h = (h + 1) & (uint64_t)(map->hcap - 1)) {
    if (map->hkeys[h] == gid) return map->hvals[h];
    if (map->hkeys[h] < 0) return -1;
  }
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* the rank whose contiguous range holds g (offsets [size + 1]), or -1 */
static int contiguous_owner(const strata_dist_map_t *map, int64_t g) {
  if (g < 0 || g >= map->num_global) return -1;
  int lo = 0, hi = map->size; /* largest r with offsets[r] <= g */
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (map->offsets[mid] <= g) lo = mid;
    else hi = mid;
  }
  return lo;
}

static void map_free(strata_dist_map_t *m) {
  if (!m) return;
  free(m->offsets);
  free(m->gids);
  free(m->hkeys);
  free(m->hvals);
  free(m->dir_gids);
  free(m->dir_owner);
  free(m->dir_lid);
  if (m->comm != MPI_COMM_NULL) MPI_Comm_free(&m->comm);
  free(m);
}

/* a new map on a duplicate of comm (collective); NULL only if malloc failed, after the dup was
 * balanced by everyone (the caller agrees on that) */
static strata_status_t map_start(MPI_Comm comm, const char *what, strata_dist_map_t **out) {
  *out = NULL;
  if (!strata_impl_mpi_ready(what)) return STRATA_ERR_INVALID_ARGUMENT;
  if (comm == MPI_COMM_NULL) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: MPI_COMM_NULL", what);
  MPI_Comm dup;
  MPI_Comm_dup(comm, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL); /* a duplicate inherits the caller's handler */
  strata_dist_map_t *m = (strata_dist_map_t *)calloc(1, sizeof *m);
  strata_status_t st = m ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the map object", what);
  st = strata_impl_agree(dup, st);
  if (st) {
    free(m);
    MPI_Comm_free(&dup);
    return st;
  }
  m->comm = dup;
  MPI_Comm_rank(dup, &m->rank);
  MPI_Comm_size(dup, &m->size);
  m->max_gid = -1;
  *out = m;
  return STRATA_SUCCESS;
}

/* contiguous: offsets from every rank's count (collective) */
static strata_status_t map_contiguous(strata_dist_map_t *m, int64_t num_local, const char *what) {
  m->offsets = (int64_t *)strata_impl_alloc(m->size + 1, sizeof(int64_t));
  strata_status_t st = m->offsets ? STRATA_SUCCESS
                                  : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: offsets of %d ranks", what, m->size);
  if ((st = strata_impl_agree(m->comm, st))) return st;
  MPI_Allgather(&num_local, 1, MPI_INT64_T, m->offsets + 1, 1, MPI_INT64_T, m->comm);
  m->offsets[0] = 0;
  for (int r = 0; r < m->size; ++r) m->offsets[r + 1] += m->offsets[r];
  m->contiguous = 1;
  m->num_local = (int32_t)num_local;
  m->num_global = m->offsets[m->size];
  m->max_gid = m->num_global - 1;
  return STRATA_SUCCESS;
}

/* the arguments every creator of a map from local counts checks */
static strata_status_t check_local(strata_dist_map_t **map, int64_t num_local, const char *what) {
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL map", what);
  if (num_local < 0 || num_local > INT32_MAX)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_local %lld outside [0, %d]", what, (long long)num_local,
                            INT32_MAX);
  return STRATA_SUCCESS;
}

/* the end of the contiguous creators: st agreed, then the offsets; the map freed on error */
static strata_status_t map_finish_contiguous(strata_dist_map_t *m, strata_status_t st, int64_t num_local, const char *what,
                                             strata_dist_map_t **map) {
  if (!(st = strata_impl_agree(m->comm, st))) st = map_contiguous(m, num_local, what);
  if (st) {
    map_free(m);
    if (map) *map = NULL;
    return st;
  }
  *map = m;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_map_create_block(MPI_Comm comm, int64_t num_global, strata_dist_map_t **map) {
  const char *what = "dist map (block)";
  strata_dist_map_t *m = NULL;
  strata_status_t st = map_start(comm, what, &m);
  if (st) return st;
  if (!map) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL map", what);
  else if (num_global < 0) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_global %lld < 0", what, (long long)num_global);
  int64_t mm[2] = {num_global, -num_global}, got[2];
  MPI_Allreduce(mm, got, 2, MPI_INT64_T, MPI_MAX, m->comm);
  if (!st && got[0] != -got[1])
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_global differs between ranks (%lld and %lld; this rank %lld)",
                          what, (long long)-got[1], (long long)got[0], (long long)num_global);
  const int64_t q = num_global / m->size, rem = num_global % m->size;
  const int64_t mine = q + (m->rank < rem);
  if (!st && q + (rem > 0) > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %lld ids on %d ranks give %lld on a rank, above the %d local ids",
                          what, (long long)num_global, m->size, (long long)(q + (rem > 0)), INT32_MAX);
  return map_finish_contiguous(m, st, mine, what, map);
}

strata_status_t strata_dist_map_create_contiguous(MPI_Comm comm, int64_t num_local, strata_dist_map_t **map) {
  const char *what = "dist map (contiguous)";
  strata_dist_map_t *m = NULL;
  strata_status_t st = map_start(comm, what, &m);
  if (st) return st;
  st = check_local(map, num_local, what);
  return map_finish_contiguous(m, st, num_local, what, map);
}

static strata_status_t map_hash(strata_dist_map_t *m, const char *what) {
  int64_t cap = 16;
  while (cap < 2 * (int64_t)m->num_local) cap *= 2;
  m->hkeys = (int64_t *)strata_impl_alloc(cap, sizeof(int64_t));
  m->hvals = (int32_t *)strata_impl_alloc(cap, sizeof(int32_t));
  if (!m->hkeys || !m->hvals)
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: hash table of %lld slots", what, (long long)cap);
  m->hcap = cap;
  for (int64_t i = 0; i < cap; ++i) m->hkeys[i] = -1;
  for (int32_t l = 0; l < m->num_local; ++l) {
    uint64_t h = hash_gid(m->gids[l]) & (uint64_t)(cap - 1);
    while (m->hkeys[h] >= 0) h = (h + 1) & (uint64_t)(cap - 1);
    m->hkeys[h] = m->gids[l];
    m->hvals[h] = l;
  }
  return STRATA_SUCCESS;
}

typedef struct dir_rec {
  int64_t gid;
  int32_t owner, lid;
} dir_rec_t;

static int cmp_dir(const void *a, const void *b) {
  const dir_rec_t *x = (const dir_rec_t *)a, *y = (const dir_rec_t *)b;
  if (x->gid != y->gid) return x->gid < y->gid ? -1 : 1;
  return x->owner < y->owner ? -1 : x->owner > y->owner;
}

/* the directory rank of gid g (0 <= g <= max_gid) */
static int dir_rank(const strata_dist_map_t *m, int64_t g) { return (int)((uint64_t)g / m->dir_block); }

/* the directory: (gid, lid) to rank gid / dir_block, which sorts and checks them (collective) */
static strata_status_t map_directory(strata_dist_map_t *m, const char *what) {
  const int p = m->size;
  /* ceil((max_gid + 1) / p), in uint64: max_gid + p overflows int64 for ids near INT64_MAX, and
   * the result itself is 2^63 for p = 1 and an id INT64_MAX */
  m->dir_block = m->max_gid < 0 ? 1 : (uint64_t)m->max_gid / (uint64_t)p + 1;
  int64_t *cnt = (int64_t *)calloc((size_t)p, sizeof *cnt), *rcnt = (int64_t *)calloc((size_t)p, sizeof *rcnt);
  int64_t *pos = (int64_t *)calloc((size_t)p + 1, sizeof *pos);
  dir_rec_t *send = (dir_rec_t *)strata_impl_alloc(m->num_local, sizeof *send);
  strata_status_t st = cnt && rcnt && pos && send ? STRATA_SUCCESS
                                                  : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: directory", what);
  st = strata_impl_agree(m->comm, st);
  dir_rec_t *recv = NULL;
  int64_t nrecv = 0;
  if (!st) {
    for (int32_t l = 0; l < m->num_local; ++l) cnt[dir_rank(m, m->gids[l])]++;
    for (int r = 0; r < p; ++r) pos[r + 1] = pos[r] + cnt[r];
    for (int32_t l = 0; l < m->num_local; ++l) {
      dir_rec_t d = {m->gids[l], m->rank, l};
      send[pos[dir_rank(m, m->gids[l])]++] = d;
    }
    st = strata_impl_exchange(m->comm, sizeof(dir_rec_t), cnt, send, rcnt, (void **)&recv, &nrecv);
  }
  if (!st) {
    qsort(recv, (size_t)nrecv, sizeof *recv, cmp_dir);
    for (int64_t i = 1; i < nrecv; ++i)
      if (recv[i].gid == recv[i - 1].gid) {
        st = strata_error_set(STRATA_ERR_INVALID_DATA,
                              "%s: global id %lld is owned twice: by rank %d (local id %d) and rank %d (local id %d); "
                              "a map's ids must be one-to-one",
                              what, (long long)recv[i].gid, (int)recv[i - 1].owner, (int)recv[i - 1].lid,
                              (int)recv[i].owner, (int)recv[i].lid);
        break;
      }
    if (!st) {
      m->dir_n = nrecv;
      m->dir_gids = (int64_t *)strata_impl_alloc(nrecv, sizeof(int64_t));
      m->dir_owner = (int32_t *)strata_impl_alloc(nrecv, sizeof(int32_t));
      m->dir_lid = (int32_t *)strata_impl_alloc(nrecv, sizeof(int32_t));
      if (!m->dir_gids || !m->dir_owner || !m->dir_lid)
        st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: directory of %lld ids", what, (long long)nrecv);
      for (int64_t i = 0; !st && i < nrecv; ++i) {
        m->dir_gids[i] = recv[i].gid;
        m->dir_owner[i] = recv[i].owner;
        m->dir_lid[i] = recv[i].lid;
      }
    }
    st = strata_impl_agree(m->comm, st);
  }
  free(cnt);
  free(rcnt);
  free(pos);
  free(send);
  free(recv);
  return st;
}

strata_status_t strata_dist_map_create_list(MPI_Comm comm, int64_t num_local, const int64_t *gids,
                                            strata_dist_map_t **map) {
  const char *what = "dist map (list)";
  strata_dist_map_t *m = NULL;
  strata_status_t st = map_start(comm, what, &m);
  if (st) return st;
  st = check_local(map, num_local, what);
  if (!st && !gids && num_local > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL gids with num_local %lld", what, (long long)num_local);
  for (int64_t i = 0; !st && i < num_local; ++i)
    if (gids[i] < 0)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: gids[%lld] = %lld is negative (ids are 0 .. 2^63-1; an unsigned id beyond 2^63 reads "
                            "as negative)",
                            what, (long long)i, (long long)gids[i]);
  int64_t *sorted = NULL;
  if (!st) {
    m->gids = (int64_t *)strata_impl_alloc(num_local, sizeof(int64_t));
    sorted = (int64_t *)strata_impl_alloc(num_local, sizeof(int64_t));
    if (!m->gids || !sorted) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ids", what, (long long)num_local);
  }
  if (!st) {
    memcpy(m->gids, gids, (size_t)num_local * sizeof(int64_t));
    memcpy(sorted, gids, (size_t)num_local * sizeof(int64_t));
    qsort(sorted, (size_t)num_local, sizeof(int64_t), cmp_i64);
    for (int64_t i = 1; i < num_local; ++i)
      if (sorted[i] == sorted[i - 1]) {
        st = strata_error_set(STRATA_ERR_INVALID_DATA,
                              "%s: global id %lld is given twice on rank %d; a map's ids must be one-to-one", what,
                              (long long)sorted[i], m->rank);
        break;
      }
  }
  free(sorted);
  if ((st = strata_impl_agree(m->comm, st))) {
    map_free(m);
    if (map) *map = NULL;
    return st;
  }
  m->num_local = (int32_t)num_local;
  /* contiguous in disguise? (count, first, consecutive ascending) of every rank */
  int64_t mine[3] = {num_local, num_local ? gids[0] : -1, 1};
  for (int64_t i = 1; i < num_local; ++i)
    if (gids[i] - 1 != gids[i - 1]) mine[2] = 0; /* ids are >= 0 here: no overflow at INT64_MAX */
  int64_t *all = (int64_t *)strata_impl_alloc(3 * (int64_t)m->size, sizeof(int64_t));
  st = all ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d ranks' sizes", what, m->size);
  if (!(st = strata_impl_agree(m->comm, st))) {
    MPI_Allgather(mine, 3, MPI_INT64_T, all, 3, MPI_INT64_T, m->comm);
    int contiguous = 1;
    int64_t next = 0, total = 0, maxg = -1;
    for (int r = 0; r < m->size; ++r) {
      const int64_t c = all[3 * r], f = all[3 * r + 1];
      if (c > 0) {
        if (!all[3 * r + 2] || f != next) contiguous = 0;
        if (contiguous) next = f + c; /* f + c may overflow once it is not */
      }
      total += c;
    }
    for (int64_t i = 0; i < num_local; ++i)
      if (gids[i] > maxg) maxg = gids[i];
    MPI_Allreduce(MPI_IN_PLACE, &maxg, 1, MPI_INT64_T, MPI_MAX, m->comm);
    m->num_global = total;
    m->max_gid = maxg;
    if (contiguous) {
      free(m->gids);
      m->gids = NULL;
      st = map_contiguous(m, num_local, what);
    } else {
      st = strata_impl_agree(m->comm, map_hash(m, what));
      if (!st) st = map_directory(m, what);
    }
  }
  free(all);
  if (st) {
    map_free(m);
    *map = NULL;
    return st;
  }
  *map = m;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_map_destroy(strata_dist_map_t **map) {
  if (!map || !*map) return STRATA_SUCCESS;
  map_free(*map);
  *map = NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_map_info(const strata_dist_map_t *map, strata_dist_map_info_t *info) {
  if (!map || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map info: NULL %s", map ? "info" : "map");
  info->comm = map->comm;
  info->rank = map->rank;
  info->size = map->size;
  info->num_global = map->num_global;
  info->num_local = map->num_local;
  info->max_gid = map->max_gid;
  info->contiguous = map->contiguous;
  info->first_gid = map->contiguous ? map->offsets[map->rank] : -1;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_map_lid(const strata_dist_map_t *map, int64_t gid, int32_t *lid) {
  if (!map || !lid) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map lid: NULL %s", map ? "lid" : "map");
  *lid = strata_impl_map_lid(map, gid);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_map_gids(const strata_dist_map_t *map, int64_t *gids) {
  if (!map || (!gids && map->num_local > 0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map gids: NULL %s", map ? "gids" : "map");
  for (int32_t l = 0; l < map->num_local; ++l) gids[l] = map->contiguous ? map->offsets[map->rank] + l : map->gids[l];
  return STRATA_SUCCESS;
}

typedef struct owner_rec {
  int32_t owner, lid;
} owner_rec_t;

/* list maps: the distinct ids to their directory ranks, the answers back */
static strata_status_t owners_directory(const strata_dist_map_t *m, int64_t n, const int64_t *gids, int *owners,
                                        int32_t *lids) {
  const char *what = "dist map owners";
  const int p = m->size;
  int64_t *u = (int64_t *)strata_impl_alloc(n, sizeof(int64_t));
  int64_t *cnt = (int64_t *)calloc((size_t)p, sizeof(int64_t)), *rcnt = (int64_t *)calloc((size_t)p, sizeof(int64_t));
  strata_status_t st = u && cnt && rcnt ? STRATA_SUCCESS
                                        : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ids", what, (long long)n);
  st = strata_impl_agree(m->comm, st);
  int64_t nu = 0, nq = 0, nback = 0;
  int64_t *q = NULL;
  owner_rec_t *ans = NULL, *back = NULL;
  if (!st) {
    for (int64_t i = 0; i < n; ++i)
      if (gids[i] >= 0 && gids[i] <= m->max_gid) u[nu++] = gids[i];
    qsort(u, (size_t)nu, sizeof *u, cmp_i64);
    int64_t k = 0;
    for (int64_t i = 0; i < nu; ++i)
      if (i == 0 || u[i] != u[k - 1]) u[k++] = u[i];
    nu = k;
    for (int64_t i = 0; i < nu; ++i) cnt[dir_rank(m, u[i])]++; /* u ascending: grouped by rank */
    st = strata_impl_exchange(m->comm, sizeof(int64_t), cnt, u, rcnt, (void **)&q, &nq);
  }
  if (!st) {
    ans = (owner_rec_t *)strata_impl_alloc(nq, sizeof *ans);
    st = ans ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld answers", what, (long long)nq);
    for (int64_t i = 0; !st && i < nq; ++i) {
      int64_t lo = 0, hi = m->dir_n;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (m->dir_gids[mid] < q[i]) lo = mid + 1;
        else hi = mid;
      }
      const int hit = lo < m->dir_n && m->dir_gids[lo] == q[i];
      ans[i].owner = hit ? m->dir_owner[lo] : -1;
      ans[i].lid = hit ? m->dir_lid[lo] : -1;
    }
    st = strata_impl_agree(m->comm, st);
  }
  if (!st) st = strata_impl_exchange(m->comm, sizeof(owner_rec_t), rcnt, ans, cnt, (void **)&back, &nback);
  if (!st) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t lo = 0, hi = nu;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (u[mid] < gids[i]) lo = mid + 1;
        else hi = mid;
      }
      const int hit = gids[i] >= 0 && lo < nu && u[lo] == gids[i];
      owners[i] = hit ? back[lo].owner : -1;
      if (lids) lids[i] = hit ? back[lo].lid : -1;
    }
  }
  free(u);
  free(cnt);
  free(rcnt);
  free(q);
  free(ans);
  free(back);
  return st;
}

strata_status_t strata_dist_map_owners(const strata_dist_map_t *map, int64_t n, const int64_t *gids, int *owners,
                                       int32_t *lids) {
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map owners: NULL map");
  strata_status_t st = STRATA_SUCCESS;
  if (n < 0) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map owners: n %lld < 0", (long long)n);
  else if (n > 0 && (!gids || !owners))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist map owners: NULL %s with n %lld", gids ? "owners" : "gids",
                          (long long)n);
  if ((st = strata_impl_agree(map->comm, st))) return st;
  if (!map->contiguous) return owners_directory(map, n, gids, owners, lids);
  for (int64_t i = 0; i < n; ++i) {
    const int r = contiguous_owner(map, gids[i]);
    owners[i] = r;
    if (lids) lids[i] = r < 0 ? -1 : (int32_t)(gids[i] - map->offsets[r]);
  }
  return STRATA_SUCCESS;
}
