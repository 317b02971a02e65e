# SpMV by row-length class: every class and forced algorithm against a host reference.
strata_test(spmv_plan SOURCES test_spmv_plan.c)
# `strata spmv` on real matrices: classes and y statistics in JSON; malformed files refused with file:line.
set(_m ${PROJECT_SOURCE_DIR}/../shared/matrices)
if(EXISTS ${_m}/t-fdp/price_1000.mtx) # the shared folder beside the checkout (CI has it)
strata_cli_test(cli.spmv.json "\"rows\": 67, \"cols\": 67, \"nnz\": 294, \"transpose\": true, \"format\": \"csr\".*\"classes\": \\[\\{" spmv ${_m}/suitesparse/LAGraph/west0067_jumbled.mtx --transpose --json --repeat 3)
add_test(NAME cli.spmv.malformed COMMAND sh -c "\"$0\" spmv \"$1\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${_m}/t-fdp/price_1000.mtx)
set_tests_properties(cli.spmv.malformed PROPERTIES PASS_REGULAR_EXPRESSION "price_1000.mtx:3: column index 0 is below 1.*exit=1")
# a vector file of 0 entries is valid input (0x4 matrix, transposed: x has 0 entries, y 4)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/x0.mtx "%%MatrixMarket matrix array real general\n0 1\n")
strata_cli_test(cli.spmv.empty_x "\"rows\": 0, \"cols\": 4, \"nnz\": 0, \"transpose\": true.*\"rows\": 4, \"entries\": 0, \"padded\": false}.*\"y_sum\": 0, \"y_norm2\": 0, \"y_max_abs\": 0}" spmv ${_m}/suitesparse/SPQR/a04.mtx --transpose --x ${CMAKE_CURRENT_BINARY_DIR}/x0.mtx --json)
# --y without a nonzero --beta would be dropped unread: refused (exit 2)
add_test(NAME cli.spmv.y_without_beta COMMAND sh -c "\"$0\" spmv \"$1\" --y \"$2\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${_m}/suitesparse/SPQR/a04.mtx ${CMAKE_CURRENT_BINARY_DIR}/x0.mtx)
set_tests_properties(cli.spmv.y_without_beta PROPERTIES PASS_REGULAR_EXPRESSION "beta is 0 .the default, or as given., so y0 would not be read.*give a nonzero --beta.*exit=2")
# y's 2-norm scaled (a newcomer review: y = [1e200, 2e200] printed inf, and 1e-320 values 0)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/diag12.mtx "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n")
# a matrix path of more than 2048 characters (11 folders of 200) is written whole in the JSON
string(REPEAT "p" 200 _p)
set(_longm ${CMAKE_CURRENT_BINARY_DIR}/spmv_long/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/${_p}/diag.mtx)
file(WRITE ${_longm} "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n")
strata_cli_test(cli.spmv.json_long_path "\"matrix\": \"[^\"]*/${_p}/diag.mtx\", \"backend\"" spmv ${_longm} --json --repeat 1)
strata_cli_test(cli.spmv.norm_huge "\"y_norm2\": 2.236067977499789[0-9]e\\+200" spmv ${CMAKE_CURRENT_BINARY_DIR}/diag12.mtx --alpha 1e200 --json)
strata_cli_test(cli.spmv.norm_tiny "\"y_norm2\": 2.2[0-9]*e-320" spmv ${CMAKE_CURRENT_BINARY_DIR}/diag12.mtx --alpha 1e-320 --json)
endif()
# a class with no upper bound on its row length (a forced algorithm: every row in one class) has
# "max_len": null in the JSON, as the project's other "none" values (it printed -1)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/diag2.mtx "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n")
strata_cli_test(cli.spmv.json_unbounded_class "\"classes\": \\[\\{\"level\": \"one-level\", [^}]*\"min_len\": 0, \"max_len\": null, \"rows\": 2, \"entries\": 2, \"padded\": false\\}\\]"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/diag2.mtx --algorithm one --backend serial --json --repeat 1)
# the stream class's padded scratch shows in the JSON: 2 rows of 4 entries on a host (1 lane per
# row; hosts pad only when asked: --stream-pad always, strata_spmv_options_t.stream_pad 1)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx "%%MatrixMarket matrix coordinate real general\n2 4 8\n1 1 1\n1 2 2\n1 3 3\n1 4 4\n2 1 5\n2 2 6\n2 3 7\n2 4 8\n")
strata_cli_test(cli.spmv.json_padded "\"level\": \"stream\", \"vector_length\": 1, [^}]*\"rows\": 2, \"entries\": 8, \"padded\": false\\}.*\"y_sum\": 36,"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx --algorithm stream --backend serial --json --repeat 1)
strata_cli_test(cli.spmv.json_padded_always "\"stream_pad\": \"always\", \"classes\": \\[\\{\"level\": \"stream\", \"vector_length\": 1, [^}]*\"rows\": 2, \"entries\": 8, \"padded\": true\\}.*\"y_sum\": 36,"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx --algorithm stream --stream-pad always --backend serial --json --repeat 1)
add_test(NAME cli.spmv.stream_pad_no_stream COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
         spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx --stream-pad always --algorithm one)
set_tests_properties(cli.spmv.stream_pad_no_stream PROPERTIES PASS_REGULAR_EXPRESSION
                     "--stream-pad always: --algorithm one has no stream class.*exit=2")
# decimal numbers only (a review: --alpha 0x10 ran with alpha 16, where the Matrix Market reader
# refuses hexadecimal values), as strata fem and strata bench take them
foreach(_hex "--alpha;0x10" "--beta;-0X1p-3")
  string(MAKE_C_IDENTIFIER "${_hex}" _id)
  add_test(NAME cli.spmv.hex_${_id} COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
           spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx ${_hex})
  string(REPLACE ";" " " _hex_text "${_hex}")
  set_tests_properties(cli.spmv.hex_${_id} PROPERTIES PASS_REGULAR_EXPRESSION "${_hex_text}: not a finite decimal number.*exit=2")
endforeach()
strata_cli_test(cli.spmv.stream_pad_text "class stream .*2 rows, 8 entries, padded scratch"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx --algorithm stream --stream-pad always --backend serial --repeat 1)
add_test(NAME cli.spmv.stream_pad_bad COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
         spmv ${CMAKE_CURRENT_BINARY_DIR}/rows4.mtx --stream-pad sometimes)
set_tests_properties(cli.spmv.stream_pad_bad PROPERTIES PASS_REGULAR_EXPRESSION "--stream-pad sometimes: one of auto, always, never.*exit=2")
# newcomer review: a host allocation that fails (x of 2^31-1 columns under a 6 GB address-space
# limit) is an error naming the bytes (exit 1), not a crash. Not under AddressSanitizer: its shadow
# memory needs more address space than the limit, and its allocator aborts on the request.
if(NOT CMAKE_C_FLAGS MATCHES "sanitize=address")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/widecol.mtx "%%MatrixMarket matrix coordinate real general\n1 2147483647 1\n1 2147483647 3\n")
add_test(NAME cli.spmv.out_of_memory COMMAND sh -c "ulimit -v 6000000; \"$0\" spmv \"$1\" --repeat 1 --backend serial 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/widecol.mtx)
# (refused from the file's sizes first where the physical memory is below about 34 GB: too_big)
set_tests_properties(cli.spmv.out_of_memory PROPERTIES PASS_REGULAR_EXPRESSION
                     "(out of host memory: x needs 17179869184 bytes|needs about [0-9.e+]+ bytes .*above the [0-9.e+]+ bytes of physical memory).*exit=1")
add_test(NAME cli.bench.spmv_out_of_memory COMMAND sh -c "ulimit -v 6000000; \"$0\" bench spmv --quick --backend serial --format none --matrix \"$1\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/widecol.mtx)
set_tests_properties(cli.bench.spmv_out_of_memory PROPERTIES PASS_REGULAR_EXPRESSION "out of host memory: x needs 17179869184 bytes.*1 errors.*exit=4")
# gen:hmep with 2^31-1 rows in segments of 1: its table of offsets per segment does not fit
add_test(NAME cli.bench.hmep_out_of_memory COMMAND sh -c "ulimit -v 6000000; \"$0\" bench spmv --quick --backend serial --format none --matrix gen:hmep:2147483647:1 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>)
set_tests_properties(cli.bench.hmep_out_of_memory PROPERTIES PASS_REGULAR_EXPRESSION "gen:hmep:2147483647:1: out of host memory for the offsets of 2147483647 blocks of 1 rows \\(317827579756 bytes\\).*1 errors.*exit=4")
# --replicate beyond memory: the rows, entries and bytes it needed are named (it said only "out of memory")
add_test(NAME cli.bench.replicate_out_of_memory COMMAND sh -c "ulimit -v 6000000; \"$0\" bench spmv --quick --backend serial --format none --matrix gen:poisson7 --replicate 40000 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>)
set_tests_properties(cli.bench.replicate_out_of_memory PROPERTIES PASS_REGULAR_EXPRESSION "--replicate 40000: out of memory for 552960000 rows and 3732480000 entries \\(49.2 GB\\): host allocation of [0-9]+ bytes failed.*exit=4")
endif()
# duplicates are summed, and the output says so (a second newcomer review: "2 x 2, 2 entries" for a
# file storing 3 gave no hint), in text and in JSON; symmetric storage is named as mirrored. The
# file is read once: a pipe works (the first version read its header a second time, and failed)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 1 -1\n2 2 3\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/sym2.mtx "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 1\n")
strata_cli_test(cli.spmv.duplicates_said "2 x 2, 2 entries \\(3 stored in the file: 1 duplicate summed\\)"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx --backend serial)
strata_cli_test(cli.spmv.duplicates_json "\"nnz\": 2, .*\"file_entries\": 3, \"file_symmetric\": false, \"duplicates_summed\": 1, \"stream_pad\": \"auto\", \"classes\""
                spmv ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx --backend serial --json)
strata_cli_test(cli.spmv.symmetric_said "2 x 2, 3 entries \\(2 stored in the file, 3 after symmetric mirroring\\)"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/sym2.mtx --backend serial)
# --algorithm auto (the default) goes with every --format; a forced level only with csr
strata_cli_test(cli.spmv.format_algorithm_auto "2 x 2, 2 entries.*format ell"
                spmv ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx --backend serial --format ell --algorithm auto)
add_test(NAME cli.spmv.format_algorithm_forced COMMAND sh -c "\"$0\" spmv \"$1\" --format ell --algorithm one 2>&1; echo \"exit=$?\""
         $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx)
set_tests_properties(cli.spmv.format_algorithm_forced PROPERTIES PASS_REGULAR_EXPRESSION
                     "--format ell: --algorithm \\(other than auto\\), --transpose and --stream-pad \\(other than auto\\) are available with the csr format only.*exit=2")
add_test(NAME cli.spmv.format_stream_pad COMMAND sh -c "\"$0\" spmv \"$1\" --format ell --stream-pad never 2>&1; echo \"exit=$?\""
         $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx)
set_tests_properties(cli.spmv.format_stream_pad PROPERTIES PASS_REGULAR_EXPRESSION
                     "--format ell: --algorithm \\(other than auto\\), --transpose and --stream-pad \\(other than auto\\) are available with the csr format only.*exit=2")
add_test(NAME cli.spmv.pipe COMMAND sh -c "cat \"$1\" | \"$0\" spmv /dev/stdin --backend serial 2>&1; echo \"exit=$?\""
         $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/dup3.mtx)
set_tests_properties(cli.spmv.pipe PROPERTIES PASS_REGULAR_EXPRESSION "2 x 2, 2 entries \\(3 stored in the file: 1 duplicate summed\\).*exit=0")
# a three-line file declaring 2^31 - 1 rows: refused at once from its sizes (a review: it ran for
# minutes at 15 GB, the vectors allocated lazily, before the kernel would have killed it)
# (about 103 GB: where the machine has more, not added)
cmake_host_system_information(RESULT _strata_phys_mib QUERY TOTAL_PHYSICAL_MEMORY)
if(_strata_phys_mib LESS 90000)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/huge_dims.mtx
     "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n2147483647 2147483647 3\n")
add_test(NAME cli.spmv.too_big COMMAND sh -c "\"$0\" spmv \"$1\" --backend serial 2>&1; echo \"exit=$?\""
         $<TARGET_FILE:strata_cli> ${CMAKE_CURRENT_BINARY_DIR}/huge_dims.mtx)
set_tests_properties(cli.spmv.too_big PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
                     "a 2147483647 x 2147483647 matrix with 1 entries needs about [0-9.e+]+ bytes .*above the [0-9.e+]+ bytes of physical memory.*exit=1")
endif()
