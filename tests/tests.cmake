# Extra test registrations (included by tests/CMakeLists.txt).

# The Python whose vtk module reads frames back (vtk_reader, example_minimal):
# Debian's, with python3-vtk9. Point it at one without vtk to see them skip.
set(IPCC_VTK_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with the vtk module, for the VTK read-back tests")

# vtk_reader: synthetic frames written by src/output/vtk.c, read back by VTK itself
# (tests/vtk_check.py under IPCC_VTK_PYTHON). Skipped (77) when that Python
# or its vtk module is missing (vtk_check.py: a failure when CI=true).
add_executable(vtk_frames_writer ${CMAKE_CURRENT_SOURCE_DIR}/vtk_frames_writer.c)
target_link_libraries(vtk_frames_writer PRIVATE ipcc_test_support)
set(IPCC_VTK_READER_DIR ${CMAKE_CURRENT_BINARY_DIR}/vtk_reader_frames)
add_test(NAME vtk_reader
         COMMAND sh -c "rm -rf \"$1\" && counts=$(\"$0\" \"$1\") && { [ -x \"$3\" ] || exit 77; } \
&& exec \"$3\" \"$2\" --fields \"$1\" $counts"
                 $<TARGET_FILE:vtk_frames_writer> ${IPCC_VTK_READER_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/vtk_check.py
                 ${IPCC_VTK_PYTHON})
set_tests_properties(vtk_reader PROPERTIES SKIP_RETURN_CODE 77)

# vtk_compressed: the same synthetic frames written raw and zlib-compressed
# (level 1): `ipcc compare` finds them identical (frames_read.c inflates the
# compressed ones; --tol 0), and VTK reads every compressed .vtu and .vtp
# exactly as the raw one (vtk_check.py --same-as; skipped, 77, without VTK).
if(TARGET ipcc)
  add_test(NAME vtk_compressed
           COMMAND sh -c "rm -rf \"$1.raw\" \"$1.zlib\" && counts=$(\"$0\" \"$1.raw\") \
&& [ \"$(\"$0\" \"$1.zlib\" 1)\" = \"$counts\" ] && grep -q vtkZLibDataCompressor \"$1.zlib/frame_000000.vtu\" \
&& \"$4\" compare \"$1.raw\" \"$1.zlib\" --tol 0 && { [ -x \"$3\" ] || exit 77; } \
&& exec \"$3\" \"$2\" --fields --same-as \"$1.raw\" \"$1.zlib\" $counts"
                   $<TARGET_FILE:vtk_frames_writer> ${CMAKE_CURRENT_BINARY_DIR}/vtk_compressed_frames
                   ${CMAKE_CURRENT_SOURCE_DIR}/vtk_check.py ${IPCC_VTK_PYTHON} $<TARGET_FILE:ipcc>)
  set_tests_properties(vtk_compressed PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "OMP_NUM_THREADS=1")
endif()

# cli: the ipcc command end to end (a real scene to VTK frames, and the
# bad-input catalogue). See tests/cli_test.sh.
if(TARGET ipcc)
  add_test(NAME cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.sh $<TARGET_FILE:ipcc>
                            ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_work)
endif()

# resume: runs killed (SIGKILL, SIGINT, SIGTERM, a full disk) and resumed end
# bit-identical to an uninterrupted run; the progress bar. See resume_test.sh.
if(TARGET ipcc)
  add_test(NAME resume COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/resume_test.sh $<TARGET_FILE:ipcc>
                               ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/resume_work)
  set_tests_properties(resume PROPERTIES TIMEOUT 900)
endif()

# example_minimal: the C API example runs and its frames open in VTK (51
# frames). Skipped (77) when IPCC_VTK_PYTHON or its vtk module is missing,
# after the example itself has run (vtk_check.py: a failure when CI=true).
add_test(NAME example_minimal
         COMMAND sh -c "rm -rf \"$1\" && \"$0\" \"$1\" >/dev/null && { [ -x \"$3\" ] || exit 77; } \
&& exec \"$3\" \"$2\" \"$1\" 51 - -"
                 $<TARGET_FILE:example_minimal> ${CMAKE_CURRENT_BINARY_DIR}/example_minimal_out
                 ${CMAKE_CURRENT_SOURCE_DIR}/vtk_check.py ${IPCC_VTK_PYTHON})
set_tests_properties(example_minimal PROPERTIES SKIP_RETURN_CODE 77)

# One OpenMP thread per test: ctest runs tests in parallel.
set_tests_properties(vtk_reader example_minimal PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=1")
if(TARGET ipcc)
  set_tests_properties(cli PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=1")
endif()

# valgrind_contact: one contact scene (and its resume) under valgrind's
# memcheck: no invalid access, no leak (docs/testing.md). Needs a build
# without sanitizers; labelled slow (about a minute), skipped when valgrind
# is missing.
if(TARGET ipcc AND NOT IPCC_SANITIZE)
  add_test(NAME valgrind_contact
           COMMAND sh -c "command -v valgrind >/dev/null || exit 77; rm -rf \"$1\" && \
vg='valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9' && \
$vg \"$0\" run \"$2\" --steps 16 --checkpoint-every 5 -o \"$1\" -q && $vg \"$0\" resume \"$1\" --steps 20 -q"
                   $<TARGET_FILE:ipcc> ${CMAKE_CURRENT_BINARY_DIR}/valgrind_out ${PROJECT_SOURCE_DIR}/examples/contact_cubes.json)
  set_tests_properties(valgrind_contact PROPERTIES LABELS slow SKIP_RETURN_CODE 77 TIMEOUT 900
                       ENVIRONMENT "OMP_NUM_THREADS=1")
endif()

# determinism: its golden hash (tests/scenes/test_determinism.c, GOLDEN_HASH) is the
# result with OpenBLAS's generic x86-64 kernels, which every x86-64 CPU runs:
# the kernels picked by CPU round differently (measured on one machine: its
# Cooperlake and SkylakeX, Haswell and Zen, Sandybridge, Nehalem, Prescott:
# five different hashes).
set_tests_properties(determinism PROPERTIES ENVIRONMENT
                     "IPCC_BIN_DIR=${PROJECT_BINARY_DIR};OMP_NUM_THREADS=1;OPENBLAS_CORETYPE=Prescott")

# Slow scenes: skipped in CI (ctest -LE slow); `make test-all` runs them.
set_tests_properties(mat_twist PROPERTIES LABELS slow TIMEOUT 3600)
# Every IPC scene for 20 steps (ipc_scenes runs fewer on the large ones).
add_test(NAME ipc_scenes_full COMMAND test_ipc_scenes)
set_tests_properties(ipc_scenes_full PROPERTIES LABELS slow TIMEOUT 14400 ENVIRONMENT "IPCC_IPC_SCENES_STEPS=20;OMP_NUM_THREADS=1")
set_tests_properties(ipc_scenes PROPERTIES TIMEOUT 3000)

# Test groups kept in their own folders (each file registers its tests).
foreach(part bad_inputs/bad_inputs fuzz/fuzz scenes/scenes scripts/scripts install/install batch/batch)
  include(${CMAKE_CURRENT_SOURCE_DIR}/${part}.cmake OPTIONAL)
endforeach()

# no_allocation: a step whose sizes and contact pattern were seen before
# allocates nothing (tests/no_allocation.c counts every malloc of the
# process, CHOLMOD's and OpenMP's included). Needs a build without
# sanitizers, which replace the allocator.
if(NOT IPCC_SANITIZE)
  add_executable(no_allocation ${CMAKE_CURRENT_SOURCE_DIR}/no_allocation.c)
  target_link_libraries(no_allocation PRIVATE ipcc_test_support)
  add_test(NAME no_allocation COMMAND no_allocation)
  set_tests_properties(no_allocation PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=2")
endif()

# resting_contact, internal_edges: issue 8's validation scenes (cmocka,
# registered by the glob in tests/CMakeLists.txt): a resting stack's contact
# forces against the weights, and a ball sliding over a triangulated plane
# against a half-space. About 3 s and 9 s in Release, 7 s and 14 s of CPU
# under ASan/UBSan; the timeout bounds a Newton pinned at a barrier
# discontinuity (test_resting_contact.c's preamble), which costs seconds a step.
set_tests_properties(resting_contact internal_edges PROPERTIES TIMEOUT 600)

# The architecture (scripts/check_layers.py): every file of src/ in a layer
# folder of docs/design.md's table; every #include and every call (read from
# this build's object files) goes down the layers, and no files call each
# other in a circle; foo.h declares only what foo.c defines; no source file
# over 1000 lines. layers_self_test plants an upward call, a circle, a hub
# header and an upward include in a small tree and checks each is found.
add_test(NAME layers COMMAND python3 ${PROJECT_SOURCE_DIR}/scripts/check_layers.py
                             --build ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
add_test(NAME layers_self_test COMMAND python3 ${PROJECT_SOURCE_DIR}/scripts/check_layers.py --self-test)
set_tests_properties(layers_self_test PROPERTIES ENVIRONMENT "CC=${CMAKE_C_COMPILER}")

# make test skips the tests labelled slow and cluster, with or without CI=true, and says
# so; make test-all runs them (issue 19: make test took 22 minutes outside CI).
add_test(NAME makefile_targets
         COMMAND sh -c "for ci in '' true; do make -s -n -C \"$0\" test CI=$ci | grep -q -- 'ctest .*-LE .slow|cluster' || { echo \"make test CI=$ci does not skip the slow and cluster tests\"; exit 1; }; make -s -n -C \"$0\" test CI=$ci | grep -q 'make test-all' || { echo 'make test does not say how to run the slow tests'; exit 1; }; done; if make -s -n -C \"$0\" test-all | grep -q -- '-LE slow'; then echo 'make test-all skips the slow tests'; exit 1; fi; echo ok"
                 ${PROJECT_SOURCE_DIR})

# terrain_vtk: examples/terrain.json for 0.1 s with contact reports, read back
# by VTK: the height field's surface in every obstacles .vtp (24 x 24 samples,
# 3 x 3 quads per cell: 70 x 70 points, 9522 triangles), contact records
# against it; skipped (77) without VTK.
if(TARGET ipcc)
  add_test(NAME terrain_vtk
           COMMAND sh -c "rm -rf \"$1\" && \"$0\" run \"$2\" -o \"$1\" --set duration=0.1 --set output.contacts=true -q \
&& { [ -x \"$4\" ] || exit 77; } && exec \"$4\" \"$3\" --contacts \"$1\" 4 380 1168 4900 9522"
                   $<TARGET_FILE:ipcc> ${CMAKE_CURRENT_BINARY_DIR}/terrain_vtk_out
                   ${PROJECT_SOURCE_DIR}/examples/terrain.json ${CMAKE_CURRENT_SOURCE_DIR}/vtk_check.py
                   ${IPCC_VTK_PYTHON})
  set_tests_properties(terrain_vtk PROPERTIES SKIP_RETURN_CODE 77)
endif()

# python: the package in python/ (docs/python.md) under Debian's Python with
# numpy and pytest (make test-deps), against this build's shared library and
# command. Not in the sanitizer build (an ASan library cannot be loaded into
# an uninstrumented interpreter). Skipped (77) without numpy or pytest,
# failed instead when CI=true. One thread (ctest runs two tests at once; the
# thread-count test sets its own).
set(IPCC_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with numpy and pytest, for the python package's tests")
if(TARGET ipcc AND TARGET ipcc_shared AND NOT IPCC_SANITIZE)
  add_test(NAME python
           COMMAND sh -c "\"$0\" -c 'import numpy, pytest' 2>/dev/null || { [ \"$CI\" = true ] && { echo 'python: numpy or pytest missing (make test-deps)'; exit 1; }; exit 77; }; exec \"$0\" -m pytest -q -p no:cacheprovider \"$1\""
                   ${IPCC_PYTHON} ${PROJECT_SOURCE_DIR}/python/tests)
  set_tests_properties(python PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT
                       "IPCC_LIBRARY=$<TARGET_FILE:ipcc_shared>;IPCC_CLI=$<TARGET_FILE:ipcc>;PYTHONPATH=${PROJECT_SOURCE_DIR}/python;PYTHONDONTWRITEBYTECODE=1;OMP_NUM_THREADS=1")
endif()

# The cluster tests (label cluster: make test-cluster), after IPCC_PYTHON.
include(${CMAKE_CURRENT_SOURCE_DIR}/cluster/cluster.cmake)
