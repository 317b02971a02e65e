# Matrix Market I/O: every file of the shared matrices folder read (SpMV against
# REFERENCE_SPMV.tsv) or refused with file and line (INDEX.tsv's malformed ones), E4, E5, gzip,
# round trips and one small file per kind of refusal. zlib writes the test's own .gz files.
find_package(ZLIB REQUIRED)
strata_test(mmio SOURCES test_mmio.c LIBS ZLIB::ZLIB)
get_filename_component(_strata_mm_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
target_compile_definitions(test_mmio PRIVATE STRATA_TEST_MATRICES="${_strata_mm_matrices}")
