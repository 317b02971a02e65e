# Views (create / refcount, types, ranks, layouts, mirrors, deep copies incl. asynchronous and
# strided, subviews, zero extents, errors) and the device-wide scan / sort key check behind them.
strata_test(view SOURCES test_view.c)
