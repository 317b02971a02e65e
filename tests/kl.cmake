# Kernel-language vocabulary: nested reductions and scans, single / broadcast, atomics, team sort,
# AUTO team size — every backend against host references.
# kl_same_name/{a,b}/same.kl.c: two kernel sources of one file name in one target, both built.
strata_test(kl SOURCES test_kl.c KERNELS kl_kernels.kl.c kl_same_name/a/same.kl.c kl_same_name/b/same.kl.c)
