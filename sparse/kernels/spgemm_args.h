/* strata sparse — the argument struct of the SpGEMM kernels (spgemm.kl.c), shared with the host
 * orchestrator (sparse/src/spgemm.c). Plain C, valid as C11 and C++17; pointers are exec memory. */
#ifndef STRATA_SPGEMM_ARGS_H
#define STRATA_SPGEMM_ARGS_H

#include <stdint.h>

/* Row classes by the row's intermediate products (Σ over A's row of B's row lengths), each its
 * own launch: SHORT a team thread per row, a sorted list in thread scratch; MED_S / MED_L a team
 * per row, the (column, product) pairs sorted in team scratch (COUNT / FILL); their NUMERIC a team
 * thread per row walking the products in order into C's row in thread scratch (B's rows unique)
 * or the products put in buckets by C entry in team scratch; LONG a team per row with a dense
 * accumulator of n columns per team in device memory. */
#define STRATA_SPGEMM_SHORT 0
#define STRATA_SPGEMM_MED_S 1
#define STRATA_SPGEMM_MED_L 2
#define STRATA_SPGEMM_LONG 3
#define STRATA_SPGEMM_NUM_CLASSES 4
/* the most products a row of each class holds (LONG: any) */
#define STRATA_SPGEMM_SHORT_MAX 64
#define STRATA_SPGEMM_MED_S_MAX 512
#define STRATA_SPGEMM_MED_L_MAX 2048
/* A's entries whose product offsets a team scans at a time (team scratch: this many int64) */
#define STRATA_SPGEMM_CHUNK 256
/* the most intermediate products of one row, and of the whole product */
#define STRATA_SPGEMM_LIMIT ((int64_t)1 << 62)

/* team scratch of a medium class of capacity cap. COUNT / FILL: keys and products [cap], the
 * chunk's offsets; NUMERIC (strata_spgemm_medium_numeric): products [cap], the chunk's offsets,
 * C's columns (then the buckets' product numbers), each product's entry and each entry's count
 * [cap] (int32 each; 20 bytes per product: 42 KiB at cap 2048, under the 48 KiB GPUs give without
 * opting in) */
#define STRATA_SPGEMM_MED_SCRATCH(cap) ((size_t)(cap) * (sizeof(int64_t) + sizeof(double)) + \
                                        (size_t)STRATA_SPGEMM_CHUNK * sizeof(int64_t))
#define STRATA_SPGEMM_MED_NUMERIC_SCRATCH(cap) ((size_t)(cap) * (sizeof(double) + 3 * sizeof(int32_t)) + \
                                                (size_t)STRATA_SPGEMM_CHUNK * sizeof(int64_t))
/* thread scratch of a medium class's NUMERIC by the walk (strata_spgemm_medium_walk, B's rows unique),
 * nc_max the widest C row of the class: its accumulator (double) and its columns (int32) */
#define STRATA_SPGEMM_MED_WALK_SCRATCH(nc_max) ((size_t)(nc_max) * (sizeof(double) + sizeof(int32_t)))
/* thread scratch of the short class's NUMERIC by lanes (strata_spgemm_short_lanes): a row's
 * products' values (double) and columns (int32) */
#define STRATA_SPGEMM_SHORT_LANES_SCRATCH ((size_t)STRATA_SPGEMM_SHORT_MAX * (sizeof(double) + sizeof(int32_t)))
/* a medium NUMERIC bucket of at most this many products is sorted by insertion in its lane, a
 * longer one by heapsort unless it is in order already */
#define STRATA_SPGEMM_INSERTION_MAX 32

/* what a class launch does */
#define STRATA_SPGEMM_COUNT 0   /* row sizes into c_off[r] */
#define STRATA_SPGEMM_FILL 1    /* sorted columns into c_col at offsets c_off */
#define STRATA_SPGEMM_NUMERIC 2 /* values into c_val */

typedef struct strata_spgemm_args {
  const int64_t *a_off; /* A [m x k] */
  const int32_t *a_col;
  const double *a_val;
  const int64_t *b_off; /* B [k x n] */
  const int32_t *b_col;
  const double *b_val;
  int64_t *ub;          /* [m] products per row (strata_spgemm_products: saturated at LIMIT + 1) */
  /* classification (strata_spgemm_classify): keys[r] = class of ub[r], perm[r] = r */
  int num_classes;
  int64_t max_len[STRATA_SPGEMM_NUM_CLASSES];
  int64_t *keys;
  int64_t *perm;
  /* a class launch: its rows rows[begin .. begin + count) */
  const int32_t *rows;
  int64_t begin, count;
  int64_t cap;          /* the class's most products per row (medium: scratch capacity and key stride) */
  int64_t nc_max;       /* the class's widest row of C (medium NUMERIC by the walk: its scratch) */
  int mode;             /* STRATA_SPGEMM_COUNT / FILL / NUMERIC */
  int b_unique;         /* B's rows hold unique columns (long rows: lanes over a B row never collide) */
  int gather;           /* short, NUMERIC, b_unique: lanes gather each C entry's products
                           (strata_spgemm_gather_entry) instead of a thread's row merge */
  int64_t *c_off;       /* COUNT: sizes [m]; FILL, NUMERIC: C's row offsets [m + 1] */
  int32_t *c_col;
  double *c_val;
  int64_t n;            /* long: B's columns, the accumulators' stride */
  int32_t *tag;         /* long, symbolic: [league x n] the last row that saw each column */
  double *acc;          /* long, numeric: [league x n] */
} strata_spgemm_args_t;

#endif
