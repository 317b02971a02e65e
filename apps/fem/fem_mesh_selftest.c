/*
 * fem_mesh_selftest.c — standalone check of fem_mesh.{h,c}.
 *
 *   fem_mesh_selftest [-v] [dir]         full self test (h = 0.1 and 0.05, I/O, corrupt files);
 *                                        temporary files go to dir (default /tmp)
 *   fem_mesh_selftest --time h1 h2 ...   generation timing table only
 *
 * Exit status 0 when every check passes.
 */
#define _POSIX_C_SOURCE 200809L

#include "fem_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

static int failures = 0;

#define CHECK(cond, ...)                                                                         \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      failures++;                                                                                \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                     \
      printf(__VA_ARGS__);                                                                       \
      printf("\n");                                                                              \
    }                                                                                            \
  } while (0)

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double tet_det(const fem_mesh_t *m, int64_t e)
{
  const int32_t *t = &m->tets[4 * e];
  const double *a = &m->xyz[3 * (size_t)t[0]], *b = &m->xyz[3 * (size_t)t[1]],
               *c = &m->xyz[3 * (size_t)t[2]], *d = &m->xyz[3 * (size_t)t[3]];
  const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double e3[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
         e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
}

typedef struct {
  int32_t v[3];
} face_t;

static int face_cmp(const void *pa, const void *pb)
{
  const face_t *a = pa, *b = pb;
  for (int k = 0; k < 3; k++)
    if (a->v[k] != b->v[k]) return a->v[k] < b->v[k] ? -1 : 1;
  return 0;
}

static void sort3(int32_t *v)
{
  int32_t t;
  if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
  if (v[1] > v[2]) { t = v[1]; v[1] = v[2]; v[2] = t; }
  if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
}

static double tri_area(const fem_mesh_t *m, const int32_t *v)
{
  const double *a = &m->xyz[3 * (size_t)v[0]], *b = &m->xyz[3 * (size_t)v[1]], *c = &m->xyz[3 * (size_t)v[2]];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double x = u[1] * w[2] - u[2] * w[1], y = u[2] * w[0] - u[0] * w[2], z = u[0] * w[1] - u[1] * w[0];
  return 0.5 * sqrt(x * x + y * y + z * z);
}

/* Structural checks of a generated mesh; prints the statistics line. */
static void check_mesh(const fem_mesh_t *m, double h, double secs)
{
  const double pi = 3.14159265358979323846;
  const double exact_vol = 1.0 - pi * 0.25 * 0.25;
  const double exact_area = 6.0 - 2.0 * pi * 0.0625 + 2.0 * pi * 0.25; /* outer faces + hole wall */
  int64_t nb = 0, bad_flag = 0, unused = 0, wall_nodes = 0, wall_flagged = 0;
  double vol = 0.0, vmin = INFINITY;
  int64_t bad_ids = 0;
  for (int64_t e = 0; e < m->num_tets; e++) {
    for (int k = 0; k < 4; k++)
      if (m->tets[4 * e + k] < 0 || m->tets[4 * e + k] >= m->num_nodes) bad_ids++;
  }
  CHECK(bad_ids == 0, "%lld tet ids out of range", (long long)bad_ids);
  if (bad_ids) return;
  unsigned char *used = calloc((size_t)m->num_nodes, 1);
  for (int64_t e = 0; e < m->num_tets; e++) {
    const double v = tet_det(m, e) / 6.0;
    vol += v;
    if (v < vmin) vmin = v;
    for (int k = 0; k < 4; k++) used[m->tets[4 * e + k]] = 1;
  }
  for (int64_t i = 0; i < m->num_nodes; i++) {
    const double *x = &m->xyz[3 * i];
    int on_face = 0;
    for (int d = 0; d < 3; d++)
      if (fabs(x[d]) < 1e-9 || fabs(x[d] - 1.0) < 1e-9) on_face = 1;
    const double r = hypot(x[0] - 0.5, x[1] - 0.5);
    const int on_wall = fabs(r - 0.25) < 1e-9;
    if (on_wall) {
      wall_nodes++;
      if (m->on_boundary[i]) wall_flagged++;
    }
    if (m->on_boundary[i]) nb++;
    if ((m->on_boundary[i] != 0) != on_face) bad_flag++;
    if (!used[i]) unused++;
  }
  free(used);

  /* Boundary faces (faces of exactly one tet): conformity check through their total area. */
  face_t *faces = malloc(sizeof *faces * (size_t)m->num_tets * 4);
  static const int fv[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  for (int64_t e = 0; e < m->num_tets; e++)
    for (int f = 0; f < 4; f++) {
      face_t *fc = &faces[4 * e + f];
      for (int k = 0; k < 3; k++) fc->v[k] = m->tets[4 * e + fv[f][k]];
      sort3(fc->v);
    }
  const size_t nf = (size_t)m->num_tets * 4;
  qsort(faces, nf, sizeof *faces, face_cmp);
  double area = 0.0;
  int64_t nbf = 0, over_shared = 0;
  for (size_t i = 0; i < nf;) {
    size_t j = i + 1;
    while (j < nf && face_cmp(&faces[i], &faces[j]) == 0) j++;
    if (j - i == 1) {
      area += tri_area(m, faces[i].v);
      nbf++;
    } else if (j - i > 2) {
      over_shared++;
    }
    i = j;
  }
  free(faces);

  printf("h=%-6g nodes=%-9lld tets=%-9lld boundary_nodes=%-7lld hole_wall_nodes=%-6lld volume=%.5f "
         "(exact %.5f, err %+.2f%%) min_tet_vol=%.3e bnd_area=%.4f (exact %.4f) gen=%.2fs\n",
         h, (long long)m->num_nodes, (long long)m->num_tets, (long long)nb, (long long)wall_nodes, vol,
         exact_vol, 100.0 * (vol - exact_vol) / exact_vol, vmin, area, exact_area, secs);
  CHECK(m->num_nodes > 0 && m->num_tets > 0, "empty mesh");
  CHECK(vmin > 0.0, "min tet volume %g", vmin);
  CHECK(fabs(vol - exact_vol) < 0.03 * exact_vol, "volume %g vs %g", vol, exact_vol);
  CHECK(fabs(area - exact_area) < 0.03 * exact_area, "boundary area %g vs %g", area, exact_area);
  CHECK(over_shared == 0, "%lld faces shared by > 2 tets", (long long)over_shared);
  CHECK(bad_flag == 0, "%lld nodes whose boundary flag disagrees with coordinates", (long long)bad_flag);
  CHECK(unused == 0, "%lld nodes used by no tet", (long long)unused);
  CHECK(wall_nodes > 0, "no nodes on the hole wall");
  /* only the wall's nodes on the two circles at z = 0 and z = 1 may be flagged */
  CHECK(wall_flagged < wall_nodes / 2, "%lld of %lld hole wall nodes flagged", (long long)wall_flagged,
        (long long)wall_nodes);
  CHECK(nb > 0, "no boundary nodes");
}

static long file_size(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long s = ftell(f);
  fclose(f);
  return s;
}

static unsigned char *read_all(const char *path, long *size)
{
  *size = file_size(path);
  if (*size < 0) return NULL;
  unsigned char *buf = malloc((size_t)*size + 1);
  FILE *f = fopen(path, "rb");
  if (fread(buf, 1, (size_t)*size, f) != (size_t)*size) *size = -1;
  fclose(f);
  return buf;
}

static void write_all(const char *path, const unsigned char *buf, long size)
{
  FILE *f = fopen(path, "wb");
  if (size > 0) fwrite(buf, 1, (size_t)size, f);
  fclose(f);
}

static int meshes_equal(const fem_mesh_t *a, const fem_mesh_t *b)
{
  if (a->num_nodes != b->num_nodes || a->num_tets != b->num_tets) return 0;
  const size_t n = (size_t)a->num_nodes, m = (size_t)a->num_tets;
  if (n && memcmp(a->xyz, b->xyz, n * 3 * sizeof(double)) != 0) return 0;
  if (m && memcmp(a->tets, b->tets, m * 4 * sizeof(int32_t)) != 0) return 0;
  if (n && memcmp(a->on_boundary, b->on_boundary, n) != 0) return 0;
  return 1;
}

/* Writes a corrupted copy of good[] and expects fem_mesh_load to refuse it. */
static void expect_refused_msg(const char *label, const char *path, const unsigned char *buf, long size,
                               int expect_status, const char *want);
static void expect_refused(const char *label, const char *path, const unsigned char *buf, long size,
                           int expect_status)
{
  expect_refused_msg(label, path, buf, size, expect_status, NULL);
}
/* want: a part of the message (NULL: any) */
static void expect_refused_msg(const char *label, const char *path, const unsigned char *buf, long size,
                               int expect_status, const char *want)
{
  write_all(path, buf, size);
  fem_mesh_t m;
  memset(&m, 0xAB, sizeof m); /* poison */
  char msg[512] = "unset";
  const int st = fem_mesh_load(path, &m, msg, sizeof msg);
  printf("  corrupt %-22s -> status %d: %s\n", label, st, msg);
  CHECK(st == expect_status, "%s: status %d, expected %d", label, st, expect_status);
  CHECK(strlen(msg) > 0 && strcmp(msg, "unset") != 0 && strstr(msg, path) != NULL,
        "%s: message must name the file", label);
  CHECK(!want || strstr(msg, want), "%s: message without '%s'", label, want ? want : "");
  CHECK(m.num_nodes == 0 && m.num_tets == 0 && !m.xyz && !m.tets && !m.on_boundary,
        "%s: mesh not zeroed on error", label);
}

static void test_io(const fem_mesh_t *mesh, const char *dir)
{
  char path[1024], bad[1024], msg[512];
  snprintf(path, sizeof path, "%s/fem_mesh_selftest_good.strmesh", dir);
  snprintf(bad, sizeof bad, "%s/fem_mesh_selftest_bad.strmesh", dir);
  int st = fem_mesh_save(mesh, path, msg, sizeof msg);
  CHECK(st == 0, "save: %s", msg);
  const long expected = 32 + 25 * (long)mesh->num_nodes + 16 * (long)mesh->num_tets;
  CHECK(file_size(path) == expected, "file size %ld, expected %ld", file_size(path), expected);
  fem_mesh_t back;
  st = fem_mesh_load(path, &back, msg, sizeof msg);
  CHECK(st == 0, "load: %s", msg);
  CHECK(st == 0 && meshes_equal(mesh, &back), "loaded mesh differs bitwise");
  fem_mesh_destroy(&back);
  printf("  save/load %lld nodes, %lld tets, %ld bytes: bitwise equal\n", (long long)mesh->num_nodes,
         (long long)mesh->num_tets, expected);

  long size;
  unsigned char *good = read_all(path, &size);
  unsigned char *buf = malloc((size_t)size + 16);

  expect_refused_msg("truncated (-1 byte)", bad, good, size - 1, FEM_MESH_ERR_FORMAT, "(truncated)");
  expect_refused_msg("truncated (half)", bad, good, size / 2, FEM_MESH_ERR_FORMAT, "(truncated)");
  expect_refused("truncated header", bad, good, 20, FEM_MESH_ERR_FORMAT);
  expect_refused("empty file", bad, good, 0, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  buf[size] = 0;
  expect_refused("trailing byte", bad, buf, size + 1, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  memcpy(buf, "STRMESH2", 8);
  expect_refused("bad magic", bad, buf, size, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  { uint32_t v = 2; memcpy(buf + 8, &v, 4); }
  expect_refused("version 2", bad, buf, size, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  { uint32_t v = 7; memcpy(buf + 12, &v, 4); }
  expect_refused("reserved != 0", bad, buf, size, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  { int64_t v = -5; memcpy(buf + 16, &v, 8); }
  expect_refused("negative num_nodes", bad, buf, size, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  { int64_t v = INT64_MAX / 2; memcpy(buf + 24, &v, 8); }
  expect_refused("absurd num_tets", bad, buf, size, FEM_MESH_ERR_FORMAT);
  memcpy(buf, good, (size_t)size);
  { int64_t v = mesh->num_nodes + 1; memcpy(buf + 16, &v, 8); }
  expect_refused("num_nodes + 1", bad, buf, size, FEM_MESH_ERR_FORMAT);
  if (mesh->num_tets > 0) {
    const long tets_off = 32 + 24 * (long)mesh->num_nodes;
    memcpy(buf, good, (size_t)size);
    { int32_t v = (int32_t)mesh->num_nodes; memcpy(buf + tets_off + 4 * (4 * (mesh->num_tets / 2) + 2), &v, 4); }
    expect_refused("tet id == n", bad, buf, size, FEM_MESH_ERR_FORMAT);
    memcpy(buf, good, (size_t)size);
    { int32_t v = -1; memcpy(buf + tets_off + 4 * (4 * (mesh->num_tets - 1) + 3), &v, 4); }
    expect_refused("tet id == -1", bad, buf, size, FEM_MESH_ERR_FORMAT);
  }
  if (mesh->num_nodes > 0) {
    memcpy(buf, good, (size_t)size);
    buf[size - 1] = 2;
    expect_refused("boundary flag 2", bad, buf, size, FEM_MESH_ERR_FORMAT);
  }
  {
    char missing[1100];
    snprintf(missing, sizeof missing, "%s/no_such_dir/x.strmesh", dir);
    fem_mesh_t m;
    st = fem_mesh_load(missing, &m, msg, sizeof msg);
    printf("  missing file             -> status %d: %s\n", st, msg);
    CHECK(st == FEM_MESH_ERR_IO && strstr(msg, missing), "missing file: %d %s", st, msg);
    st = fem_mesh_save(mesh, missing, msg, sizeof msg);
    printf("  save to missing dir      -> status %d: %s\n", st, msg);
    CHECK(st == FEM_MESH_ERR_IO && strstr(msg, missing), "save to missing dir: %d %s", st, msg);
  }
  free(buf);
  free(good);
  remove(path);
  remove(bad);
}

static void test_empty_and_args(const char *dir)
{
  char path[1024], msg[512];
  snprintf(path, sizeof path, "%s/fem_mesh_selftest_empty.strmesh", dir);
  fem_mesh_t empty = {0};
  int st = fem_mesh_save(&empty, path, msg, sizeof msg);
  CHECK(st == 0, "save empty: %s", msg);
  CHECK(file_size(path) == 32, "empty file size %ld", file_size(path));
  fem_mesh_t back;
  memset(&back, 0xCD, sizeof back);
  st = fem_mesh_load(path, &back, msg, sizeof msg);
  CHECK(st == 0 && back.num_nodes == 0 && back.num_tets == 0, "load empty: %s", msg);
  fem_mesh_destroy(&back);
  fem_mesh_destroy(&back); /* twice is fine */
  fem_mesh_destroy(NULL);
  remove(path);
  printf("  empty mesh save/load: ok\n");

  /* a mesh with nodes but no tets */
  double xyz[6] = {0, 0, 0, 1, 1, 1};
  uint8_t bnd[2] = {1, 0};
  fem_mesh_t nodes_only = {2, 0, xyz, NULL, bnd};
  st = fem_mesh_save(&nodes_only, path, msg, sizeof msg);
  CHECK(st == 0, "save nodes-only: %s", msg);
  st = fem_mesh_load(path, &back, msg, sizeof msg);
  CHECK(st == 0 && meshes_equal(&nodes_only, &back), "load nodes-only: %s", msg);
  fem_mesh_destroy(&back);
  remove(path);

  const double bad_h[] = {0.0, -0.1, 5e-4, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_h / sizeof bad_h[0]; i++) {
    fem_mesh_t m;
    st = fem_mesh_generate(bad_h[i], 0, &m, msg, sizeof msg);
    printf("  generate(h=%g)          -> status %d: %s\n", bad_h[i], st, msg);
    CHECK(st == FEM_MESH_ERR_INVALID_ARG && strstr(msg, "h = ") && strstr(msg, "0.001"),
          "h=%g not refused properly", bad_h[i]);
  }
  st = fem_mesh_generate(0.1, 0, NULL, msg, sizeof msg);
  CHECK(st == FEM_MESH_ERR_INVALID_ARG, "NULL mesh accepted");
  st = fem_mesh_save(NULL, path, msg, sizeof msg);
  CHECK(st == FEM_MESH_ERR_INVALID_ARG, "NULL mesh save accepted");
  st = fem_mesh_load(NULL, &back, NULL, 0); /* NULL msg is fine */
  CHECK(st == FEM_MESH_ERR_INVALID_ARG, "NULL path load accepted");
}

int main(int argc, char **argv)
{
  int verbose = 0;
  const char *dir = "/tmp";
  char msg[1024];
  if (argc > 1 && strcmp(argv[1], "--time") == 0) {
    printf("%8s %10s %10s %8s\n", "h", "nodes", "tets", "seconds");
    for (int i = 2; i < argc; i++) {
      const double h = atof(argv[i]);
      fem_mesh_t m;
      const double t0 = now_s();
      const int st = fem_mesh_generate(h, 0, &m, msg, sizeof msg);
      const double t1 = now_s();
      if (st != 0) {
        printf("h=%g: error %d: %s\n", h, st, msg);
        return 1;
      }
      printf("%8g %10lld %10lld %8.2f\n", h, (long long)m.num_nodes, (long long)m.num_tets, t1 - t0);
      fflush(stdout);
      fem_mesh_destroy(&m);
    }
    return 0;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0) verbose = 1;
    else dir = argv[i];
  }

  {
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/fem_mesh_selftest_probe", dir);
    FILE *f = fopen(probe, "wb");
    if (!f) {
      fprintf(stderr, "fem_mesh_selftest: cannot write in folder '%s'\n", dir);
      return 2;
    }
    fclose(f);
    remove(probe);
  }
  printf("argument checks and empty meshes:\n");
  test_empty_and_args(dir);

  const double hs[] = {0.1, 0.05};
  for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++) {
#ifdef _OPENMP
    omp_set_num_threads(3); /* deliberately odd value; must survive fem_mesh_generate */
#endif
    fem_mesh_t m;
    const double t0 = now_s();
    const int st = fem_mesh_generate(hs[k], verbose, &m, msg, sizeof msg);
    const double t1 = now_s();
    CHECK(st == 0, "generate(h=%g): %s", hs[k], msg);
    if (st != 0) continue;
#ifdef _OPENMP
    CHECK(omp_get_max_threads() == 3, "omp_get_max_threads() = %d after generate, expected 3",
          omp_get_max_threads());
#endif
    check_mesh(&m, hs[k], t1 - t0);
    test_io(&m, dir);
    fem_mesh_destroy(&m);
    CHECK(m.xyz == NULL && m.num_nodes == 0, "destroy did not zero");
  }
  if (failures) {
    printf("fem_mesh_selftest: %d check(s) FAILED\n", failures);
    return 1;
  }
  printf("fem_mesh_selftest: all checks passed\n");
  return 0;
}
