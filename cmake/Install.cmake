# Install rules and the CMake/pkg-config packages (docs/build-integration.md). Included by the top level.
#
# Installed: bin/mtl2glsl, bin/mtlrun; lib/libmtlrt.so (the runtime, shared: shaderc and glslang are linked into it
# statically and hidden, because Debian 12's libshaderc.so cannot be linked); include/mtl2glsl/mtlrt.h (+ dtype.def,
# which it includes); share/mtl2glsl/grammar (the Metal prelude; installed programs find it beside themselves);
# lib/cmake/mtl2glsl (find_package(mtl2glsl CONFIG): mtl2glsl::mtl2glsl, mtl2glsl::mtlrun, mtl2glsl::mtlrt and
# mtl2glsl_add_kernels()); lib/pkgconfig/mtlrt.pc; share/man/man1/mtl2glsl.1 and mtlrun.1.
# The translator library (mtl2glsl_core) stays internal: the command line is its interface.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The runtime as a shared library, from the static mtlrt's sources (mtlrun and the tests keep the static one).
get_target_property(_mtlrt_dir mtlrt SOURCE_DIR)
get_target_property(_mtlrt_sources mtlrt SOURCES)
list(TRANSFORM _mtlrt_sources PREPEND "${_mtlrt_dir}/")
add_library(mtlrt_shared SHARED ${_mtlrt_sources})
set_target_properties(mtlrt_shared PROPERTIES OUTPUT_NAME mtlrt EXPORT_NAME mtlrt
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_include_directories(mtlrt_shared PUBLIC
  $<BUILD_INTERFACE:${_mtlrt_dir}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/mtl2glsl>)
target_link_libraries(mtlrt_shared PRIVATE Vulkan::Vulkan PkgConfig::SPVC PkgConfig::CJSON m mtl2glsl_shaderc)
target_link_options(mtlrt_shared PRIVATE -Wl,--exclude-libs,ALL -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/mtlrt.map)
set_target_properties(mtlrt_shared PROPERTIES LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/mtlrt.map)
set(MTL2GLSL_PC_SANITIZE "")
if(MTL2GLSL_SANITIZE)
  # A sanitized libmtlrt.so needs the sanitizer runtime in the program that loads it.
  target_link_options(mtlrt_shared INTERFACE -fsanitize=address,undefined)
  set(MTL2GLSL_PC_SANITIZE " -fsanitize=address,undefined")
else()
  target_link_options(mtlrt_shared PRIVATE -Wl,--no-undefined)
endif()

set_target_properties(mtl2glsl mtlrun PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS mtl2glsl mtlrun mtlrt_shared EXPORT mtl2glslTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${_mtlrt_dir}/mtlrt.h ${_mtlrt_dir}/dtype.def DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mtl2glsl)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/grammar/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mtl2glsl/grammar)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/mtl2glsl.1 ${PROJECT_SOURCE_DIR}/docs/man/mtlrun.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/mtl2glsl)
install(EXPORT mtl2glslTargets NAMESPACE mtl2glsl:: FILE mtl2glsl-targets.cmake DESTINATION ${_cmakedir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mtl2glsl-config.cmake.in
  ${PROJECT_BINARY_DIR}/mtl2glsl-config.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mtl2glsl-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mtl2glsl-config.cmake ${PROJECT_BINARY_DIR}/mtl2glsl-config-version.cmake
  ${CMAKE_CURRENT_LIST_DIR}/Mtl2glslAddKernels.cmake DESTINATION ${_cmakedir})

# pkg-config: relocatable (paths from ${pcfiledir}), so `cmake --install --prefix P` anywhere works.
file(RELATIVE_PATH MTL2GLSL_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" MTL2GLSL_PC_TO_PREFIX "${MTL2GLSL_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/mtlrt.pc.in ${PROJECT_BINARY_DIR}/mtlrt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mtlrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
