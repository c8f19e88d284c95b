# The public headers: include/floe/ (installed as it is) plus floe/version.h, made here from
# project(VERSION). include/floe/ holds the only definition of Result<T> (floe/result.h) and of
# FileIO (floe/file_io.h): every room sees include/ and uses those two headers as a program does.
set(FLOE_GENERATED ${CMAKE_BINARY_DIR}/generated)
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.h.in ${FLOE_GENERATED}/floe/version.h @ONLY)

set(FLOE_PUBLIC_INCLUDES $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<BUILD_INTERFACE:${FLOE_GENERATED}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
