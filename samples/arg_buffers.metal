#include <metal_stdlib>
using namespace metal;

// Argument buffers: structs in buffers whose members are pointers (device addresses the host writes, as Metal's
// argument encoders do), in the forms PyTorch's fused optimizers and Amp kernels use them.

constant constexpr uint kMaxTensors = 4;
constant constexpr uint kMaxGroups = 8;
constant constexpr uint kChunk = 64;

// Several tensors of any length, one pointer per tensor, ids in declaration order (FusedOptimizerOps.metal).
template <typename T>
struct AxpyArguments {
    metal::array<device T*, kMaxTensors> xs [[id(0)]];
    metal::array<device T*, kMaxTensors> ys [[id(kMaxTensors)]];
};

struct ChunkMetadata {
    ulong numels[kMaxTensors];
    ulong group_to_tensor[kMaxGroups];
    ulong group_to_chunk[kMaxGroups];
};

// Writes through two device references into buffers chosen at run time.
template <typename T>
inline void axpy_step(device T& y, device T& x, const float a) {
    T x_ = x;
    y = T(a * float(x_) + float(y));
    x = -x_;
}

// One threadgroup per chunk of a tensor: the tensor and chunk come from the metadata.
template <typename T>
kernel void multi_axpy(device AxpyArguments<T>& args [[buffer(0)]],
                       constant ChunkMetadata& meta [[buffer(1)]],
                       constant float& a [[buffer(2)]],
                       uint tid [[thread_position_in_threadgroup]],
                       uint group [[threadgroup_position_in_grid]],
                       uint tptg [[threads_per_threadgroup]]) {
    const uint tensor = meta.group_to_tensor[group];
    const uint chunk_offset = uint(meta.group_to_chunk[group]) * kChunk;
    const uint numel = uint(meta.numels[tensor]) - chunk_offset;
    auto x = args.xs[tensor] + chunk_offset;
    auto y = args.ys[tensor] + chunk_offset;
    for (uint i = tid; i < numel && i < kChunk; i += tptg)
        axpy_step<T>(*(y + i), *(x + i), a);
}

template [[host_name("multi_axpy_float")]] kernel void multi_axpy<float>(
    device AxpyArguments<float>&, constant ChunkMetadata&, constant float&, uint, uint, uint);
template [[host_name("multi_axpy_half")]] kernel void multi_axpy<half>(
    device AxpyArguments<half>&, constant ChunkMetadata&, constant float&, uint, uint, uint);

// A constant argument buffer (Amp.metal's form) mixing data and pointers, structs of them in an array, and a
// pointer to structs.
struct Pair {
    float lo;
    float hi;
};

struct Table {
    device const float* rows [[id(0)]];
    uint row_len;
    float scale;
};

struct Tables {
    Table tables[2];
    device float* out [[id(2)]];
    device Pair* pairs [[id(3)]];
};

kernel void gather_tables(constant Tables& tabs [[buffer(0)]],
                          device const uint* row_of [[buffer(1)]],
                          constant uint& n [[buffer(2)]],
                          uint i [[thread_position_in_grid]]) {
    if (i >= n)
        return;
    const uint which = i & 1u;
    device const float* row = tabs.tables[which].rows + row_of[i] * tabs.tables[which].row_len;
    float first = row[0] * tabs.tables[which].scale;
    float last = row[tabs.tables[which].row_len - 1u];
    tabs.out[i] = first + last;
    tabs.pairs[i].lo = first;
    tabs.pairs[i].hi = last;
}
