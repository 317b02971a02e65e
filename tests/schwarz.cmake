# Block-Jacobi / Schwarz: partitions (contiguous, METIS), the overlap layers against a host BFS,
# the block-diagonal matrix of the blocks against a host extraction, gather / scatter (the private
# decomposition of solvers/src/schwarz_impl.h, tested directly), and the preconditioner against
# ILU(k), Jacobi and dense block solves; S15, bad inputs, n = 0.
strata_test(schwarz SOURCES test_schwarz.c)
target_include_directories(test_schwarz PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
