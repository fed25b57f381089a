/* spirv.c: GLSL compute source to SPIR-V in process (shaderc), for --emit=spirv. */
#include <shaderc/shaderc.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

unsigned *spirv_compile(const char *glsl, const char *name, size_t *n_bytes, char **err)
{
    return spirv_compile_debug(glsl, name, n_bytes, err, false);
}

/* With DEBUG (mtl2glsl -g): unoptimized, with the GLSL source and every name (OpName, OpLine) kept. */
unsigned *spirv_compile_debug(const char *glsl, const char *name, size_t *n_bytes, char **err, bool debug)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    if (debug) {
        shaderc_compile_options_set_generate_debug_info(opts);
        shaderc_compile_options_set_optimization_level(opts, shaderc_optimization_level_zero);
    } else {
        shaderc_compile_options_set_optimization_level(opts, shaderc_optimization_level_performance);
    }
    shaderc_compilation_result_t res =
        shaderc_compile_into_spv(compiler, glsl, strlen(glsl), shaderc_compute_shader, name, "main", opts);
    unsigned *words = NULL;
    *err = NULL;
    if (shaderc_result_get_compilation_status(res) == shaderc_compilation_status_success) {
        *n_bytes = shaderc_result_get_length(res);
        words = malloc(*n_bytes);
        if (words)
            memcpy(words, shaderc_result_get_bytes(res), *n_bytes);
    } else {
        *err = strdup(shaderc_result_get_error_message(res));
    }
    shaderc_result_release(res);
    shaderc_compile_options_release(opts);
    shaderc_compiler_release(compiler);
    return words;
}
