# Block-Jacobi / Schwarz: partitions (contiguous, METIS), the overlap layers against a host BFS,
# the block-diagonal matrix of the blocks against a host extraction, gather / scatter, S15, bad
# inputs, n = 0 (the private decomposition of solvers/src/schwarz_impl.h is tested directly).
strata_test(schwarz SOURCES test_schwarz.c)
target_include_directories(test_schwarz PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
