/* strata — views: labelled, reference-counted, typed arrays of rank 1..3 (DESIGN §3).
 *
 * A view is Kokkos::View in C: an allocation in a memory space of a backend, seen through a
 * shape (rank, extents), a layout (the order of the strides) and an element type. Kernels do not
 * take views; they take the raw pointer strata_view_data() plus the extents / strides they need
 * in their argument struct (DESIGN §3).
 *
 *   shape          extents e[0..rank-1], each >= 0; element (i0, i1, i2) lies at
 *                  data + (i0*stride(0) + i1*stride(1) + i2*stride(2)) * strata_type_size(type)
 *   LAYOUT_LEFT    column-major (Kokkos LayoutLeft, the GPU default): stride(0) = 1,
 *                  stride(1) = e0, stride(2) = e0*e1
 *   LAYOUT_RIGHT   row-major (Kokkos LayoutRight, the host default): stride(rank-1) = 1, ...,
 *                  stride(0) = e1*e2
 *   strides        in elements, not bytes. The products include zero extents: in an empty view
 *                  every dimension outer to a zero extent has stride 0 (as Kokkos: extents
 *                  {3, 0, 2} row-major give strides 0, 2, 1). A subview keeps its parent's strides
 *                  (and layout tag), so it may be non-contiguous (strata_view_is_contiguous()).
 *
 * Ownership: strata_view_create / create_mirror / subview return a view with one reference;
 * strata_view_retain adds one, strata_view_release drops one and frees the view when none is
 * left. A subview holds a reference to its parent's allocation, so the allocation lives until the
 * last view that sees it is released. A view belongs to a backend and device (it remembers the
 * backend's default execution space), not to the instance it was created with: instances only
 * order asynchronous work. Release every view before strata_finalize (as Kokkos requires before
 * Kokkos::finalize). Reference counting is atomic: views may be retained and released from
 * several threads.
 *
 * Deep copy design (non-contiguous views): dimensions are visited in the destination's memory
 * order; runs that are contiguous in both views are merged; the innermost run that is contiguous
 * in both becomes the row of a 2-D strided copy (cudaMemcpy2DAsync / hipMemcpy2DAsync on GPUs,
 * memmove rows on host), and what remains (at most two dimensions) is looped over on the host.
 * A contiguous pair of views is one copy; a 2-D subview is one 2-D copy; only a 3-D view whose
 * two outer dimensions are both strided issues one 2-D copy per outermost index. A copy between
 * different layouts is correct but element-granular (rows of one element): convert layouts in a
 * kernel when it matters.
 */
#ifndef STRATA_VIEW_H
#define STRATA_VIEW_H

#include "strata/parallel.h"
#include "strata/runtime.h"
#include "strata/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest rank of a view. */
#define STRATA_VIEW_MAX_RANK 3

/** Order of a view's strides. */
typedef enum strata_layout {
  STRATA_LAYOUT_DEFAULT = -1, /**< resolved at create: LEFT on GPU backends, RIGHT on host backends
                                   (Kokkos' default layout of the execution space) */
  STRATA_LAYOUT_LEFT = 0,     /**< column-major: the first index is fastest (Kokkos LayoutLeft) */
  STRATA_LAYOUT_RIGHT = 1     /**< row-major: the last index is fastest (Kokkos LayoutRight) */
} strata_layout_t;

typedef struct strata_view strata_view_t;

/** Creates a view of `rank` dimensions with extents extents[0..rank-1] (elements, each >= 0) of
 *  element type `type` (I32, I64, F32, F64, U8) and layout `layout`, allocated in memory space
 *  `space` of exec's backend (HOST: pageable host memory; HOST_PINNED: page-locked host memory;
 *  DEVICE: GPU memory on GPU backends, host memory on host backends). The elements are set to
 *  zero (Kokkos initializes views). A view with a zero extent has no elements and data NULL.
 *  label (copied; NULL means "") names the view in error messages and profiles.
 *  *view receives a view holding one reference; release it with strata_view_release.
 *  Errors: INVALID_ARGUMENT (NULL exec/extents/view, rank outside 1..3, a negative extent,
 *  extents whose nonzero ones' product times the element size exceeds INT64_MAX bytes — also when
 *  another extent is 0, so that an empty view's strides stay defined —, unknown type, layout or space: each
 *  message names the value and the limit), NOT_INITIALIZED, OUT_OF_MEMORY. Synchronous.
 *  Source: Kokkos::View constructor (label, extents; zero-initialized). */
strata_status_t strata_view_create(strata_exec_t *exec, strata_mem_space_t space, const char *label,
                                   strata_type_t type, strata_layout_t layout, int rank,
                                   const int64_t *extents, strata_view_t **view);

/** Adds a reference to view. Errors: INVALID_ARGUMENT (NULL view). Thread-safe.
 *  Source: copying a Kokkos::View (shared ownership). */
strata_status_t strata_view_retain(strata_view_t *view);

/** Drops the reference *view holds and sets *view to NULL; the view (and, when no subview or other
 *  view sees it, its allocation) is freed when the last reference goes. NULL-safe (view NULL or
 *  *view NULL: nothing happens). Freeing device memory waits for the device (cudaFree semantics).
 *  Errors: DEVICE (freeing failed). Thread-safe. Source: Kokkos::View destructor. */
strata_status_t strata_view_release(strata_view_t **view);

/* ---------------------------------------------------------------- accessors (never fail) */

/** Pointer to element (0, 0, 0), in the view's memory space; NULL when the view has no elements
 *  (or view is NULL). Pass it to kernels in their argument struct. Source: View::data(). */
void *strata_view_data(const strata_view_t *view);
/** Extent of dimension dim in elements; 1 for dim in [rank, 3) (Kokkos), 0 for a NULL view or
 *  dim outside 0..2. Source: View::extent(). */
int64_t strata_view_extent(const strata_view_t *view, int dim);
/** Stride of dimension dim in elements (see the header comment); 0 for dim >= rank or a NULL
 *  view. Source: View::stride(). */
int64_t strata_view_stride(const strata_view_t *view, int dim);
/** Rank 1..3 (0 for NULL). */
int strata_view_rank(const strata_view_t *view);
/** Element type (STRATA_TYPE_NONE for NULL). */
strata_type_t strata_view_type(const strata_view_t *view);
/** Layout, LEFT or RIGHT (a subview keeps its parent's); DEFAULT is never returned except for NULL. */
strata_layout_t strata_view_layout(const strata_view_t *view);
/** The label given at create ("" for NULL); a subview has its parent's label, a mirror the
 *  source's label followed by "_mirror" (Kokkos). Valid while the view lives. */
const char *strata_view_label(const strata_view_t *view);
/** Number of elements, the product of the extents. Source: View::size(). */
int64_t strata_view_size(const strata_view_t *view);
/** Bytes from the first element to just past the last one (the span, Kokkos span() times the
 *  element size); equals size * element size for a contiguous view, 0 without elements. */
size_t strata_view_span_bytes(const strata_view_t *view);
/** 1 if the elements fill the span without gaps (Kokkos span_is_contiguous()); 1 for no elements,
 *  a NULL view included (as a default-constructed Kokkos::View). */
int strata_view_is_contiguous(const strata_view_t *view);
/** The memory space the view's allocation lives in. */
strata_mem_space_t strata_view_space(const strata_view_t *view);
/** The default execution space of the view's backend (library-owned; NULL for a NULL view). */
strata_exec_t *strata_view_exec(const strata_view_t *view);
/** 1 if host code may read and write the elements: HOST or HOST_PINNED memory, or any memory of a
 *  host backend. Source: Kokkos SpaceAccessibility<HostSpace, M>::accessible. */
int strata_view_is_host_accessible(const strata_view_t *view);
/** References to this view object (1 after create; +1 per retain). Source: View::use_count(). */
int64_t strata_view_use_count(const strata_view_t *view);

/* ---------------------------------------------------------------- mirrors and copies */

/** Always allocates a new view with src's rank, extents, type and layout (compact strides, even
 *  when src is a non-contiguous subview) in memory space `space` of exec's backend (exec NULL:
 *  src's backend); label: src's label + "_mirror". copy != 0 deep-copies src into it
 *  (synchronously), copy == 0 leaves it zero-filled. The usual uses: a host mirror of a device
 *  view (exec NULL, STRATA_MEM_HOST), a device mirror of a host view (a GPU exec,
 *  STRATA_MEM_DEVICE). Errors: as strata_view_create, INVALID_ARGUMENT (NULL src or mirror).
 *  Synchronous. Source: Kokkos::create_mirror (+ deep_copy when copy: create_mirror_view_and_copy
 *  without the aliasing). */
strata_status_t strata_view_create_mirror(strata_exec_t *exec, strata_mem_space_t space,
                                          const strata_view_t *src, int copy,
                                          strata_view_t **mirror);

/** As strata_view_create_mirror, except when src's memory is already where the mirror would be:
 *  then *mirror is src itself with one more reference (no allocation, no copy, writes through
 *  the mirror change src). "Already there" means both are host-accessible (space HOST or
 *  HOST_PINNED, or any space of a host backend; src host-accessible), or both are device memory
 *  of the same GPU backend and device. Release the mirror in either case.
 *  Source: Kokkos::create_mirror_view (and create_mirror_view_and_copy when copy != 0). */
strata_status_t strata_view_create_mirror_view(strata_exec_t *exec, strata_mem_space_t space,
                                               strata_view_t *src, int copy,
                                               strata_view_t **mirror);

/** Copies every element of src into dst. Both must have the same type, rank and extents (the
 *  layouts and the memory spaces may differ; see the header for how strided views are copied).
 *  Waits for all outstanding work first (strata_fence_all) and returns when the copy is
 *  complete. Views that overlap in memory (parts of one allocation) are copied as if through a
 *  temporary: dst receives src's values from before the call (the same elements: nothing is
 *  done). Views with no elements: nothing is done.
 *  Errors: INVALID_ARGUMENT (NULL view; type or shape mismatch: the message names both views'
 *  labels, types and shapes), DEVICE. Synchronous. Source: Kokkos::deep_copy(dst, src). */
strata_status_t strata_view_deep_copy(strata_view_t *dst, const strata_view_t *src);

/** As strata_view_deep_copy, but ordered on instance exec and asynchronous: it starts after the
 *  work already submitted to exec and may still run when the call returns; fence exec before the
 *  host reads dst or writes src (on host backends the copy is done on return). Work on other
 *  instances is not waited for. exec must be able to reach both views: each view in GPU device
 *  memory must belong to exec's backend and device. Host memory should be pinned for a truly
 *  asynchronous transfer. Errors: as strata_view_deep_copy, INVALID_ARGUMENT (exec cannot reach a
 *  view: both backends named). Source: Kokkos::deep_copy(exec_space, dst, src). */
strata_status_t strata_view_deep_copy_async(strata_exec_t *exec, strata_view_t *dst,
                                            const strata_view_t *src);

/** A view of the elements of `view` in ranges[d] = [begin, end) along each dimension d < rank
 *  (ranges has rank entries; 0 <= begin <= end <= extent(d)). It has the same rank, type, layout
 *  tag, strides, label and memory as `view` (no copy; writes are shared) and extents end - begin;
 *  it is non-contiguous when a range cuts a non-outermost dimension. It keeps the allocation
 *  alive (a reference), so `view` may be released first. An empty range gives a view without
 *  elements (data NULL). Rank-reducing subviews (an index instead of a range) are not offered:
 *  take a range of length 1. Errors: INVALID_ARGUMENT (NULL argument; a range outside
 *  [0, extent]: the message gives the dimension, the range and the extent), OUT_OF_MEMORY.
 *  Source: Kokkos::subview with Kokkos::pair ranges. */
strata_status_t strata_view_subview(strata_view_t *view, const strata_range_t *ranges,
                                    strata_view_t **sub);

#ifdef __cplusplus
}
#endif
#endif
