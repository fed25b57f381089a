/* spirv.c: GLSL compute source to SPIR-V in process (shaderc), for --emit=spirv, and the check every shader
   the translator writes passes: glslang compiles it and the SPIR-V validator (spirv-val's library) accepts it. */
#include <shaderc/shaderc.h>
#include <spirv-tools/libspirv.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A compiler is costly to make (glslang's process set-up: about 0.2 s), so one serves many shaders. */
static shaderc_compilation_result_t compile(shaderc_compiler_t compiler, const char *glsl, const char *name,
                                            shaderc_optimization_level level)
{
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compile_options_set_optimization_level(opts, level);
    shaderc_compilation_result_t res =
        shaderc_compile_into_spv(compiler, glsl, strlen(glsl), shaderc_compute_shader, name, "main", opts);
    shaderc_compile_options_release(opts);
    return res;
}

unsigned *spirv_compile(const char *glsl, const char *name, size_t *n_bytes, char **err)
{
    shaderc_compiler_t compiler = shaderc_compiler_initialize();
    shaderc_compilation_result_t res = compile(compiler, glsl, name, shaderc_optimization_level_performance);
    shaderc_compiler_release(compiler);
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
    return words;
}

/* The validator's message for SPIR-V WORDS under Vulkan 1.1 (with the scalar block layout when SCALAR), as
   spirv-val --target-env vulkan1.1 [--scalar-block-layout] checks it; NULL when valid. malloc'd. */
static char *validate(const unsigned *words, size_t n_words, bool scalar)
{
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_validator_options vo = spvValidatorOptionsCreate();
    spvValidatorOptionsSetScalarBlockLayout(vo, scalar);
    spv_const_binary_t bin = {words, n_words};
    spv_diagnostic diag = NULL;
    spv_result_t r = spvValidateWithOptions(ctx, vo, &bin, &diag);
    char *msg = NULL;
    if (r != SPV_SUCCESS)
        msg = strdup(diag && diag->error ? diag->error : "the SPIR-V validator rejects the module");
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(vo);
    spvContextDestroy(ctx);
    return msg;
}

char *spirv_check(void **compiler, const char *glsl, const char *name)
{
    if (!*compiler)
        *compiler = shaderc_compiler_initialize();
    shaderc_compilation_result_t res = compile(*compiler, glsl, name, shaderc_optimization_level_zero);
    char *msg = NULL;
    if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        msg = strdup(shaderc_result_get_error_message(res));
    } else {
        bool scalar = strstr(glsl, "GL_EXT_scalar_block_layout") != NULL; /* the runtime enables it for these */
        msg = validate((const unsigned *)shaderc_result_get_bytes(res), shaderc_result_get_length(res) / 4, scalar);
    }
    shaderc_result_release(res);
    return msg;
}

void spirv_check_done(void **compiler)
{
    if (*compiler)
        shaderc_compiler_release(*compiler);
    *compiler = NULL;
}
