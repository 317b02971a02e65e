# Core patterns (range for / reduce / scan, team policy, scratch, atomics, sort, memory, errors).
strata_test(core SOURCES test_core.c KERNELS core_kernels.kl.c)
