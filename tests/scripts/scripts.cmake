# scripts: scripts/plot_stats.py and scripts/render.py on a real run with
# contact, checked PNG by PNG, and their error messages (included by
# tests/tests.cmake; see tests/scripts/scripts_test.sh). Skipped (77) when
# /usr/bin/python3 lacks matplotlib or VTK (python3-matplotlib,
# python3-vtk9), or when there is neither a display nor xvfb-run (xvfb, xauth).
if(TARGET ipcc)
  add_test(NAME scripts COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/scripts_test.sh $<TARGET_FILE:ipcc>
                                ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/scripts_work)
  set_tests_properties(scripts PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 300)
endif()
