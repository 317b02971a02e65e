# SpMV by row-length class: every class and forced algorithm against a host reference.
strata_test(spmv_plan SOURCES test_spmv_plan.c)
# `strata spmv` on real matrices: classes and y statistics in JSON; malformed files refused with file:line.
set(_m ${PROJECT_SOURCE_DIR}/../shared/matrices)
if(EXISTS ${_m}/t-fdp/price_1000.mtx) # the shared folder beside the checkout (CI has it)
add_test(NAME cli.spmv.json COMMAND strata_cli spmv ${_m}/suitesparse/LAGraph/west0067_jumbled.mtx --transpose --json --repeat 3)
set_tests_properties(cli.spmv.json PROPERTIES PASS_REGULAR_EXPRESSION "\"rows\": 67, \"cols\": 67, \"nnz\": 294, \"transpose\": true, \"format\": \"csr\".*\"classes\": \\[\\{")
add_test(NAME cli.spmv.malformed COMMAND sh -c "\"$0\" spmv \"$1\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${_m}/t-fdp/price_1000.mtx)
set_tests_properties(cli.spmv.malformed PROPERTIES PASS_REGULAR_EXPRESSION "price_1000.mtx:3: column index 0 is below 1.*exit=1")
endif()
