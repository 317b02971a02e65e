# sparse module: COO -> CrsMatrix, copy, SpMV, pack / unpack_combine (DESIGN §4, EDGE_CASES E1-E3,
# E8-E10), and SpMV on a few real matrices against REFERENCE_SPMV.tsv.
strata_test(sparse SOURCES test_sparse.c)
get_filename_component(_strata_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
target_compile_definitions(test_sparse PRIVATE STRATA_TEST_MATRICES="${_strata_matrices}")
