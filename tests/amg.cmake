# Classical AMG (strata/amg.h): options, EDGE_CASES S17 / S19, the 1D Laplacian's two levels,
# AMG-PCG on 2D / 3D Poisson within measured bounds, every coarsening x interpolation x smoother
# and cycle, every backend against serial (levels, rows, entries; iterations +-1), n = 0, errors.
strata_test(amg SOURCES test_amg.c)
target_include_directories(test_amg PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
