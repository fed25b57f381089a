#version 450
// Translated by mtl2glsl 0.1.0 from pytorch_forms.metal, kernel gather_checked
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require

// Threadgroup size: specialization constants 0, 1, 2, set by the runtime at dispatch.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

struct Report
{
    int8_t where[32];
    int8_t text[64];
    uint line;
};

struct Reports
{
    uint count;
    Report report[2];
};

layout(std430, set = 0, binding = 0) readonly buffer mtl_buffer_index { int64_t index[]; };
layout(std430, set = 0, binding = 1) readonly buffer mtl_buffer_src { float src[]; };
layout(std430, set = 0, binding = 2) writeonly buffer mtl_buffer_out_ { precise float out_[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_reports { Reports reports[]; };
layout(std430, set = 0, binding = 3) buffer mtl_buffer_reports_as_int8_t { int8_t reports_as_int8_t[]; }; // 'reports' read as char
layout(std430, set = 0, binding = 3) buffer mtl_buffer_reports_as_uint { uint reports_as_uint[]; }; // 'reports' read as uint

// Dispatch block (docs/interfaces.md), then constant-reference parameters.
layout(push_constant, std430) uniform mtl_params_t
{
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
    layout(offset = 16) int64_t size;
} mtl_params;

// "gather_checked"
const int8_t mtl_str_0[15] = int8_t[15](int8_t(103), int8_t(97), int8_t(116), int8_t(104), int8_t(101), int8_t(114), int8_t(95), int8_t(99), int8_t(104), int8_t(101), int8_t(99), int8_t(107), int8_t(101), int8_t(100), int8_t(0));
// "index "
const int8_t mtl_str_1[7] = int8_t[7](int8_t(105), int8_t(110), int8_t(100), int8_t(101), int8_t(120), int8_t(32), int8_t(0));
// " is out of bounds for size "
const int8_t mtl_str_2[28] = int8_t[28](int8_t(32), int8_t(105), int8_t(115), int8_t(32), int8_t(111), int8_t(117), int8_t(116), int8_t(32), int8_t(111), int8_t(102), int8_t(32), int8_t(98), int8_t(111), int8_t(117), int8_t(110), int8_t(100), int8_t(115), int8_t(32), int8_t(102), int8_t(111), int8_t(114), int8_t(32), int8_t(115), int8_t(105), int8_t(122), int8_t(101), int8_t(32), int8_t(0));

uint put_text_reports_mtl_str_0(uint dst, uint src_p, uint room)
{
    uint i = 0u;
    for (; int(mtl_str_0[src_p + i]) != 0 && i + 1u < room; i++)
    {
        reports_as_int8_t[dst + i] = mtl_str_0[src_p + i];
    }
    reports_as_int8_t[dst + i] = int8_t(0);
    return i;
}

uint put_text_reports_mtl_str_1(uint dst, uint src_p, uint room)
{
    uint i = 0u;
    for (; int(mtl_str_1[src_p + i]) != 0 && i + 1u < room; i++)
    {
        reports_as_int8_t[dst + i] = mtl_str_1[src_p + i];
    }
    reports_as_int8_t[dst + i] = int8_t(0);
    return i;
}

uint put_text_reports_mtl_str_2(uint dst, uint src_p, uint room)
{
    uint i = 0u;
    for (; int(mtl_str_2[src_p + i]) != 0 && i + 1u < room; i++)
    {
        reports_as_int8_t[dst + i] = mtl_str_2[src_p + i];
    }
    reports_as_int8_t[dst + i] = int8_t(0);
    return i;
}

uint put_arg_reports_mtl_str_1(uint dst, uint room, uint s)
{
    return put_text_reports_mtl_str_1(dst, s, room);
}

uint put_arg_reports_mtl_str_2(uint dst, uint room, uint s)
{
    return put_text_reports_mtl_str_2(dst, s, room);
}

uint put_arg_reports(uint dst, uint room, int64_t v)
{
    uint digits = 1u;
    for (int64_t t = v < 0l ? -v : v; t > 9l; t /= 10l)
    {
        digits++;
    }
    uint len = digits + uint((v < 0l ? 1 : 0));
    if (len + 1u > room)
    {
        return 0u;
    }
    if (v < 0l)
    {
        reports_as_int8_t[dst] = int8_t(45);
        v = -v;
    }
    for (uint k = 0u; k < digits; (k++, v /= 10l))
    {
        reports_as_int8_t[dst + (len - 1u - k)] = int8_t(48l + int64_t(v - 10l * (v / 10l)));
    }
    reports_as_int8_t[dst + len] = int8_t(0);
    return len;
}

void put_args_long_reports(uint dst, uint room, int64_t arg)
{
    put_arg_reports(dst, room, arg);
}

void put_args_const_constant_char__reports_mtl_str_2(uint dst, uint room, uint arg, int64_t rest)
{
    const uint n = put_arg_reports_mtl_str_2(dst, room, arg);
    put_args_long_reports(dst + n, room - n, rest);
}

void put_args_long_reports_mtl_str_2(uint dst, uint room, int64_t arg, uint rest, int64_t rest_1)
{
    const uint n = put_arg_reports(dst, room, arg);
    put_args_const_constant_char__reports_mtl_str_2(dst + n, room - n, rest, rest_1);
}

void put_args_const_constant_char__reports_mtl_str_1_mtl_str_2(uint dst, uint room, uint arg, int64_t rest, uint rest_1, int64_t rest_2)
{
    const uint n = put_arg_reports_mtl_str_1(dst, room, arg);
    put_args_long_reports_mtl_str_2(dst + n, room - n, rest, rest_1, rest_2);
}

void report_reports_mtl_str_0_mtl_str_1_mtl_str_2(uint reports_p, uint where, int line, uint args, int64_t args_1, uint args_2, int64_t args_3)
{
    const uint k = atomicAdd(reports[reports_p].count, 1u);
    if (k >= 2u)
    {
        return;
    }
    uint r = reports_p * 51u + 1u + k * 25u;
    put_text_reports_mtl_str_0(r * 4u, where, 32u);
    put_args_const_constant_char__reports_mtl_str_1_mtl_str_2((r + 8u) * 4u, 64u, args, args_1, args_2, args_3);
    reports_as_uint[r + 24u] = uint(line);
}

void main()
{
    // dispatchThreads: threads past the grid do not exist in Metal
    if (any(greaterThanEqual(gl_GlobalInvocationID, mtl_params.mtl_threads_per_grid)))
        return;
    int64_t size = mtl_params.size;
    uint i = gl_GlobalInvocationID.x;
    const int64_t idx = index[i];
    if (idx < 0l || idx >= size)
    {
        report_reports_mtl_str_0_mtl_str_1_mtl_str_2(0u, 0u, 7, 0u, idx, 0u, size);
        out_[i] = 0.0;
        return;
    }
    out_[i] = src[int(idx)];
}
