// The prelude uses reserved names only (as Apple's headers do), so the user's macros cannot break it:
// `-D N=4 -D T=float` (and K, M, C, R) translate. Apple's header names, macros and traits are all there.
// ARGS: -D N=4 -D T=float -D K=2 -D M=3 -D C=1 -D R=5 %s
// EXPECT-EXIT: 0
// EXPECT-STDOUT: #version 450
#include <metal_math>
#include <metal_common>
#include <metal_integer>
#include <metal_limits>
#include <metal_type_traits>
#include <metal_simdgroup>
#include <metal_atomic>
#include <metal_compute>
#include <metal_array>
#include <metal_stdlib>
using namespace metal;

#if !defined(__METAL__) || !defined(__HAVE_BFLOAT__) || __METAL_VERSION__ < 300
#error "Apple's predefined macros are missing"
#endif

METAL_FUNC T scaled(T v) { return v * T(N) * M_PI_F / M_PI_F; }

static_assert(is_same_v<make_scalar_t<vec<float, 4>>, float> && vec_elements<float3>::value == 3, "vector traits");
static_assert(is_convertible_v<int, float> && is_integral_v<int8_t> && numeric_limits<int8_t>::max() == 127, "traits");
static_assert(INT_MIN < 0 && UINT_MAX == 0xffffffffu && FLT_MANT_DIG == 24 && HALF_MAX > 65000.0f, "limits");

kernel void scale_n(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    x[i] = scaled(x[i]) + T(K + M + C + R) + min(FLT_MAX, MAXFLOAT) * 0.0f + numeric_limits<float>::epsilon() * 0.0f;
}
