#!/usr/bin/python3
"""Writes a large templated Metal library built from the patterns of samples/mlx_like.metal and
samples/include/c10_like.h, for timing the translator on many template instances.

    bench/gen_templates.py OUT.metal [--ops N]      (default 340 operators: about 10,000 lines, 4,080 entry points)
    time build/translator/mtl2glsl -o /tmp/out/ OUT.metal

Each operator is a functor struct with a templated operator() and a helper function template; each gets a
contiguous and a strided unary kernel template and a binary kernel template, instantiated by macros for float,
half and int (docs/translator.md has the figures)."""
import argparse

HEAD = """#include <metal_stdlib>
using namespace metal;

namespace bench {
struct Layout {
    int shape[4];
    int strides[4];
};

template <int NDIM, typename IdxT = int>
IdxT elem_to_loc(uint elem, constant Layout& l) {
    IdxT loc = 0;
    for (int i = NDIM - 1; i >= 0; --i) {
        loc += IdxT(elem % uint(l.shape[i])) * IdxT(l.strides[i]);
        elem /= uint(l.shape[i]);
    }
    return loc;
}
} // namespace bench
using namespace bench;

template <typename T, typename Op>
[[kernel]] void unary_v(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                        uint index [[thread_position_in_grid]]) {
    out[index] = Op()(in[index]);
}

template <typename T, typename Op, int NDIM>
[[kernel]] void unary_g(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                        constant Layout& layout [[buffer(2)]], uint index [[thread_position_in_grid]]) {
    out[index] = Op()(in[elem_to_loc<NDIM>(index, layout)]);
}

template <typename T, typename Op>
[[kernel]] void binary_vv(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]],
                          device T* out [[buffer(2)]], uint index [[thread_position_in_grid]]) {
    Op op;
    out[index] = op(a[index], b[index]) + op(b[index], a[index]);
}

#define INSTANTIATE(name, T, Op)                                                                            \\
    template [[host_name("v_" #name "_" #T)]] [[kernel]] decltype(unary_v<T, Op>) unary_v<T, Op>;        \\
    template [[host_name("g1_" #name "_" #T)]] [[kernel]] decltype(unary_g<T, Op, 1>) unary_g<T, Op, 1>; \\
    template [[host_name("g2_" #name "_" #T)]] [[kernel]] decltype(unary_g<T, Op, 2>) unary_g<T, Op, 2>; \\
    template [[host_name("vv_" #name "_" #T)]] [[kernel]] decltype(binary_vv<T, Op>) binary_vv<T, Op>;

"""

OP = """// operator {i}
template <typename T>
T helper_{i}(T x, T k = T({k})) {{
    if constexpr (is_floating_point_v<T>) {{
        return x * k + T({c});
    }} else {{
        return x * k - T({c});
    }}
}}

struct Op{i} {{
    template <typename T>
    T operator()(T x) const {{
        T y = helper_{i}(x);
        for (int j = 0; j < {loop}; j++) {{
            y = y + helper_{i}(x, T(j));
        }}
        return y > T(0) ? y : -y;
    }}
    template <typename T>
    T operator()(T a, T b) const {{
        T m = a > b ? a : b;
        return helper_{i}(m) - b;
    }}
}};

INSTANTIATE(op{i}, float, Op{i})
INSTANTIATE(op{i}, half, Op{i})
INSTANTIATE(op{i}, int, Op{i})

"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ops", type=int, default=340)
    a = ap.parse_args()
    with open(a.out, "w") as f:
        f.write(HEAD)
        for i in range(a.ops):
            f.write(OP.format(i=i, k=i % 7 + 1, c=i % 5, loop=i % 3 + 1))
    with open(a.out) as f:
        text = f.read()
    print("%s: %d lines, %d entry points" % (a.out, text.count("\n"), a.ops * 3 * 4))


if __name__ == "__main__":
    main()
