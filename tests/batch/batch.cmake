# Batch runs (docs/batch-runs.md), included from tests/tests.cmake.
#
#   batch_parallel   the doc's GNU parallel recipe on a tiny scene: two runs of a
#                    friction sweep in parallel, each folder checked, ipcc compare
#                    between them and against a sequential run, stats collected.
#                    Skipped (77) without GNU parallel.
if(TARGET ipcc)
  add_test(NAME batch_parallel
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/batch/batch_parallel_test.sh $<TARGET_FILE:ipcc>
                      ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/batch_work)
  set_tests_properties(batch_parallel PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "OMP_NUM_THREADS=1"
                                                 TIMEOUT 300)
endif()
