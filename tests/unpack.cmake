# unpack_combine by row class (issue 5): every forced class and auto against a host reference,
# E8-E10 in every class, duplicates, permutations, invalid entries counted exactly, strict mode,
# every combine mode, empty packets, a packet above the scratch limit.
strata_test(unpack SOURCES test_unpack.c)
