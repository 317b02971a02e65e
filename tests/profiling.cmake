# Profiling (DESIGN §2): launch hooks see begin/end pairs with the right labels, kinds and ids for
# for / reduce / scan / team launches; regions nest; the STRATA_PROFILE summary. The test program
# runs in profiling mode (it sets STRATA_PROFILE=1 before strata_init).
strata_test(profiling SOURCES test_profiling.c KERNELS profiling_kernels.kl.c)
# the summary strata_finalize prints in profiling mode, from a real application run
if(TARGET strata_cli)
  strata_cli_test(cli.profile "strata profile: [1-9][0-9]* launches.*\nlabel +backend +kind +count +total"
                  fem --box 4 --backend serial)
  set_tests_properties(cli.profile PROPERTIES ENVIRONMENT "STRATA_PROFILE=1")
endif()
