# SpMV by row-length class: every class and forced algorithm against a host reference.
strata_test(spmv_plan SOURCES test_spmv_plan.c)
