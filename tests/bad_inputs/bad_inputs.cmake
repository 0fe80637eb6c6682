# bad_inputs: the bad-input catalogue (tests/bad_inputs/cases.txt). Each case
# runs the ipcc command on a malformed input and checks a non-zero exit that
# is not a signal, no sanitizer report, a message naming the file, line, key
# or body at fault, and earlier output left byte-identical. See README.md.
if(TARGET ipcc)
  add_test(NAME bad_inputs
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run.sh $<TARGET_FILE:ipcc> ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/bad_inputs_work)
  # One OpenMP thread: ctest runs tests in parallel. ~120 short runs of ipcc
  # (about 0.2 s each under ASan).
  set_tests_properties(bad_inputs PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 900)
endif()
