# The public headers: include/floe/ plus three that are made here.
#   floe/version.h   from project(VERSION)
#   floe/result.h    Result<T>, Error: defined once, in src/util/result.h
#   floe/file_io.h   FileIO: defined once, in src/io/file_io.h
# In the build tree the last two forward to their one definition; the installed copies are
# that definition itself (file_io.h then includes floe/result.h), so an installed program
# sees no internal header and floe's own code no second definition.
set(FLOE_GENERATED ${CMAKE_BINARY_DIR}/generated)
set(FLOE_INSTALLED_HEADERS ${CMAKE_BINARY_DIR}/installed-headers)
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.h.in ${FLOE_GENERATED}/floe/version.h @ONLY)
file(WRITE ${FLOE_GENERATED}/floe/result.h.new "#pragma once\n#include \"util/result.h\"\n")
file(WRITE ${FLOE_GENERATED}/floe/file_io.h.new "#pragma once\n#include \"io/file_io.h\"\n")
foreach(header result file_io)
  file(COPY_FILE ${FLOE_GENERATED}/floe/${header}.h.new ${FLOE_GENERATED}/floe/${header}.h ONLY_IF_DIFFERENT)
  file(REMOVE ${FLOE_GENERATED}/floe/${header}.h.new)
endforeach()

set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/src/util/result.h ${CMAKE_SOURCE_DIR}/src/io/file_io.h)
configure_file(${CMAKE_SOURCE_DIR}/src/util/result.h ${FLOE_INSTALLED_HEADERS}/floe/result.h COPYONLY)
file(READ ${CMAKE_SOURCE_DIR}/src/io/file_io.h FLOE_FILE_IO_TEXT)
string(REPLACE "#include \"util/result.h\"" "#include \"floe/result.h\"" FLOE_FILE_IO_TEXT "${FLOE_FILE_IO_TEXT}")
file(CONFIGURE OUTPUT ${FLOE_INSTALLED_HEADERS}/floe/file_io.h CONTENT "${FLOE_FILE_IO_TEXT}" @ONLY)

set(FLOE_PUBLIC_INCLUDES $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<BUILD_INTERFACE:${FLOE_GENERATED}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
