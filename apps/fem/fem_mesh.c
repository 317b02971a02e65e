/*
 * fem_mesh.c — Gmsh mesh generation and "strata mesh v1" binary I/O. See fem_mesh.h.
 */
#define _POSIX_C_SOURCE 200809L /* fseeko, ftello, sysconf */

#include "fem_mesh.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "../cli_host.h"

#if FEM_HAVE_GMSH
#include <gmshc.h>
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fem_mesh: the strata mesh v1 file format is little-endian; big-endian hosts are not supported"
#endif
#endif

#define FEM_MESH_MAGIC "STRMESH1"
#define FEM_MESH_VERSION 1u
#define FEM_MESH_HEADER_BYTES 32
#define FEM_MESH_PI 3.14159265358979323846

/* ---------------------------------------------------------------------------------------------
 * helpers
 * ------------------------------------------------------------------------------------------- */

static void set_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
  if (msg == NULL || msg_len == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, msg_len, fmt, ap);
  va_end(ap);
}

/* Why a short fread of f failed: the OS reason (err, errno right after it) on a read error, else
 * the end of the file (it changed since its size was checked). */
static const char *read_failure(FILE *f, int err) {
  return ferror(f) && err ? strerror(err) : ferror(f) ? "read error" : "the file ended early";
}

static int host_is_little_endian(void)
{
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

void fem_mesh_destroy(fem_mesh_t *mesh)
{
  if (mesh == NULL) return;
  free(mesh->xyz);
  free(mesh->tets);
  free(mesh->on_boundary);
  memset(mesh, 0, sizeof *mesh);
}

/* malloc of count*elem bytes with overflow check; returns NULL for count == 0 without setting *failed. */
static void *alloc_array(size_t count, size_t elem, int *failed)
{
  if (count == 0) return NULL;
  if (count > SIZE_MAX / elem) {
    *failed = 1;
    return NULL;
  }
  void *p = malloc(count * elem);
  if (p == NULL) *failed = 1;
  return p;
}

/* ---------------------------------------------------------------------------------------------
 * generation
 * ------------------------------------------------------------------------------------------- */

/* 6 x the signed volume of tet (a, b, c, d): det[b-a, c-a, d-a] */
static double orient3(const double *a, const double *b, const double *c, const double *d)
{
  const double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double e3[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
         e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
}

#if FEM_HAVE_GMSH
/* Writes "gmsh: <what> failed (ierr=N): <Gmsh's last error>" into msg. */
static void gmsh_msg(char *msg, size_t msg_len, const char *what, int ierr)
{
  char *last = NULL;
  int ierr2 = 0;
  gmshLoggerGetLastError(&last, &ierr2);
  set_msg(msg, msg_len, "fem_mesh_generate: gmsh %s failed (ierr=%d)%s%s", what, ierr,
          (ierr2 == 0 && last != NULL && last[0] != '\0') ? ": " : "",
          (ierr2 == 0 && last != NULL) ? last : "");
  if (last != NULL) gmshFree(last);
}

#define GMSH_TRY(what, call)                                                                     \
  do {                                                                                           \
    ierr = 0;                                                                                    \
    call;                                                                                        \
    if (ierr != 0) {                                                                             \
      gmsh_msg(msg, msg_len, what, ierr);                                                        \
      status = FEM_MESH_ERR_GMSH;                                                                \
      goto done;                                                                                 \
    }                                                                                            \
  } while (0)

static int set_option(const char *name, double value, char *msg, size_t msg_len)
{
  int ierr = 0;
  gmshOptionSetNumber(name, value, &ierr);
  if (ierr != 0) {
    char what[128];
    snprintf(what, sizeof what, "option.setNumber(%s, %g)", name, value);
    gmsh_msg(msg, msg_len, what, ierr);
    return FEM_MESH_ERR_GMSH;
  }
  return FEM_MESH_OK;
}

enum { TAG_NODE = 1, TAG_USED = 2, TAG_OUTER = 4 };


int fem_mesh_generate(double h, int verbose, fem_mesh_t *mesh, char *msg, size_t msg_len)
{
  if (msg != NULL && msg_len > 0) msg[0] = '\0';
  if (mesh == NULL) {
    set_msg(msg, msg_len, "fem_mesh_generate: mesh is NULL");
    return FEM_MESH_ERR_INVALID_ARG;
  }
  memset(mesh, 0, sizeof *mesh);
  if (!(h > 0.0) || !isfinite(h)) {
    set_msg(msg, msg_len, "fem_mesh_generate: element size h = %g must be finite and > 0 (minimum %g)",
            h, FEM_MESH_MIN_H);
    return FEM_MESH_ERR_INVALID_ARG;
  }
  if (h > FEM_MESH_MAX_H) {
    set_msg(msg, msg_len, "fem_mesh_generate: element size h = %g is above the limit %g (the cube's edge)", h,
            FEM_MESH_MAX_H);
    return FEM_MESH_ERR_INVALID_ARG;
  }
  if (h < FEM_MESH_MIN_H) {
    set_msg(msg, msg_len,
            "fem_mesh_generate: element size h = %g is below the limit %g (would give ~%.1e tets)", h,
            FEM_MESH_MIN_H, 3.2 / (h * h * h));
    return FEM_MESH_ERR_INVALID_ARG;
  }
  { /* refused before Gmsh starts when the mesh cannot fit this machine's memory */
    const double tets = 3.2 / (h * h * h), need = tets * FEM_MESH_BYTES_PER_TET;
    const double phys = cli_physical_memory();
    if (phys > 0.0 && need > phys) {
      set_msg(msg, msg_len,
              "fem_mesh_generate: element size h = %g would give ~%.2g tets, about %.3g GiB at %d bytes a tet "
              "(Gmsh's meshing and the job), above this machine's %.3g GiB of memory (smallest h here: %.3g)",
              h, tets, need / 1073741824.0, FEM_MESH_BYTES_PER_TET, phys / 1073741824.0,
              cbrt(3.2 * FEM_MESH_BYTES_PER_TET / phys));
      return FEM_MESH_ERR_INVALID_ARG;
    }
  }

  int status = FEM_MESH_OK;
  int ierr = 0;
  int gmsh_up = 0;
  size_t *node_tags = NULL, node_tags_n = 0;
  double *coords = NULL;
  size_t coords_n = 0;
  double *pcoords = NULL;
  size_t pcoords_n = 0;
  size_t *elem_tags = NULL, elem_tags_n = 0;
  size_t *elem_nodes = NULL, elem_nodes_n = 0;
  int *surfaces = NULL;
  size_t surfaces_n = 0;
  int *cut_out = NULL;
  size_t cut_out_n = 0;
  int **cut_map = NULL;
  size_t *cut_map_n = NULL, cut_map_nn = 0;
  int *volumes = NULL;
  size_t volumes_n = 0;
  int32_t *tag2id = NULL;    /* Gmsh node tag -> compact id, or -1 */
  uint8_t *tag_flags = NULL; /* Gmsh node tag -> TAG_* bits */

#ifdef _OPENMP
  const int caller_omp_threads = omp_get_max_threads();
#endif
  GMSH_TRY("initialize", gmshInitialize(0, NULL, 0, &ierr));
  gmsh_up = 1;

  /* Options. General.Terminal first so that a quiet run stays quiet. */
  {
    const struct {
      const char *name;
      double value;
    } opts[] = {
        {"General.Terminal", verbose ? 1.0 : 0.0},
        /* one thread: Debian's Gmsh 4.8 meshing in parallel gave a non-conforming mesh now and
         * then (the self-test's boundary area 3-5 % too large: surfaces in parallel about one run
         * in three, HXT volumes in parallel about one in seven under load); 0 of 36 runs since */
        {"General.NumThreads", 1.0},
        {"Mesh.MaxNumThreads1D", 1.0},
        {"Mesh.MaxNumThreads2D", 1.0},
        {"Mesh.MaxNumThreads3D", 1.0},
        {"Mesh.Algorithm3D", 10.0}, /* HXT */
        {"Mesh.MeshSizeMin", h},
        {"Mesh.MeshSizeMax", h},
        {"Mesh.MeshSizeFromCurvature", 0.0},
        {"Mesh.ElementOrder", 1.0},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
      status = set_option(opts[i].name, opts[i].value, msg, msg_len);
      if (status != FEM_MESH_OK) goto done;
    }
  }

  GMSH_TRY("model.add", gmshModelAdd("strata_cube_minus_cylinder", &ierr));

  /* Geometry (OpenCASCADE): unit box minus a cylinder along z. The cylinder sticks out of the
   * box on both ends so that the cut does not depend on coincident faces. */
  int box, cyl;
  GMSH_TRY("model.occ.addBox", box = gmshModelOccAddBox(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, -1, &ierr));
  GMSH_TRY("model.occ.addCylinder",
           cyl = gmshModelOccAddCylinder(0.5, 0.5, -0.5, 0.0, 0.0, 2.0, 0.25, -1, 2.0 * FEM_MESH_PI, &ierr));
  {
    int obj[2] = {3, box};
    int tool[2] = {3, cyl};
    GMSH_TRY("model.occ.cut", gmshModelOccCut(obj, 2, tool, 2, &cut_out, &cut_out_n, &cut_map,
                                              &cut_map_n, &cut_map_nn, -1, 1, 1, &ierr));
  }
  GMSH_TRY("model.occ.synchronize", gmshModelOccSynchronize(&ierr));

  GMSH_TRY("model.getEntities(3)", gmshModelGetEntities(&volumes, &volumes_n, 3, &ierr));
  if (volumes_n != 2) { /* dimTags: one (dim, tag) pair */
    set_msg(msg, msg_len, "fem_mesh_generate: boolean cut gave %zu volumes, expected 1", volumes_n / 2);
    status = FEM_MESH_ERR_MESH;
    goto done;
  }

  GMSH_TRY("model.mesh.generate(3)", gmshModelMeshGenerate(3, &ierr));

  /* Linear tetrahedra (Gmsh element type 4) of all volumes. */
  GMSH_TRY("model.mesh.getElementsByType(4)",
           gmshModelMeshGetElementsByType(4, &elem_tags, &elem_tags_n, &elem_nodes, &elem_nodes_n,
                                          -1, 0, 1, &ierr));
  /* All nodes. */
  GMSH_TRY("model.mesh.getNodes", gmshModelMeshGetNodes(&node_tags, &node_tags_n, &coords, &coords_n,
                                                        &pcoords, &pcoords_n, -1, -1, 0, 0, &ierr));
  if (elem_nodes_n != 4 * elem_tags_n || coords_n != 3 * node_tags_n) {
    set_msg(msg, msg_len,
            "fem_mesh_generate: inconsistent Gmsh output (%zu tets with %zu node entries, %zu nodes "
            "with %zu coordinates)",
            elem_tags_n, elem_nodes_n, node_tags_n, coords_n);
    status = FEM_MESH_ERR_MESH;
    goto done;
  }
  if (elem_tags_n == 0) {
    set_msg(msg, msg_len, "fem_mesh_generate: Gmsh produced no tetrahedra for h = %g", h);
    status = FEM_MESH_ERR_MESH;
    goto done;
  }
  if (elem_tags_n > (size_t)INT64_MAX / 4 || node_tags_n > (size_t)INT32_MAX) {
    set_msg(msg, msg_len, "fem_mesh_generate: %zu nodes exceed the int32 node id limit %d",
            node_tags_n, INT32_MAX);
    status = FEM_MESH_ERR_MESH;
    goto done;
  }

  size_t max_tag = 0;
  for (size_t i = 0; i < node_tags_n; i++)
    if (node_tags[i] > max_tag) max_tag = node_tags[i];
  for (size_t i = 0; i < elem_nodes_n; i++)
    if (elem_nodes[i] > max_tag) {
      set_msg(msg, msg_len, "fem_mesh_generate: tet node tag %zu is not a Gmsh node (max tag %zu)",
              elem_nodes[i], max_tag);
      status = FEM_MESH_ERR_MESH;
      goto done;
    }

  {
    int failed = 0;
    tag2id = alloc_array(max_tag + 1, sizeof *tag2id, &failed);
    tag_flags = alloc_array(max_tag + 1, sizeof *tag_flags, &failed);
    if (failed) {
      set_msg(msg, msg_len, "fem_mesh_generate: out of memory for %zu node tags", max_tag + 1);
      status = FEM_MESH_ERR_ALLOC;
      goto done;
    }
  }
  memset(tag_flags, 0, max_tag + 1);
  for (size_t i = 0; i < node_tags_n; i++) tag_flags[node_tags[i]] |= TAG_NODE;
  for (size_t i = 0; i < elem_nodes_n; i++) {
    if (!(tag_flags[elem_nodes[i]] & TAG_NODE)) {
      set_msg(msg, msg_len, "fem_mesh_generate: tet node tag %zu has no coordinates in Gmsh",
              elem_nodes[i]);
      status = FEM_MESH_ERR_MESH;
      goto done;
    }
    tag_flags[elem_nodes[i]] |= TAG_USED;
  }

  /* Outer faces: surfaces whose bounding box is flat at x, y or z = 0 or 1. The hole's wall is
   * curved, so its bounding box is never flat. OCC pads bounding boxes slightly (~1e-7). */
  GMSH_TRY("model.getEntities(2)", gmshModelGetEntities(&surfaces, &surfaces_n, 2, &ierr));
  int num_outer = 0;
  for (size_t s = 0; s + 1 < surfaces_n; s += 2) {
    const int stag = surfaces[s + 1];
    double lo[3], hi[3];
    GMSH_TRY("model.getBoundingBox", gmshModelGetBoundingBox(2, stag, &lo[0], &lo[1], &lo[2], &hi[0],
                                                             &hi[1], &hi[2], &ierr));
    int outer = 0;
    for (int d = 0; d < 3; d++) {
      const double mid = 0.5 * (lo[d] + hi[d]);
      if (hi[d] - lo[d] < 1e-5 && (fabs(mid) < 1e-5 || fabs(mid - 1.0) < 1e-5)) outer = 1;
    }
    if (!outer) continue;
    num_outer++;
    size_t *st = NULL, st_n = 0;
    double *sc = NULL, *sp = NULL;
    size_t sc_n = 0, sp_n = 0;
    GMSH_TRY("model.mesh.getNodes(surface)",
             gmshModelMeshGetNodes(&st, &st_n, &sc, &sc_n, &sp, &sp_n, 2, stag, 1, 0, &ierr));
    int bad = 0;
    for (size_t i = 0; i < st_n; i++) {
      if (st[i] > max_tag) bad = 1;
      else tag_flags[st[i]] |= TAG_OUTER;
    }
    gmshFree(st);
    gmshFree(sc);
    gmshFree(sp);
    if (bad) {
      set_msg(msg, msg_len, "fem_mesh_generate: surface %d has a node tag above the max tag %zu",
              stag, max_tag);
      status = FEM_MESH_ERR_MESH;
      goto done;
    }
  }
  if (num_outer != 6) {
    set_msg(msg, msg_len, "fem_mesh_generate: found %d outer cube faces, expected 6", num_outer);
    status = FEM_MESH_ERR_MESH;
    goto done;
  }

  /* Compact numbering in Gmsh's node order (keeps Gmsh's locality), dropping unused nodes. */
  int64_t n = 0;
  for (size_t t = 0; t <= max_tag; t++) tag2id[t] = -1;
  for (size_t i = 0; i < node_tags_n; i++)
    if ((tag_flags[node_tags[i]] & TAG_USED) && tag2id[node_tags[i]] < 0)
      tag2id[node_tags[i]] = (int32_t)(n++);

  const int64_t m = (int64_t)elem_tags_n;
  {
    int failed = 0;
    mesh->xyz = alloc_array((size_t)n * 3, sizeof *mesh->xyz, &failed);
    mesh->tets = alloc_array((size_t)m * 4, sizeof *mesh->tets, &failed);
    mesh->on_boundary = alloc_array((size_t)n, sizeof *mesh->on_boundary, &failed);
    if (failed) {
      set_msg(msg, msg_len, "fem_mesh_generate: out of memory for %" PRId64 " nodes and %" PRId64 " tets",
              n, m);
      status = FEM_MESH_ERR_ALLOC;
      goto done;
    }
  }
  mesh->num_nodes = n;
  mesh->num_tets = m;
  for (size_t i = 0; i < node_tags_n; i++) {
    const int32_t id = tag2id[node_tags[i]];
    if (id < 0) continue;
    memcpy(&mesh->xyz[3 * (size_t)id], &coords[3 * i], 3 * sizeof(double));
    mesh->on_boundary[id] = (tag_flags[node_tags[i]] & TAG_OUTER) ? 1 : 0;
  }
  for (int64_t e = 0; e < m; e++) {
    int32_t *t = &mesh->tets[4 * e];
    for (int k = 0; k < 4; k++) t[k] = tag2id[elem_nodes[4 * e + k]];
    const double det = orient3(&mesh->xyz[3 * (size_t)t[0]], &mesh->xyz[3 * (size_t)t[1]],
                               &mesh->xyz[3 * (size_t)t[2]], &mesh->xyz[3 * (size_t)t[3]]);
    if (det < 0.0) {
      const int32_t tmp = t[2];
      t[2] = t[3];
      t[3] = tmp;
    } else if (!(det > 0.0)) {
      set_msg(msg, msg_len,
              "fem_mesh_generate: tet %" PRId64 " (Gmsh element %zu) has zero volume (det = %g) for h = %g",
              e, elem_tags[e], det, h);
      status = FEM_MESH_ERR_MESH;
      goto done;
    }
  }

done:
  if (gmsh_up) {
    gmshFree(node_tags);
    gmshFree(coords);
    gmshFree(pcoords);
    gmshFree(elem_tags);
    gmshFree(elem_nodes);
    gmshFree(surfaces);
    gmshFree(volumes);
    gmshFree(cut_out);
    if (cut_map != NULL)
      for (size_t i = 0; i < cut_map_nn; i++) gmshFree(cut_map[i]);
    gmshFree(cut_map);
    gmshFree(cut_map_n);
    int ierr_fin = 0;
    gmshFinalize(&ierr_fin);
    if (ierr_fin != 0 && status == FEM_MESH_OK) {
      set_msg(msg, msg_len, "fem_mesh_generate: gmsh finalize failed (ierr=%d)", ierr_fin);
      status = FEM_MESH_ERR_GMSH;
    }
  }
  free(tag2id);
  free(tag_flags);
#ifdef _OPENMP
  omp_set_num_threads(caller_omp_threads);
#endif
  if (status != FEM_MESH_OK) fem_mesh_destroy(mesh);
  return status;
}
#else /* !FEM_HAVE_GMSH */
int fem_mesh_generate(double h, int verbose, fem_mesh_t *mesh, char *msg, size_t msg_len)
{
  (void)h;
  (void)verbose;
  if (mesh) memset(mesh, 0, sizeof *mesh);
  set_msg(msg, msg_len, "this build has no Gmsh (libgmsh-dev was not found at configure time): "
                        "load a saved mesh with --mesh FILE instead of --h");
  return FEM_MESH_ERR_UNSUPPORTED;
}
#endif /* FEM_HAVE_GMSH */

/* ---------------------------------------------------------------------------------------------
 * binary I/O
 * ------------------------------------------------------------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_i64(unsigned char *p, int64_t v) { memcpy(p, &v, 8); }

int fem_mesh_save(const fem_mesh_t *mesh, const char *path, char *msg, size_t msg_len)
{
  if (msg != NULL && msg_len > 0) msg[0] = '\0';
  if (mesh == NULL || path == NULL) {
    set_msg(msg, msg_len, "fem_mesh_save: %s is NULL", mesh == NULL ? "mesh" : "path");
    return FEM_MESH_ERR_INVALID_ARG;
  }
  if (!host_is_little_endian()) {
    set_msg(msg, msg_len, "fem_mesh_save: '%s': big-endian hosts are not supported", path);
    return FEM_MESH_ERR_UNSUPPORTED;
  }
  const int64_t n = mesh->num_nodes, m = mesh->num_tets;
  if (n < 0 || m < 0 || n > INT32_MAX || (uint64_t)m > SIZE_MAX / 16 ||
      (n > 0 && (mesh->xyz == NULL || mesh->on_boundary == NULL)) || (m > 0 && mesh->tets == NULL)) {
    set_msg(msg, msg_len,
            "fem_mesh_save: '%s': invalid mesh (num_nodes = %" PRId64 " must be in [0, %d], num_tets = %" PRId64
            " >= 0, arrays non-NULL when counts > 0)",
            path, n, INT32_MAX, m);
    return FEM_MESH_ERR_INVALID_ARG;
  }
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    set_msg(msg, msg_len, "fem_mesh_save: cannot open '%s' for writing: %s", path, strerror(errno));
    return FEM_MESH_ERR_IO;
  }
  unsigned char hdr[FEM_MESH_HEADER_BYTES];
  memcpy(hdr, FEM_MESH_MAGIC, 8);
  put_u32(hdr + 8, FEM_MESH_VERSION);
  put_u32(hdr + 12, 0u);
  put_i64(hdr + 16, n);
  put_i64(hdr + 24, m);
  int ok = fwrite(hdr, 1, sizeof hdr, f) == sizeof hdr;
  if (ok && n > 0) ok = fwrite(mesh->xyz, sizeof(double), (size_t)n * 3, f) == (size_t)n * 3;
  if (ok && m > 0) ok = fwrite(mesh->tets, sizeof(int32_t), (size_t)m * 4, f) == (size_t)m * 4;
  if (ok && n > 0) ok = fwrite(mesh->on_boundary, 1, (size_t)n, f) == (size_t)n;
  int err = ok ? 0 : errno;
  if (fclose(f) != 0 && ok) {
    ok = 0;
    err = errno;
  }
  if (!ok) {
    set_msg(msg, msg_len, "fem_mesh_save: write to '%s' failed (%" PRId64 " nodes, %" PRId64 " tets): %s",
            path, n, m, err ? strerror(err) : "short write");
    return FEM_MESH_ERR_IO;
  }
  return FEM_MESH_OK;
}

/* A tetrahedron stored twice (the same four nodes, in any order) would be assembled twice,
 * doubling its stiffness without a word (a mesh exported with an element in two physical groups
 * does this): the tets' sorted node quadruples are sorted and neighbours compared. */
typedef struct { int32_t v[4]; int64_t t; } tet_key_t;
static int cmp_tet_key(const void *pa, const void *pb) {
  const tet_key_t *a = (const tet_key_t *)pa, *b = (const tet_key_t *)pb;
  for (int i = 0; i < 4; i++)
    if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
  return a->t < b->t ? -1 : a->t > b->t;
}
static int duplicate_tets(const char *path, const fem_mesh_t *mesh, char *msg, size_t msg_len) {
  const int64_t m = mesh->num_tets;
  if (m < 2) return FEM_MESH_OK;
  tet_key_t *k = (tet_key_t *)malloc((size_t)m * sizeof *k);
  if (!k) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s': out of memory for %" PRId64 " tets' keys", path, m);
    return FEM_MESH_ERR_ALLOC;
  }
  for (int64_t t = 0; t < m; t++) {
    int32_t *v = k[t].v;
    memcpy(v, mesh->tets + 4 * t, 4 * sizeof(int32_t));
    for (int i = 1; i < 4; i++) /* insertion sort of four */
      for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
        const int32_t x = v[j];
        v[j] = v[j - 1];
        v[j - 1] = x;
      }
    k[t].t = t;
  }
  qsort(k, (size_t)m, sizeof *k, cmp_tet_key);
  int status = FEM_MESH_OK;
  for (int64_t i = 1; i < m && status == FEM_MESH_OK; i++)
    if (!memcmp(k[i - 1].v, k[i].v, sizeof k[i].v)) {
      set_msg(msg, msg_len,
              "fem_mesh_load: '%s': tetrahedra %" PRId64 " and %" PRId64 " have the same nodes (%d %d %d %d): a "
              "tetrahedron stored twice would be assembled twice",
              path, k[i - 1].t, k[i].t, k[i].v[0], k[i].v[1], k[i].v[2], k[i].v[3]);
      status = FEM_MESH_ERR_FORMAT;
    }
  free(k);
  return status;
}

int fem_mesh_load(const char *path, fem_mesh_t *mesh, char *msg, size_t msg_len)
{
  if (msg != NULL && msg_len > 0) msg[0] = '\0';
  if (mesh == NULL || path == NULL) {
    set_msg(msg, msg_len, "fem_mesh_load: %s is NULL", mesh == NULL ? "mesh" : "path");
    return FEM_MESH_ERR_INVALID_ARG;
  }
  memset(mesh, 0, sizeof *mesh);
  if (!host_is_little_endian()) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s': big-endian hosts are not supported", path);
    return FEM_MESH_ERR_UNSUPPORTED;
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    set_msg(msg, msg_len, "fem_mesh_load: cannot open '%s': %s", path, strerror(errno));
    return FEM_MESH_ERR_IO;
  }
  int status = FEM_MESH_OK;
  off_t fsize = -1;
  if (fseeko(f, 0, SEEK_END) != 0 || (fsize = ftello(f)) < 0 || fseeko(f, 0, SEEK_SET) != 0) {
    set_msg(msg, msg_len, "fem_mesh_load: cannot determine the size of '%s': %s", path, strerror(errno));
    fclose(f);
    return FEM_MESH_ERR_IO;
  }
  const uint64_t size = (uint64_t)fsize;
  if (size < FEM_MESH_HEADER_BYTES) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s' has %" PRIu64 " bytes, less than the %d-byte header", path,
            size, FEM_MESH_HEADER_BYTES);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  unsigned char hdr[FEM_MESH_HEADER_BYTES];
  if (fread(hdr, 1, sizeof hdr, f) != sizeof hdr) { /* a directory: its size is known, its bytes not */
    set_msg(msg, msg_len, "fem_mesh_load: cannot read the header of '%s': %s", path, read_failure(f, errno));
    fclose(f);
    return FEM_MESH_ERR_IO;
  }
  if (memcmp(hdr, FEM_MESH_MAGIC, 8) != 0) {
    char shown[9];
    for (int i = 0; i < 8; i++) shown[i] = (hdr[i] >= 32 && hdr[i] < 127) ? (char)hdr[i] : '?';
    shown[8] = '\0';
    set_msg(msg, msg_len, "fem_mesh_load: '%s' is not a strata mesh: magic is \"%s\", expected \"%s\"",
            path, shown, FEM_MESH_MAGIC);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  uint32_t version, reserved;
  int64_t n, m;
  memcpy(&version, hdr + 8, 4);
  memcpy(&reserved, hdr + 12, 4);
  memcpy(&n, hdr + 16, 8);
  memcpy(&m, hdr + 24, 8);
  if (version != FEM_MESH_VERSION) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s' has format version %" PRIu32 ", only version %u is supported",
            path, version, FEM_MESH_VERSION);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  if (reserved != 0) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s' has reserved header field %" PRIu32 ", expected 0", path,
            reserved);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  /* counts whose byte size cannot be formed (negative, or 25 n + 16 m beyond 2^63): refused as
   * such; others are compared with the file's size below (a review: a file cut in half was
   * "too large for the file size", not "truncated" with the size it should have) */
  if (n < 0 || m < 0 || (uint64_t)n > (UINT64_MAX / 4) / 25 || (uint64_t)m > (UINT64_MAX / 4) / 16) {
    set_msg(msg, msg_len,
            "fem_mesh_load: '%s' has num_nodes = %" PRId64 ", num_tets = %" PRId64
            ": negative or too large for any file (the file has %" PRIu64 " bytes)",
            path, n, m, size);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  const uint64_t expected = FEM_MESH_HEADER_BYTES + 25u * (uint64_t)n + 16u * (uint64_t)m;
  if (size != expected) {
    set_msg(msg, msg_len,
            "fem_mesh_load: '%s' has %" PRIu64 " bytes, expected exactly %" PRIu64 " for %" PRId64
            " nodes and %" PRId64 " tets (%s)",
            path, size, expected, n, m, size < expected ? "truncated" : "trailing data");
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }
  if (n > INT32_MAX) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s' has num_nodes = %" PRId64 " above the int32 id limit %d", path,
            n, INT32_MAX);
    fclose(f);
    return FEM_MESH_ERR_FORMAT;
  }

  int failed = 0;
  mesh->xyz = alloc_array((size_t)n * 3, sizeof *mesh->xyz, &failed);
  mesh->tets = alloc_array((size_t)m * 4, sizeof *mesh->tets, &failed);
  mesh->on_boundary = alloc_array((size_t)n, sizeof *mesh->on_boundary, &failed);
  if (failed) {
    set_msg(msg, msg_len, "fem_mesh_load: '%s': out of memory for %" PRId64 " nodes and %" PRId64 " tets",
            path, n, m);
    status = FEM_MESH_ERR_ALLOC;
    goto fail;
  }
  mesh->num_nodes = n;
  mesh->num_tets = m;
  int ok = 1;
  if (ok && n > 0) ok = fread(mesh->xyz, sizeof(double), (size_t)n * 3, f) == (size_t)n * 3;
  if (ok && m > 0) ok = fread(mesh->tets, sizeof(int32_t), (size_t)m * 4, f) == (size_t)m * 4;
  if (ok && n > 0) ok = fread(mesh->on_boundary, 1, (size_t)n, f) == (size_t)n;
  if (!ok) {
    set_msg(msg, msg_len, "fem_mesh_load: read error in '%s' (%" PRId64 " nodes, %" PRId64 " tets): %s", path, n,
            m, read_failure(f, errno));
    status = FEM_MESH_ERR_IO;
    goto fail;
  }
  for (int64_t i = 0; i < 4 * m; i++) {
    const int32_t id = mesh->tets[i];
    if (id < 0 || (int64_t)id >= n) {
      set_msg(msg, msg_len,
              "fem_mesh_load: '%s': tet %" PRId64 " node %d has id %" PRId32 ", outside [0, %" PRId64 ")", path,
              i / 4, (int)(i % 4), id, n);
      status = FEM_MESH_ERR_FORMAT;
      goto fail;
    }
  }
  for (int64_t i = 0; i < n; i++) {
    if (mesh->on_boundary[i] > 1) {
      set_msg(msg, msg_len, "fem_mesh_load: '%s': node %" PRId64 " has boundary flag %u, expected 0 or 1",
              path, i, (unsigned)mesh->on_boundary[i]);
      status = FEM_MESH_ERR_FORMAT;
      goto fail;
    }
  }
  /* the geometry the header promises: finite coordinates, positively oriented tets */
  for (int64_t i = 0; i < 3 * n; i++) {
    if (!isfinite(mesh->xyz[i])) {
      set_msg(msg, msg_len, "fem_mesh_load: '%s': node %" PRId64 " has a non-finite coordinate %g", path,
              i / 3, mesh->xyz[i]);
      status = FEM_MESH_ERR_FORMAT;
      goto fail;
    }
  }
  for (int64_t t = 0; t < m; t++) {
    const int32_t *v = mesh->tets + 4 * t;
    const double det = orient3(mesh->xyz + 3 * (int64_t)v[0], mesh->xyz + 3 * (int64_t)v[1],
                               mesh->xyz + 3 * (int64_t)v[2], mesh->xyz + 3 * (int64_t)v[3]);
    if (!(det > 0.0 && isfinite(det))) { /* finite coordinates can still overflow the volume */
      set_msg(msg, msg_len,
              "fem_mesh_load: '%s': tetrahedron %" PRId64 " (nodes %d %d %d %d) has 6*volume %g; it must be "
              "positive (positively oriented, not degenerate) and finite",
              path, t, v[0], v[1], v[2], v[3], det);
      status = FEM_MESH_ERR_FORMAT;
      goto fail;
    }
  }
  status = duplicate_tets(path, mesh, msg, msg_len);
  if (status != FEM_MESH_OK) goto fail;
  fclose(f);
  return FEM_MESH_OK;

fail:
  fclose(f);
  fem_mesh_destroy(mesh);
  return status;
}
