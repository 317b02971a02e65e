# Vector kernels of the solvers (strata/vector.h): against host references and the serial
# backend, reproducibility, the scaled norm, NaN handling, bad input.
strata_test(vector SOURCES test_vector.c)
