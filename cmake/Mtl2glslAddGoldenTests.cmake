# mtl2glsl_add_golden_tests(DIRECTORY dir [LABELS label ...] [PREFIX name] [OPTIONS arg ...])
#
# Registers every golden test file under DIRECTORY (*.golden.json, searched recursively; docs/golden-tests.md) as one
# ctest test, named PREFIX.NAME (PREFIX defaults to "golden"; NAME is the file's path under DIRECTORY without
# .golden.json, with / as .), that runs `mtltest [OPTIONS] FILE`. A test that mtltest skips (the file says so, or the
# device lacks what the kernel needs) is reported as skipped (SKIP_RETURN_CODE 77). OPTIONS go to mtltest as they
# are: --validate, --device NAME, --subgroup-size N, ... Files added later are found when CMake runs again
# (CONFIGURE_DEPENDS). The project needs enable_testing() (or include(CTest)) for ctest to see the tests.
function(mtl2glsl_add_golden_tests)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "DIRECTORY;PREFIX" "LABELS;OPTIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mtl2glsl_add_golden_tests: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS} "
                        "(expected DIRECTORY, LABELS, PREFIX, OPTIONS)")
  endif()
  if(NOT ARG_DIRECTORY)
    message(FATAL_ERROR "mtl2glsl_add_golden_tests: DIRECTORY <folder of *.golden.json files> is required")
  endif()
  get_filename_component(dir "${ARG_DIRECTORY}" ABSOLUTE)
  if(NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "mtl2glsl_add_golden_tests: DIRECTORY ${ARG_DIRECTORY} is not a folder (${dir})")
  endif()
  if(NOT ARG_PREFIX)
    set(ARG_PREFIX golden)
  endif()
  file(GLOB_RECURSE files CONFIGURE_DEPENDS "${dir}/*.golden.json")
  list(SORT files)
  if(NOT files)
    message(FATAL_ERROR "mtl2glsl_add_golden_tests: no golden test files (*.golden.json) in ${dir}")
  endif()
  foreach(file IN LISTS files)
    file(RELATIVE_PATH rel "${dir}" "${file}")
    string(REGEX REPLACE "\\.golden\\.json$" "" name "${rel}")
    string(REPLACE "/" "." name "${name}")
    add_test(NAME ${ARG_PREFIX}.${name} COMMAND mtl2glsl::mtltest ${ARG_OPTIONS} "${file}")
    set_tests_properties(${ARG_PREFIX}.${name} PROPERTIES SKIP_RETURN_CODE 77)
    if(ARG_LABELS)
      set_tests_properties(${ARG_PREFIX}.${name} PROPERTIES LABELS "${ARG_LABELS}")
    endif()
  endforeach()
endfunction()
