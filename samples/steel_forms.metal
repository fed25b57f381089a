// Forms of MLX's steel GEMM, attention and convolution kernels (mlx/backend/metal/kernels/steel), written small:
// each kernel pins one construct the translator needed for them, checked against NumPy (tests/ref/steel_forms.py).
#include <metal_stdlib>
using namespace metal;

// ---- pointers kept in structs, one root per object ----
// A loader of one struct type over two buffers and two threadgroup arrays (steel's BlockLoader: when A's and B's
// tiles have one shape, loader_a and loader_b are one type): copies ROWS x COLS of a row-major source with
// leading dimension src_ld into a threadgroup tile with leading dimension LD, one element per thread, and steps
// along the reduction dimension.
template <typename T, short ROWS, short COLS, short LD>
struct TileLoader {
  const int src_ld;
  const short bi;
  const short bj;
  threadgroup T* dst;
  const device T* src;

  TileLoader(const device T* src_, const int src_ld_, threadgroup T* dst_, ushort lid) thread
      : src_ld(src_ld_), bi(lid / COLS), bj(lid % COLS), dst(dst_ + bi * LD + bj), src(src_ + bi * src_ld + bj) {}

  void load() const thread {
    dst[0] = src[0];
  }

  void next() thread {
    src += COLS;
  }
};

typedef TileLoader<float, 4, 4, 5> Loader4;

// Both loaders through references (steel's GEMMKernel::gemm_loop takes loader_a and loader_b by reference).
template <typename L>
void load_both(thread L& x, thread L& y) {
  x.load();
  y.load();
}

template <typename L>
void step_both(thread L& x, thread L& y) {
  x.next();
  y.next();
}

// A loader by value: its own copy, moved here and gone; the element it would read next.
float peek_next(Loader4 l) {
  l.next();
  return l.src[0];
}

// A loader made and returned by a helper.
Loader4 make_loader(const device float* p, int ld, threadgroup float* tile, ushort lid) {
  return Loader4(p, ld, tile, lid);
}

// C = A * B^T for A (4 x K) and B (4 x K), K a multiple of 4 and at least 8 (peek: A[r][c + 4] per thread): 16 threads, one threadgroup per (batch) matrix.
// Steps alternate between the kernel's own loaders and a copy of each, made by a helper or copied from the other
// kind, so that every form the roots pass through is read.
kernel void loaders_two_buffers(
    device const float* a [[buffer(0)]],
    device const float* b [[buffer(1)]],
    device float* c [[buffer(2)]],
    constant int& k [[buffer(3)]],
    device float* peek [[buffer(4)]],
    ushort lid [[thread_index_in_threadgroup]],
    uint g [[threadgroup_position_in_grid]]) {
  threadgroup float as[4 * 5];
  threadgroup float bs[4 * 5];
  Loader4 la(a + g * 4 * k, k, as, lid), lb(b + g * 4 * k, k, bs, lid);
  Loader4 lc = make_loader(a + g * 4 * k, k, as, lid);
  Loader4 ld = lb;
  short r = lid / 4, col = lid % 4;
  peek[g * 16 + lid] = peek_next(la);
  float acc = 0.0f;
  for (int kk = 0; kk < k; kk += 4) {
    if ((kk / 4) % 2 == 0)
      load_both(la, lb);
    else {
      lc.load();
      ld.load();
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (short j = 0; j < 4; j++)
      acc += as[r * 5 + j] * bs[col * 5 + j];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    step_both(la, lb);
    step_both(lc, ld);
  }
  c[g * 16 + r * 4 + col] = acc;
}

// ---- a complex tile in threadgroup memory, written whole and read as floats ----
// steel's complex64 GEMM loads complex64_t tiles with its BlockLoader (element copies and ReadVector byte copies)
// and its BlockMMA reads them as float pairs (`reinterpret_cast<threadgroup const float*>(As)`): the tile is kept
// as words, each complex read and written member by member.
struct cfloat {
  float real;
  float imag;
  cfloat() thread = default;
  constexpr cfloat(float r, float i) thread : real(r), imag(i) {}
};

struct alignas(8) CRead2 {
  uint8_t v[sizeof(cfloat) * 2];
};

// 32 threads per threadgroup, 32 complex values each: re/im of every value read through floats, and the tile
// written back conjugated and reversed as whole complex values.
kernel void complex_tile(
    device const cfloat* x [[buffer(0)]],
    device float* re [[buffer(1)]],
    device float* im [[buffer(2)]],
    device cfloat* y [[buffer(3)]],
    uint lid [[thread_position_in_threadgroup]],
    uint g [[threadgroup_position_in_grid]]) {
  threadgroup cfloat tile[32];
  if (lid < 16)
    *((threadgroup CRead2*)(&tile[2 * lid])) = *((const device CRead2*)(&x[g * 32 + 2 * lid]));
  threadgroup_barrier(mem_flags::mem_threadgroup);
  threadgroup const float* f = reinterpret_cast<threadgroup const float*>(tile);
  float r = f[2 * lid], i = f[2 * lid + 1];
  re[g * 32 + lid] = r;
  im[g * 32 + lid] = i;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  tile[31 - lid] = cfloat(r, -i);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  y[g * 32 + lid] = tile[lid];
}

// Threadgroup bytes read as a struct of a float and an int, and as floats and ints: written whole, read by
// words, one member written through the struct pointer, read back whole.
struct Pair {
  float a;
  int b;
};

kernel void struct_words(
    device const float* x [[buffer(0)]],
    device const int* n [[buffer(1)]],
    device float* fa [[buffer(2)]],
    device int* ib [[buffer(3)]],
    device float* y [[buffer(4)]],
    uint lid [[thread_position_in_threadgroup]],
    uint g [[threadgroup_position_in_grid]]) {
  threadgroup char mem[32 * sizeof(Pair)];
  threadgroup Pair* p = (threadgroup Pair*)mem;
  threadgroup const float* f = (threadgroup const float*)mem;
  threadgroup const int* w = (threadgroup const int*)mem;
  p[lid] = Pair{x[g * 32 + lid], n[g * 32 + lid]};
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float a = f[2 * lid];
  fa[g * 32 + lid] = a;
  ib[g * 32 + lid] = w[2 * lid + 1];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  p[31 - lid].a = 2.0f * a;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  Pair q = p[lid];
  y[g * 32 + lid] = q.a + float(q.b);
}

// ---- a mask type that is no mask (steel_gemm_masked's `_NoMask`): its buffer is declared, never read ----
struct NoMask {
  char x;
  constexpr operator bool() thread {
    return true;
  }
  constexpr operator bool() const device {
    return true;
  }
};

template <typename M>
kernel void masked_copy(
    device const float* x [[buffer(0)]],
    const device M* mask [[buffer(1)]],
    device float* y [[buffer(2)]],
    uint i [[thread_position_in_grid]]) {
  constexpr bool has_mask = !metal::is_same_v<M, NoMask>;
  if (has_mask) {
    auto m = mask[i];
    if (!m) {
      y[i] = 0.0f;
      return;
    }
  }
  y[i] = x[i];
}

template [[host_name("masked_copy_nomask")]] [[kernel]] decltype(masked_copy<NoMask>) masked_copy<NoMask>;
template [[host_name("masked_copy_bool")]] [[kernel]] decltype(masked_copy<bool>) masked_copy<bool>;

// ---- pointers into a helper's array parameter (steel attention's MMATile::row_reduce / row_bin_op) ----
// The tile's member function passes `&vals[i * 2]` of its `thread T vals[N]` parameter on to a static helper that
// reduces into it (written through the pointer: the caller's array changes) or reads it.
struct MaxOp {
  static float apply(float x, float y) {
    return metal::max(x, y);
  }
};

struct ScaleOp {
  static float apply(float x, float y) {
    return x * y;
  }
};

struct RowFrag {
  template <typename Op>
  static void row_reduce(thread const float2& frag, thread float* reduced) {
    reduced[0] = Op::apply(reduced[0], Op::apply(frag.x, frag.y));
  }
  template <typename Op>
  static void row_bin_op(thread float2& frag, thread float* row_vals) {
    frag.x = Op::apply(frag.x, row_vals[0]);
    frag.y = Op::apply(frag.y, row_vals[0]);
  }
};

struct RowTile {
  float2 frags[2][2]; // 2 rows of 2 fragments of 2 columns: a 2 x 4 tile per thread

  template <typename Op>
  void row_reduce(thread float vals[2]) const thread {
    for (short i = 0; i < 2; i++)
      for (short j = 0; j < 2; j++)
        RowFrag::template row_reduce<Op>(frags[i][j], &vals[i]);
  }

  template <typename Op>
  void row_bin_op(thread float vals[2]) thread {
    for (short i = 0; i < 2; i++)
      for (short j = 0; j < 2; j++)
        RowFrag::template row_bin_op<Op>(frags[i][j], &vals[i]);
  }
};

// Per thread: a 2 x 4 tile; out = tile * (row max of the tile, at least floor).
kernel void row_ops(
    device const float* x [[buffer(0)]],
    device const float* floor_ [[buffer(1)]],
    device float* y [[buffer(2)]],
    device float* row_max [[buffer(3)]],
    uint i [[thread_position_in_grid]]) {
  RowTile t;
  for (short r = 0; r < 2; r++)
    for (short c = 0; c < 4; c++)
      t.frags[r][c / 2][c % 2] = x[i * 8 + r * 4 + c];
  float m[2] = {floor_[i], floor_[i]};
  t.row_reduce<MaxOp>(m);
  t.row_bin_op<ScaleOp>(m);
  for (short r = 0; r < 2; r++) {
    row_max[i * 2 + r] = m[r];
    for (short c = 0; c < 4; c++)
      y[i * 8 + r * 4 + c] = t.frags[r][c / 2][c % 2];
  }
}

// ---- an array of pointers kept in a struct (steel conv's loaders: `const device T* src[n_rows];`) ----
namespace gather {
template <typename T, short NROWS, short W>
struct RowsLoader {
  threadgroup T* dst;
  const device T* src[NROWS];
  int valid[NROWS];

  // Thread c copies column c of the rows rows[0..NROWS) of x (rows past n are zeros).
  RowsLoader(const device T* x, const device int* rows, int n, threadgroup T* dst_, ushort c) thread : dst(dst_ + c) {
    for (short i = 0; i < NROWS; i++) {
      valid[i] = rows[i] < n;
      src[i] = x + rows[i] * W + c;
    }
  }

  void load() const thread {
    for (short i = 0; i < NROWS; i++) {
      const device T* row = src[i] + 0;
      dst[i * W] = valid[i] ? row[0] : T(0);
    }
  }
};
} // namespace gather

// The rows named by `rows` of an n x 8 matrix, gathered through the loader's pointers into threadgroup memory,
// then written out in reverse order of rows.
kernel void gather_rows(
    device const float* x [[buffer(0)]],
    device const int* rows [[buffer(1)]],
    constant int& n [[buffer(2)]],
    device float* y [[buffer(3)]],
    ushort c [[thread_index_in_threadgroup]],
    uint g [[threadgroup_position_in_grid]]) {
  using namespace gather;
  threadgroup float tile[4 * 8];
  RowsLoader<float, 4, 8> loader(x, rows + g * 4, n, tile, c);
  loader.load();
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (short i = 0; i < 4; i++)
    y[g * 32 + i * 8 + c] = tile[(3 - i) * 8 + c];
}
