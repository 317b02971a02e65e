# Level-scheduled triangular solves: S14, random triangles against a host reference and serial, both
# algorithms, transposes, level counts, value updates, refusals and bad input.
strata_test(sptrsv SOURCES test_sptrsv.c)
target_include_directories(test_sptrsv PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
