// Forms of MLX's steel kernels that clang's OpenCL mode refused where Apple's compiler takes them:
//  - masked_scale: `scale = mask[i]` of a bfloat from a struct in device memory whose conversion operator gives bool
//    or int (steel_gemm_masked's `_NoMask`): one conversion of the struct's, then to bfloat, as for float and half;
//  - temporaries: a `thread` member function or conversion called on a function's return value (MLX's
//    integral_constant `operator&&` in `if constexpr (kAlignedM && kAlignedN)`);
//  - frag_copy: function templates that deduce their element type through an alias template of vec (the NAX
//    fragments' `dtype_frag_t<U> = vec<U, N>`), for float and half;
//  - pair_sum: an alias template of vec that a function deduces through together with another parameter, of bfloat
//    (the alias stays the prelude's vec, whose bfloat2 is a struct: deduced from the other parameter).
#include <metal_stdlib>
using namespace metal;

// ---- masked_scale ----
struct NoMask {
  char x;
  constexpr METAL_FUNC operator bool() thread { return true; }
  constexpr METAL_FUNC operator bool() const threadgroup { return true; }
  constexpr METAL_FUNC operator bool() const device { return true; }
  constexpr METAL_FUNC operator bool() const constant { return true; }
};

struct Weight {
  int w;
  METAL_FUNC operator int() const device { return w; }
};

template <typename T>
struct ScaleOp {
  T scale;
  METAL_FUNC T apply(T x) const thread { return x * scale; }
};

// out[i] = in[i] * scale, scale = mask[i] (1 for NoMask, the weight for Weight), and a few assignments from numbers
template <typename T, typename M>
kernel void masked_scale(
    const device T* in [[buffer(0)]],
    const device M* mask [[buffer(1)]],
    device T* out [[buffer(2)]],
    device T* extra [[buffer(3)]],
    uint i [[thread_position_in_grid]]) {
  ScaleOp<T> op;
  op.scale = T(2);
  if (i % 5 != 4)
    op.scale = mask[i];
  out[i] = op.apply(in[i]);
  if (i == 0) {
    T v;
    v = 3;               // an integer
    extra[0] = v;
    v = 259;             // not a bfloat: rounded (to 260)
    extra[1] = v;
    v = half(1.5h);      // a half
    extra[2] = v;
    v = 0.1f;            // a float, rounded once
    extra[3] = v;
  }
}

template [[host_name("masked_scale_nomask_bf16")]] kernel void masked_scale<bfloat, NoMask>(
    const device bfloat*, const device NoMask*, device bfloat*, device bfloat*, uint);
template [[host_name("masked_scale_weight_bf16")]] kernel void masked_scale<bfloat, Weight>(
    const device bfloat*, const device Weight*, device bfloat*, device bfloat*, uint);
template [[host_name("masked_scale_weight_f16")]] kernel void masked_scale<half, Weight>(
    const device half*, const device Weight*, device half*, device half*, uint);

// ---- temporaries ----
template <typename T, T v>
struct constant_of {
  static constexpr constant T value = v;
  using value_type = T;
  METAL_FUNC constexpr operator value_type() const thread noexcept { return value; }
};

template <typename T, T tv, typename U, U uv>
METAL_FUNC constexpr auto operator&&(constant_of<T, tv>, constant_of<U, uv>) {
  constexpr auto res = tv && uv;
  using res_t = metal::remove_addrspace_t<decltype(res)>;
  return constant_of<res_t, res>{};
}

struct Acc {
  float v;
  METAL_FUNC float twice() const thread { return 2.0f * v; }
  METAL_FUNC operator float() const thread { return v + 0.5f; }
};

Acc make_acc(float x) { return Acc{x * 3.0f}; }

// out[i] = 2 * 3x + (3x + 0.5) + (A && B ? 100 : 200) + (A && B: 1000 as a run-time value)
template <bool A, bool B>
kernel void temporaries(const device float* in [[buffer(0)]], device float* out [[buffer(1)]],
                        uint i [[thread_position_in_grid]]) {
  constant_of<bool, A> a;
  constant_of<bool, B> b;
  float r = make_acc(in[i]).twice();
  float s = make_acc(in[i]);
  if constexpr (a && b) {
    r += 100.0f;
  } else {
    r += 200.0f;
  }
  const bool both = a && b;
  out[i] = r + s + (both ? 1000.0f : 0.0f);
}

template [[host_name("temporaries_tt")]] kernel void temporaries<true, true>(const device float*, device float*, uint);
template [[host_name("temporaries_tf")]] kernel void temporaries<true, false>(const device float*, device float*, uint);

// ---- frag_copy ----
struct Frag {
  static constant constexpr short kElems = 4;
  template <typename U>
  using dtype_frag_t = typename metal::vec<U, kElems>;

  template <typename T, typename SrcPtr>
  METAL_FUNC static void load(thread dtype_frag_t<T>& dst, SrcPtr src) {
    for (short j = 0; j < kElems; j++)
      dst[j] = static_cast<T>(src[j]);
  }

  template <typename T, typename DstPtr>
  METAL_FUNC static void store(const thread dtype_frag_t<T>& src, DstPtr dst) {
    for (short j = 0; j < kElems; j++)
      dst[j] = src[j];
  }

  template <typename T>
  METAL_FUNC static void axpy(thread dtype_frag_t<T>& y, T a, const thread dtype_frag_t<T>& x) {
    y = a * x + y;
  }
};

template <typename T>
struct Tile {
  typedef typename Frag::template dtype_frag_t<T> frag_type;
  frag_type frags[2];
};

// out = 3 * in (rows of 4) + in reversed in pairs of rows, through fragments of T
template <typename T>
kernel void frag_copy(const device T* in [[buffer(0)]], device T* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
  Tile<T> t;
  Frag::load(t.frags[0], in + 8 * i);
  Frag::load(t.frags[1], in + 8 * i + 4);
  Frag::axpy(t.frags[0], T(3), t.frags[1]);
  Frag::store(t.frags[0], out + 8 * i);
  Frag::store(t.frags[1], out + 8 * i + 4);
}

template [[host_name("frag_copy_f32")]] kernel void frag_copy<float>(const device float*, device float*, uint);
template [[host_name("frag_copy_f16")]] kernel void frag_copy<half>(const device half*, device half*, uint);

// ---- pair_sum ----
struct Pairs {
  template <typename U>
  using pair_t = metal::vec<U, 2>;

  template <typename T>
  METAL_FUNC static T sum(const thread pair_t<T>& v, T bias) {
    return v.x + v.y + bias;
  }
};

// out[i] = in[2i] + in[2i+1] + 0.5, in bfloat arithmetic (rounded after each operation)
template <typename T>
kernel void pair_sum(const device T* in [[buffer(0)]], device T* out [[buffer(1)]], uint i [[thread_position_in_grid]]) {
  typename Pairs::template pair_t<T> v(in[2 * i], in[2 * i + 1]);
  out[i] = Pairs::sum(v, T(0.5f));
}

template [[host_name("pair_sum_bf16")]] kernel void pair_sum<bfloat>(const device bfloat*, device bfloat*, uint);
template [[host_name("pair_sum_f32")]] kernel void pair_sum<float>(const device float*, device float*, uint);
