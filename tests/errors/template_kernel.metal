// A kernel template (issue 5) is one error at the kernel, not OpenCL's complaints about kernels in templates;
// the file's other kernel is still translated and written, and the exit status says something failed.
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+7:35: error: kernel templates are not supported yet
// EXPECT-STDOUT: #version 450
#include <metal_stdlib>
using namespace metal;

kernel void ok(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 1.0f; }

template <typename T> kernel void zero(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = T(0); }
