# Fuzz regression tests (included by tests/tests.cmake): each libFuzzer
# harness tests/fuzz/fuzz_<target>.c is linked with replay.c instead of
# libFuzzer, as fuzz_replay_<target>, and the ctest fuzz_replay_<target>
# feeds it every file of the committed corpus tests/fuzz/corpus/<target>
# (real files, what the fuzzers found, and every input that once crashed).
# bench/fuzz.sh builds the same harnesses with clang and -fsanitize=fuzzer
# and runs them.
set(IPCC_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
foreach(target msh tetgen obj json ipc)
  add_executable(fuzz_replay_${target} ${IPCC_FUZZ_DIR}/fuzz_${target}.c ${IPCC_FUZZ_DIR}/replay.c)
  target_compile_definitions(fuzz_replay_${target} PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(fuzz_replay_${target} PRIVATE ipcc_static)
  # fuzz_json uses the parser's own comment blanking (src/scene/scene_parse.h), fuzz_ipc the
  # IPC script reader (src/scene/ipc/ipc_script.h).
  target_include_directories(fuzz_replay_${target} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  add_test(NAME fuzz_replay_${target} COMMAND fuzz_replay_${target} ${IPCC_FUZZ_DIR}/corpus/${target})
  set_tests_properties(fuzz_replay_${target} PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 120)
endforeach()
