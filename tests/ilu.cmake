# ILU(k): pattern and factors against a host reference (k = 0..3), S10-S13, Poisson 2D / 3D, random
# matrices, level counts, solves, refactor, Chow-Patel, the diagonal shift, n = 0 and bad input.
strata_test(ilu SOURCES test_ilu.c)
target_include_directories(test_ilu PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
