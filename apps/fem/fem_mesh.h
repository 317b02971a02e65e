/*
 * fem_mesh.h — tetrahedral mesh of the FEM application: generation with Gmsh, binary save/load.
 *
 * Geometry: the unit cube [0,1]^3 minus a cylinder along z with centre (0.5, 0.5) and radius
 * 0.25 that goes through the whole cube. Elements are linear (4-node) tetrahedra.
 *
 * ---------------------------------------------------------------------------------------------
 * Binary file format "strata mesh v1" (all fields little-endian, no padding, no alignment):
 *
 *   offset  size               field
 *   0       8                  magic, the 8 ASCII bytes "STRMESH1" (no terminating NUL)
 *   8       4                  uint32  version = 1
 *   12      4                  uint32  reserved = 0
 *   16      8                  int64   num_nodes  (n >= 0)
 *   24      8                  int64   num_tets   (m >= 0)
 *   32      8*3*n              double  xyz[n][3]          node coordinates (IEEE-754 binary64)
 *   32+24n  4*4*m              int32   tets[m][4]         0-based node ids, each in [0, n)
 *   32+24n+16m  n              uint8   on_boundary[n]     0 or 1
 *
 *   Total file size is exactly 32 + 25*n + 16*m bytes; nothing follows on_boundary.
 *   Only little-endian hosts are supported (compile-time #error where the compiler tells the
 *   byte order, and a run-time check returning FEM_MESH_ERR_UNSUPPORTED otherwise).
 * ---------------------------------------------------------------------------------------------
 *
 * Conventions: every function that can fail returns 0 on success and a negative
 * fem_mesh_status code on error, and then writes a NUL-terminated message (naming the value, the
 * limit or the file) into msg[0..msg_len) when msg != NULL and msg_len > 0. All pointers are host
 * memory. Nothing is asynchronous. Functions are not thread-safe with respect to Gmsh (Gmsh has
 * one global state per process).
 */
#ifndef FEM_MESH_H
#define FEM_MESH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (0 = success). */
enum fem_mesh_status {
  FEM_MESH_OK = 0,
  FEM_MESH_ERR_INVALID_ARG = -1,  /* bad argument (NULL pointer, h out of range) */
  FEM_MESH_ERR_ALLOC = -2,        /* out of host memory */
  FEM_MESH_ERR_IO = -3,           /* cannot open / read / write a file */
  FEM_MESH_ERR_FORMAT = -4,       /* file is not a valid strata mesh v1 */
  FEM_MESH_ERR_GMSH = -5,         /* a Gmsh call failed */
  FEM_MESH_ERR_MESH = -6,         /* Gmsh produced a mesh we cannot use (degenerate tet, too big) */
  FEM_MESH_ERR_UNSUPPORTED = -7   /* big-endian host */
};

/* Smallest accepted target element size of fem_mesh_generate (h = 1e-3 would be ~3.2e9 tets).
 * fem_mesh_generate also refuses, before Gmsh starts, an h whose tets (about 3.2 / h^3) at
 * FEM_MESH_BYTES_PER_TET each exceed the machine's physical memory. */
#define FEM_MESH_MIN_H 1e-3
/* Host memory a tet takes, counted for that refusal: Gmsh's meshing (HXT) and the job's host
 * arrays (mesh, element matrices, packets); a round bound, not a measurement. */
#define FEM_MESH_BYTES_PER_TET 1024
/* Largest accepted element size: the cube's edge. */
#define FEM_MESH_MAX_H 1.0

typedef struct fem_mesh {
  int64_t num_nodes;    /* n */
  int64_t num_tets;     /* m */
  double *xyz;          /* [n][3] node coordinates, host memory (malloc); NULL when n == 0 */
  int32_t *tets;        /* [m][4] 0-based node ids of linear tetrahedra, positively oriented:
                           det[x1-x0, x2-x0, x3-x0] > 0; NULL when m == 0 */
  uint8_t *on_boundary; /* [n] 1 if the node lies on an outer face of the unit cube (x, y or z
                           equal to 0 or 1), else 0. Nodes on the cylindrical hole's wall are
                           not boundary (natural BC there), except where the wall meets the
                           faces z = 0 and z = 1. NULL when n == 0 */
} fem_mesh_t;

/**
 * Generate the mesh of the unit cube minus the cylinder (see top of file) with Gmsh.
 *
 * Uses the OpenCASCADE kernel (box minus cylinder, boolean cut), the HXT 3D algorithm
 * (Mesh.Algorithm3D = 10) on one thread (General.NumThreads = Mesh.MaxNumThreads1D/2D/3D = 1:
 * Gmsh 4.8 meshing in parallel gave a non-conforming mesh now and then), Mesh.MeshSizeMin = Mesh.MeshSizeMax = h. Calls gmshInitialize and
 * gmshFinalize itself, so the caller must not hold a Gmsh session open. Gmsh's node tags are
 * renumbered compactly to 0..n-1 (in Gmsh's node order; nodes not used by any tet are dropped)
 * and tets with negative volume have two nodes swapped. When compiled with OpenMP (_OPENMP),
 * the caller's omp_get_max_threads() is restored afterwards (Gmsh changes it).
 *
 * Tet count is about 3.2 / h^3 (Gmsh 4.8.4, HXT: h = 0.02 gives ~0.40e6 tets, h = 0.015 ~0.94e6,
 * h = 0.0147 ~1.0e6; measured while Gmsh still meshed in parallel, which varied the counts by
 * ~0.5% from run to run). Even on one thread the mesh is not the same from run to run (Gmsh
 * 4.8.4, h = 0.04: 52809 .. 53036 tets over three runs, 98 .. 101 CG iterations): for a
 * reproducible job, mesh once with --save-mesh and run on that file with --mesh.
 *
 * @param[in]  h        target element edge length (unit cube = 1); must be finite and
 *                      >= FEM_MESH_MIN_H (1e-3), and its mesh must fit the machine's memory
 *                      (FEM_MESH_BYTES_PER_TET a tet; else FEM_MESH_ERR_INVALID_ARG, naming both)
 * @param[in]  verbose  nonzero: Gmsh prints its log to the terminal (General.Terminal = 1)
 * @param[out] mesh     filled on success (caller frees with fem_mesh_destroy); zeroed on error.
 *                      Previous contents are overwritten, not freed.
 * @param[out] msg      error message buffer (may be NULL), msg_len its size in bytes
 * @return 0, or FEM_MESH_ERR_INVALID_ARG, _ALLOC, _GMSH, _MESH
 */
int fem_mesh_generate(double h, int verbose, fem_mesh_t *mesh, char *msg, size_t msg_len);

/**
 * Write mesh to path in the "strata mesh v1" binary format (see top of file). The file is
 * created or truncated. The mesh is checked lightly (counts >= 0, arrays non-NULL when counts
 * > 0); node ids are not validated here.
 * @return 0, or FEM_MESH_ERR_INVALID_ARG, _IO, _UNSUPPORTED
 */
int fem_mesh_save(const fem_mesh_t *mesh, const char *path, char *msg, size_t msg_len);

/**
 * Read a "strata mesh v1" file. Validates magic, version, reserved = 0, counts non-negative
 * and consistent with the file size (checked before any allocation), exact file size, every
 * tet node id in [0, n), every boundary flag 0 or 1, n <= INT32_MAX, every coordinate finite
 * and every tet positively oriented (6·volume > 0: not inverted, not degenerate) with a finite
 * 6·volume (coordinates near 1e200 overflow it), and no tet stored twice (the same four nodes
 * in any order: it would be assembled twice; a sort, about 0.35 s for 10^6 tets). strata fem
 * also refuses a mesh without tets, a node in no tet, and no boundary node.
 * @param[out] mesh  filled on success (free with fem_mesh_destroy); zeroed on error.
 *                   Previous contents are overwritten, not freed.
 * @return 0, or FEM_MESH_ERR_INVALID_ARG, _IO, _FORMAT, _ALLOC, _UNSUPPORTED
 */
int fem_mesh_load(const char *path, fem_mesh_t *mesh, char *msg, size_t msg_len);

/** Free the arrays of mesh and zero it. NULL-safe; safe on a zeroed mesh and when called twice. */
void fem_mesh_destroy(fem_mesh_t *mesh);

#ifdef __cplusplus
}
#endif

#endif /* FEM_MESH_H */
