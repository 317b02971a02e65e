# Storage formats (strata/formats.h): every format against the CSR plan on generated structures;
# the permuted basis also on shared matrices.
strata_test(formats SOURCES test_formats.c)
get_filename_component(_strata_fmt_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
target_compile_definitions(test_formats PRIVATE STRATA_TEST_MATRICES="${_strata_fmt_matrices}")
