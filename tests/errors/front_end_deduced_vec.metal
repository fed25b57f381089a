// An alias template of vec that function templates deduce their element type through (MLX's NAX fragments,
// `dtype_frag_t<U> = vec<U, N>`): the float and half instances deduce and translate; a bfloat or bool instance is
// one error naming the construct at the alias, which stops only its kernels, with no cascade of the calls that
// deduce nothing (clang 14 has no bfloat type: bfloat and bool vectors are structs to the front end). An alias that
// no function deduces through alone stays the prelude's vec, which takes bfloat (samples/front_forms.metal, pair_sum).
// EXPECT-EXIT: 1
// EXPECT-ERROR: @+9:25: error: metal::vec<bfloat, N> through the alias template 'frag_t' is not supported
// EXPECT-ERROR: @+8:25: error: metal::vec<bool, N> through the alias template 'frag_t' is not supported
// EXPECT-STDERR: note: the error above stops 2 entry points: 'scale_bf16', 'scale_bool'
// EXPECT-NOT-STDERR: no matching
// EXPECT-STDOUT: scale_f32
// EXPECT-STDOUT: scale_f16
#include <metal_stdlib>
using namespace metal;
struct Frag {
  template <typename U> using frag_t = typename metal::vec<U, 4>;
  template <typename T, typename SrcPtr> static void load(thread frag_t<T>& dst, SrcPtr src) {
    for (int j = 0; j < 4; j++)
      dst[j] = src[j];
  }
  template <typename T> static void store(const thread frag_t<T>& src, device T* dst) {
    for (int j = 0; j < 4; j++)
      dst[j] = src[j] * T(2);
  }
};
template <typename T>
struct Tile {
  typename Frag::template frag_t<T> f;
};
template <typename T>
kernel void scale(const device T* in [[buffer(0)]], device T* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  Tile<T> t;
  Frag::load(t.f, in + 4 * i);
  Frag::store(t.f, out + 4 * i);
}
template [[host_name("scale_f32")]] kernel void scale<float>(const device float*, device float*, uint);
template [[host_name("scale_f16")]] kernel void scale<half>(const device half*, device half*, uint);
template [[host_name("scale_bf16")]] kernel void scale<bfloat>(const device bfloat*, device bfloat*, uint);
template [[host_name("scale_bool")]] kernel void scale<bool>(const device bool*, device bool*, uint);
