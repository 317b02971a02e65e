# CrsMatrix from CSR arrays (validated on the device), fill_complete in place, row accessors,
# against host references, the COO path (bitwise) and the serial backend.
strata_test(crs SOURCES test_crs.c)
