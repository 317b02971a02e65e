# AMG interpolation (direct, standard, extended+i; truncation): the private
# strata_impl_amg_interp of solvers/src/amg_impl.h against host references of each formula, with
# S and C/F splittings built in the test; S18, the constant, positive off-diagonals, Dirichlet and
# zero rows, the thread and team kernels forced, n = 0 and bad input.
strata_test(amg_interp SOURCES test_amg_interp.c)
target_include_directories(test_amg_interp PRIVATE ${PROJECT_SOURCE_DIR}/solvers/src)
