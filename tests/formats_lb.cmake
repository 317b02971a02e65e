# Load-balanced and hybrid storage formats (coo, csr-lb, hyb, hec): their options against csr.
strata_test(formats_lb SOURCES test_formats_lb.c)
