# Regression scenes (docs/regression-testing.md), included from tests/tests.cmake.
#
#   scene_<name>     tests/scenes/<name>.json run with the ipcc CLI, compared with
#                    the committed reference/<name>/ (ipcc compare, --tol 1e-6), and
#                    every written frame checked inversion- and intersection-free
#                    (scene_frames_check); see scenes_test.sh
#   scenes_compare   ipcc compare itself: identical, perturbed, truncated, missing
#                    and malformed outputs (compare_test.sh)
#
# After a deliberate change of results, regenerate the references with
# tests/scenes/update_references.sh BUILD/ipcc and commit them.
if(TARGET ipcc)
  set(IPCC_SCENES_DIR ${CMAKE_CURRENT_SOURCE_DIR}/scenes)
  add_executable(scene_frames_check ${IPCC_SCENES_DIR}/frames_check.c)
  target_link_libraries(scene_frames_check PRIVATE ipcc_test_support)

  file(GLOB IPCC_REGRESSION_SCENES CONFIGURE_DEPENDS ${IPCC_SCENES_DIR}/*.json)
  foreach(scene ${IPCC_REGRESSION_SCENES})
    get_filename_component(name ${scene} NAME_WE)
    add_test(NAME scene_${name}
             COMMAND sh ${IPCC_SCENES_DIR}/scenes_test.sh $<TARGET_FILE:ipcc>
                        $<TARGET_FILE:scene_frames_check> ${scene} ${IPCC_SCENES_DIR}/reference/${name}
                        ${CMAKE_CURRENT_BINARY_DIR}/scenes_work/${name})
    set_tests_properties(scene_${name} PROPERTIES LABELS scenes ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 300)
  endforeach()

  add_test(NAME scenes_compare
           COMMAND sh ${IPCC_SCENES_DIR}/compare_test.sh $<TARGET_FILE:ipcc> ${IPCC_SCENES_DIR}/reference
                      ${CMAKE_CURRENT_BINARY_DIR}/scenes_work/compare)
  set_tests_properties(scenes_compare PROPERTIES LABELS scenes ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 300)
endif()

# Example scenes run in full with the CLI (exit 0: every step converged,
# not 3) and every frame checked inversion- and intersection-free by
# scene_frames_check (with its self-tests), obstacles at their pose at each
# frame's time.
#   demo_scene  the default demo (make demo, examples/demo.json): a user's
#               first run; 2 threads, the parallel paths
#   belt_scene  a moving half-space (examples/belt.json, a conveyor belt)
#   terrain_scene  height-field terrain (examples/terrain.json, rolling hills)
if(TARGET ipcc)
  function(ipcc_example_scene_test name example threads timeout)
    add_test(NAME ${name}
             COMMAND sh -c "rm -rf ${name}_out && \"$0\" run \"$1\" -o ${name}_out -q && \"$2\" \"$1\" ${name}_out --self-test"
                     $<TARGET_FILE:ipcc> ${PROJECT_SOURCE_DIR}/examples/${example}
                     $<TARGET_FILE:scene_frames_check>
             WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(${name} PROPERTIES LABELS scenes ENVIRONMENT "OMP_NUM_THREADS=${threads}" TIMEOUT ${timeout})
  endfunction()
  ipcc_example_scene_test(demo_scene demo.json 2 600)
  ipcc_example_scene_test(belt_scene belt.json 1 300)
  ipcc_example_scene_test(terrain_scene terrain.json 2 600)
endif()
