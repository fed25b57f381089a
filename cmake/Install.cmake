# Install rules and the CMake/pkg-config packages (docs/build-integration.md). Included by the top level.
#
# Installed: bin/mtl2glsl, bin/mtlrun, bin/mtltest; lib/libmtlrt.so (the runtime, shared: shaderc and glslang are linked into it
# statically and hidden, because Debian 12's libshaderc.so cannot be linked); include/mtl2glsl/mtlrt.h (+ dtype.def,
# which it includes); share/mtl2glsl/grammar (the Metal prelude; installed programs find it beside themselves);
# lib/cmake/mtl2glsl (find_package(mtl2glsl CONFIG): mtl2glsl::mtl2glsl, mtl2glsl::mtlrun, mtl2glsl::mtltest,
# mtl2glsl::mtlrt, mtl2glsl_add_kernels() and mtl2glsl_add_golden_tests()); lib/pkgconfig/mtlrt.pc;
# share/man/man1/mtl2glsl.1, mtlrun.1 and mtltest.1;
# lib/libmtl2glsl.so (the translator's public API, translator/mtl2glsl.h, for the Python package; the executables
# keep the static mtl2glsl_core); the Python package `mtl2glsl` in MTL2GLSL_PYTHON_DIR (docs/python.md).
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

# The translator as a shared library, likewise from mtl2glsl_core's sources (its public API: translator/mtl2glsl.h).
get_target_property(_m2g_dir mtl2glsl_core SOURCE_DIR)
get_target_property(_m2g_sources mtl2glsl_core SOURCES)
get_target_property(_m2g_defs mtl2glsl_core COMPILE_DEFINITIONS)
list(TRANSFORM _m2g_sources PREPEND "${_m2g_dir}/")
add_library(mtl2glsl_shared SHARED ${_m2g_sources})
set_target_properties(mtl2glsl_shared PROPERTIES OUTPUT_NAME mtl2glsl
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR} LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/mtl2glsl.map)
target_include_directories(mtl2glsl_shared PRIVATE ${_m2g_dir} ${MTL2GLSL_GRAMMAR_DIR} ${LLVM_INCLUDE_DIR})
target_compile_definitions(mtl2glsl_shared PRIVATE ${_m2g_defs})
# libm again after the static glslang of mtl2glsl_shaderc, which needs it (a plain `m` is only linked before it)
find_library(MTL2GLSL_LIBM m)
add_library(mtl2glsl_shaderc_libm INTERFACE)
target_link_libraries(mtl2glsl_shaderc_libm INTERFACE mtl2glsl_shaderc ${MTL2GLSL_LIBM})
target_link_libraries(mtl2glsl_shared PRIVATE ${LIBCLANG} mtl2glsl_shaderc_libm PkgConfig::CJSON m)
target_link_options(mtl2glsl_shared PRIVATE -Wl,--exclude-libs,ALL -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/mtl2glsl.map)
if(NOT MTL2GLSL_SANITIZE)
  target_link_options(mtl2glsl_shared PRIVATE -Wl,--no-undefined)
endif()

set_target_properties(mtl2glsl mtlrun mtltest mtl2glsl_shared PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS mtl2glsl_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS mtl2glsl mtlrun mtltest mtlrt_shared EXPORT mtl2glslTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${_mtlrt_dir}/mtlrt.h ${_mtlrt_dir}/mtlrt_vulkan.h ${_mtlrt_dir}/dtype.def DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mtl2glsl)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/grammar/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mtl2glsl/grammar)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/mtl2glsl.1 ${PROJECT_SOURCE_DIR}/docs/man/mtlrun.1
  ${PROJECT_SOURCE_DIR}/docs/man/mtltest.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/mtl2glsl)
install(EXPORT mtl2glslTargets NAMESPACE mtl2glsl:: FILE mtl2glsl-targets.cmake DESTINATION ${_cmakedir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mtl2glsl-config.cmake.in
  ${PROJECT_BINARY_DIR}/mtl2glsl-config.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mtl2glsl-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mtl2glsl-config.cmake ${PROJECT_BINARY_DIR}/mtl2glsl-config-version.cmake
  ${CMAKE_CURRENT_LIST_DIR}/Mtl2glslAddKernels.cmake ${CMAKE_CURRENT_LIST_DIR}/Mtl2glslAddGoldenTests.cmake
  DESTINATION ${_cmakedir})

# pkg-config: relocatable (paths from ${pcfiledir}), so `cmake --install --prefix P` anywhere works.
file(RELATIVE_PATH MTL2GLSL_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" MTL2GLSL_PC_TO_PREFIX "${MTL2GLSL_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/mtlrt.pc.in ${PROJECT_BINARY_DIR}/mtlrt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mtlrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Python package (python/mtl2glsl, docs/python.md): into MTL2GLSL_PYTHON_DIR under the prefix, with _paths.py
# giving the libraries and the prelude relative to the package, so a moved prefix keeps working. The default
# lib/pythonX.Y/dist-packages is on Debian's sys.path for the prefix /usr/local; other prefixes put it on PYTHONPATH.
find_program(MTL2GLSL_PYTHON_FOR_INSTALL NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
set(_pydir lib/python3/dist-packages)
if(MTL2GLSL_PYTHON_FOR_INSTALL)
  execute_process(COMMAND ${MTL2GLSL_PYTHON_FOR_INSTALL} -c "import sys; print('lib/python%d.%d/dist-packages' % sys.version_info[:2])"
                  OUTPUT_VARIABLE _pydir OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
set(MTL2GLSL_PYTHON_DIR ${_pydir} CACHE STRING "where `cmake --install` puts the Python package, relative to the prefix")
file(RELATIVE_PATH MTL2GLSL_PY_TO_LIB "/p/${MTL2GLSL_PYTHON_DIR}/mtl2glsl" "/p/${CMAKE_INSTALL_LIBDIR}")
file(RELATIVE_PATH MTL2GLSL_PY_TO_GRAMMAR "/p/${MTL2GLSL_PYTHON_DIR}/mtl2glsl" "/p/${CMAKE_INSTALL_DATADIR}/mtl2glsl/grammar")
configure_file(${PROJECT_SOURCE_DIR}/python/mtl2glsl/_paths.py.in ${PROJECT_BINARY_DIR}/python/_paths.py @ONLY)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/mtl2glsl DESTINATION ${MTL2GLSL_PYTHON_DIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/python/_paths.py DESTINATION ${MTL2GLSL_PYTHON_DIR}/mtl2glsl)
