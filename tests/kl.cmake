# Kernel-language vocabulary: nested reductions and scans, single / broadcast, atomics, team sort,
# AUTO team size — every backend against host references.
strata_test(kl SOURCES test_kl.c KERNELS kl_kernels.kl.c)
