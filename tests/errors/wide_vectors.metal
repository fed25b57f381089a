// Vectors of more than 4 components, vec<T, 8> (MLX's NAX fragments): they parse, bfloat and bool ones included
// (clang refuses neither), and each use is an error naming the vector type; GLSL's vectors end at 4.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 20:16: error: vec<bool, 8> (a vector of more than 4 components) is not supported yet
// EXPECT-ERROR: 22:7: error: vec<float, 8> (a vector of more than 4 components) is not supported yet
// EXPECT-ERROR: 22:7: error: vec<bfloat, 8> (a vector of more than 4 components) is not supported yet
#include <metal_stdlib>
using namespace metal;

template <typename T>
struct Frag {
  using frag_t = metal::vec<T, 8>;
  frag_t v;
};

template <typename T>
[[kernel]] void wide(device const float* x [[buffer(0)]], device float* y [[buffer(1)]],
                     uint i [[thread_position_in_grid]]) {
  Frag<T> f;
  vec<bool, 8> m;
  for (short k = 0; k < 8; k++) {
    f.v[k] = T(x[8 * i + k]);
    m[k] = x[8 * i + k] > 0.0f;
  }
  y[i] = float(f.v[0]) + (m[1] ? 1.0f : 0.0f);
}
template [[host_name("wide_float")]] [[kernel]] decltype(wide<float>) wide<float>;
template [[host_name("wide_bfloat")]] [[kernel]] decltype(wide<bfloat>) wide<bfloat>;
