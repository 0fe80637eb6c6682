# Batch runs on real cluster engines (docs/batch-runs.md), included from
# tests/tests.cmake. Labelled "cluster": make test skips them, make
# test-cluster runs them (.ci/run does), make test-all too.
#
#   slurm    a single-node Slurm brought up from Debian's packages runs the
#            doc's job array as written: 3 tasks, a bad scene, a time limit
#            and a resume (tests/cluster/slurm_test.sh; about 2 minutes).
#            Needs root; skipped (77) without root or the packages, unless
#            CI=true.
#   dask     ipcc.sweep against a real dask scheduler and two dask workers
#            over TCP (python/tests/cluster/test_sweep_dask.py).
if(TARGET ipcc)
  add_test(NAME slurm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cluster/slurm_test.sh $<TARGET_FILE:ipcc>
                              ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/slurm_work)
  set_tests_properties(slurm PROPERTIES LABELS cluster SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL TRUE)
endif()
if(TARGET ipcc AND TARGET ipcc_shared AND NOT IPCC_SANITIZE)
  add_test(NAME dask
           COMMAND sh -c "\"$0\" -c 'import numpy, pytest' 2>/dev/null || { [ \"$CI\" = true ] && { echo 'dask: numpy or pytest missing (make test-deps)'; exit 1; }; exit 77; }; exec \"$0\" -m pytest -q -p no:cacheprovider \"$1\""
                   ${IPCC_PYTHON} ${PROJECT_SOURCE_DIR}/python/tests_cluster)
  set_tests_properties(dask PROPERTIES LABELS cluster SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT
                       "IPCC_LIBRARY=$<TARGET_FILE:ipcc_shared>;IPCC_CLI=$<TARGET_FILE:ipcc>;PYTHONPATH=${PROJECT_SOURCE_DIR}/python;PYTHONDONTWRITEBYTECODE=1;OMP_NUM_THREADS=1")
endif()
