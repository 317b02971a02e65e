# Storage formats (strata/formats.h): every format against the CSR plan on generated structures.
strata_test(formats SOURCES test_formats.c)
