# AMG's smoothers (the private interface of solvers/src/amg_impl.h, tested directly): damped,
# weighted and l1-Jacobi, Chebyshev, hybrid / symmetric / multicolor Gauss–Seidel; every backend
# against serial (bitwise; 1e-12 for the eigenvalue-based ones) and against host references;
# EDGE_CASES S8-S9, the smoothing property on the 2D Laplacian, the colouring's validity, the
# eigenvalue estimate, n = 0, bad options.
strata_test(amg_smoother SOURCES test_amg_smoother.c)
target_include_directories(test_amg_smoother PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
