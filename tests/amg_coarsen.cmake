# AMG strength of connection and C/F splittings (RS, CLJP, PMIS, HMIS; the private interfaces of
# solvers/src/amg_impl.h, tested directly): S against a host oracle, each splitting against a host
# replica of its device rounds and the serial backend, RS against the sequential first pass, the C/F
# properties, coarse fractions, the 1D Laplacian by hand, special rows, S17 / S19, seeds, bad input.
strata_test(amg_coarsen SOURCES test_amg_coarsen.c)
target_include_directories(test_amg_coarsen PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
