# install_tree: `cmake --install` into a scratch prefix under the build tree,
# checks the installed files, then builds and runs examples/c_api against it
# with find_package(ipcc) (shared and static) and with pkg-config. See
# tests/install/install_test.sh. Needs the whole build (ctest runs after it).
add_test(NAME install_tree
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/install_tree ${CMAKE_INSTALL_LIBDIR} ${CMAKE_INSTALL_INCLUDEDIR}
                 ${CMAKE_INSTALL_BINDIR} $<BOOL:${IPCC_SANITIZE}> ${CMAKE_COMMAND} ${CMAKE_C_COMPILER}
                 "${CMAKE_GENERATOR}" $<CONFIG>)
set_tests_properties(install_tree PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=1" TIMEOUT 300)
