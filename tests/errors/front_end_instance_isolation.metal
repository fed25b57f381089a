// Failure isolation inside templates. An error in one instance stops that instance's entry points only, also the
// second error of the same instance, for which clang repeats no "in instantiation of" note (MLX's reductions of
// complex64 beside the other types). An instance that several entry points use names all of them, though clang
// tells only the first that asked for it.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 27:5: error: no viable overloaded '='
// EXPECT-ERROR: 28:31: error: incompatible operand types ('__private cplx' and 'int')
// EXPECT-STDERR: 27:5: note: the error above stops 1 entry point: 'reduce_cplx'
// EXPECT-STDERR: 28:31: note: the error above stops 1 entry point: 'reduce_cplx'
// EXPECT-ERROR: 34:56: error: invalid operands to binary expression ('__private int' and '__private cplx')
// EXPECT-STDERR: 34:56: note: the error above stops 3 entry points: 'shared_1', 'shared_2', 'shared_3'
// EXPECT-STDOUT: #version 450
#include <metal_stdlib>
using namespace metal;

struct cplx {
  float re, im;
};

template <typename T> struct Sum {
  static T apply(T a, T b) { return a; }
};

template <typename T, typename Op>
[[kernel]] void reduce(device T* out, uint i [[thread_position_in_grid]]) {
  T v = out[i];
  v = 5;
  out[i] = Op::apply(v, i > 0 ? v : 1);
}
template [[host_name("reduce_float")]] [[kernel]] decltype(reduce<float, Sum<float>>) reduce<float, Sum<float>>;
template [[host_name("reduce_cplx")]] [[kernel]] decltype(reduce<cplx, Sum<cplx>>) reduce<cplx, Sum<cplx>>;
template [[host_name("reduce_half")]] [[kernel]] decltype(reduce<half, Sum<half>>) reduce<half, Sum<half>>;

template <typename T> T helper(T x) { cplx c; return x + c; }
template <typename T, int N>
[[kernel]] void shared(device T* o, uint i [[thread_position_in_grid]]) { o[i] = helper<int>(N); }
template [[host_name("shared_1")]] [[kernel]] decltype(shared<float, 1>) shared<float, 1>;
template [[host_name("shared_2")]] [[kernel]] decltype(shared<float, 2>) shared<float, 2>;
kernel void shared_3(device float* o, uint i [[thread_position_in_grid]]) { o[i] = helper<int>(3); }
kernel void fine(device float* o, uint i [[thread_position_in_grid]]) { o[i] = 4.0f; }
