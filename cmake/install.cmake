# cmake --install lays out bin/floe, include/floe/, the libraries, a CMake package
# (find_package(floe CONFIG) -> floe::floe) and lib/pkgconfig/floe.pc.
include(CMakePackageConfigHelpers)

# floe::floe is the facade library (src/api) behind include/floe/; it links the rooms PRIVATE
# (CMakeLists.txt), so a program gets include/floe/ as its only include directory.
set_target_properties(floe_api PROPERTIES EXPORT_NAME floe)
add_library(floe::floe ALIAS floe_api)

set(FLOE_INSTALLED_ROOMS)
foreach(room ${FLOE_ROOMS})
  list(APPEND FLOE_INSTALLED_ROOMS floe_${room})
endforeach()
install(TARGETS floe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${FLOE_INSTALLED_ROOMS} EXPORT floeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/floe DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${FLOE_GENERATED}/floe/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/floe)

set(FLOE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/floe)
install(EXPORT floeTargets NAMESPACE floe:: DESTINATION ${FLOE_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/floeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/floeConfig.cmake INSTALL_DESTINATION ${FLOE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/floeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/floeConfig.cmake ${CMAKE_BINARY_DIR}/floeConfigVersion.cmake
  DESTINATION ${FLOE_CMAKE_DIR})

# pkg-config: the static libraries in link order (each room before the rooms it uses).
set(FLOE_PC_LIBS)
foreach(room api server maint rows contention commit scan write catalog table_files io parquet avro meta expr types util)
  string(APPEND FLOE_PC_LIBS " -lfloe_${room}")
endforeach()
string(STRIP "${FLOE_PC_LIBS}" FLOE_PC_LIBS)
configure_file(${CMAKE_SOURCE_DIR}/cmake/floe.pc.in ${CMAKE_BINARY_DIR}/floe.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/floe.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# A Debian package of the same layout: cpack -G DEB in the build folder.
set(CPACK_PACKAGE_NAME floe)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "floe maintainers <floe@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Apache Iceberg tables: library, command line and REST catalog server")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libavro-dev, libzstd-dev, libcpp-httplib-dev, libsqlite3-dev, libpq-dev, libfmt-dev, zlib1g-dev, libssl-dev, libsnappy-dev, libdeflate-dev, libroaring-dev, nlohmann-json3-dev")
set(CPACK_GENERATOR DEB)
include(CPack)

# The examples build against an installed floe and run: scripts/test_examples.sh installs
# this build into a temporary prefix first.
add_test(NAME examples_against_install
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/test_examples.sh ${CMAKE_BINARY_DIR})
set_tests_properties(examples_against_install PROPERTIES TIMEOUT 900)
