# SpGEMM C = A·B and the Galerkin product (strata/spgemm.h): every backend against a host
# Gustavson product and the serial backend; every row class, empty and rectangular shapes,
# unsorted and duplicate inputs, shared matrices (A·A, A·Aᵀ), numeric reuse, determinism,
# EDGE_CASES S16 and S18, bad input.
strata_test(spgemm SOURCES test_spgemm.c)
get_filename_component(_strata_spgemm_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
target_compile_definitions(test_spgemm PRIVATE STRATA_TEST_MATRICES="${_strata_spgemm_matrices}")
target_include_directories(test_spgemm PRIVATE ${PROJECT_SOURCE_DIR}/sparse/src)
