# The public headers: include/floe/ plus the ones made here.
#   floe/version.h   from project(VERSION)
#   floe/result.h    Result<T>, Error: defined once, today in src/util/result.h
#   floe/file_io.h   FileIO: defined once, today in src/io/file_io.h
# In the build tree the last two forward to their one definition; the installed copies are
# that definition itself (file_io.h then includes floe/result.h), so an installed program
# sees no internal header and floe's own code no second definition.
#
# The target (issue 38, DESIGN.md's room table): include/floe/ holds the only copies of result.h
# and file_io.h, and floe's own code includes "floe/result.h" / "floe/file_io.h". The move is one
# mechanical step done at once over every room: git mv src/util/result.h include/floe/result.h,
# git mv src/io/file_io.h include/floe/file_io.h, replace the two include lines everywhere, and
# give floe_util the include/ folder (target_include_directories(floe_util PUBLIC
# $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>), which every room then sees). Nothing here
# needs editing then: a header that include/floe/ already holds is neither forwarded nor copied
# (install(DIRECTORY include/floe) installs it).
set(FLOE_GENERATED ${CMAKE_BINARY_DIR}/generated)
set(FLOE_INSTALLED_HEADERS ${CMAKE_BINARY_DIR}/installed-headers)
set(FLOE_GENERATED_HEADERS)  # what install.cmake installs from FLOE_INSTALLED_HEADERS
configure_file(${CMAKE_SOURCE_DIR}/cmake/version.h.in ${FLOE_GENERATED}/floe/version.h @ONLY)

# header name, its one definition under src/
foreach(entry "result:util/result.h" "file_io:io/file_io.h")
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 header)
  list(GET parts 1 definition)
  if(EXISTS ${CMAKE_SOURCE_DIR}/include/floe/${header}.h)
    file(REMOVE ${FLOE_GENERATED}/floe/${header}.h ${FLOE_INSTALLED_HEADERS}/floe/${header}.h)
    continue()
  endif()
  file(WRITE ${FLOE_GENERATED}/floe/${header}.h.new "#pragma once\n#include \"${definition}\"\n")
  file(COPY_FILE ${FLOE_GENERATED}/floe/${header}.h.new ${FLOE_GENERATED}/floe/${header}.h ONLY_IF_DIFFERENT)
  file(REMOVE ${FLOE_GENERATED}/floe/${header}.h.new)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${definition})
  # The installed copy is the definition, its own includes of the other made header redirected.
  file(READ ${CMAKE_SOURCE_DIR}/src/${definition} header_text)
  string(REPLACE "#include \"util/result.h\"" "#include \"floe/result.h\"" header_text "${header_text}")
  file(CONFIGURE OUTPUT ${FLOE_INSTALLED_HEADERS}/floe/${header}.h CONTENT "${header_text}" @ONLY)
  list(APPEND FLOE_GENERATED_HEADERS ${FLOE_INSTALLED_HEADERS}/floe/${header}.h)
endforeach()

set(FLOE_PUBLIC_INCLUDES $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<BUILD_INTERFACE:${FLOE_GENERATED}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
