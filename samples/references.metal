// Functions that return references into their object or arguments, and reference locals bound to them (the
// way MLX's steel GEMM uses MMATile::frag_at and MMATile::elems): reads, writes through the returned reference,
// `thread auto&` locals bound to a call, const references, one object passed to two references, in thread and
// threadgroup memory.
#include <metal_stdlib>
using namespace metal;

struct Tile {
    float2 frags[4] = {float2(0)};

    Tile() thread {}

    // a reference into the member array, and its const overload
    thread float2& at(const short i, const short j) thread { return frags[i * 2 + j]; }
    const thread float2& at(const short i, const short j) const thread { return frags[i * 2 + j]; }

    // the member array as scalars
    thread float* elems() thread { return reinterpret_cast<thread float*>(frags); }

    // an accessor that calls an accessor
    thread float2& first(const short i) thread { return at(i, 0); }
};

// a free function returning a reference into its reference argument
thread float2& frag_of(thread Tile& t, int i) { return t.frags[i]; }

// d += a * b elementwise, with d and c possibly the same object (as MLX's tile_matmad(C, A, B, C))
void fma_tiles(thread Tile& d, thread const Tile& a, thread const Tile& b, thread Tile& c)
{
    for (short k = 0; k < 2; k++)
        for (short i = 0; i < 2; i++)
            for (short j = 0; j < 2; j++)
                d.at(i, j) = a.at(i, j) * b.at(i, j) + c.at(i, j);
}

float sum_tile(thread const Tile& t)
{
    float s = 0;
    for (short i = 0; i < 2; i++)
        for (short j = 0; j < 2; j++)
            s += t.at(i, j).x + t.at(i, j).y;
    return s;
}

// out[8 * id + k]: the tile after writes through at(), a bound reference, elems() and frag_of
kernel void thread_refs(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                        uint id [[thread_position_in_grid]])
{
    Tile t;
    for (short i = 0; i < 8; i++)
        t.elems()[i] = in[8 * id + i];
    t.at(0, 1) += float2(10, 20);           // a compound write through the returned reference
    t.at(1, 0).y = t.at(0, 0).x * 2;       // a member write, a read
    short j = 1;
    thread auto& r = t.at(1, j);           // bound once: later changes of j do not move it
    j = 0;
    r *= 3;
    r.x += t.at(1, j).x;                   // frags[3].x += frags[2].x
    thread const auto& c = t.at(0, 0);     // a const reference sees later writes
    t.first(0).x = -1;                     // frags[0].x
    frag_of(t, 2).y += c.x;                // frags[2].y += -1
    out[8 * id + 0] = c.x + c.y;           // -1 + frags[0].y
    for (short i = 1; i < 8; i++)
        out[8 * id + i] = t.elems()[i];
}

// out[id] = sum over the tile of in * in + in, the second product accumulated in place (d and c one object)
kernel void aliased_refs(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                         uint id [[thread_position_in_grid]])
{
    Tile a, acc;
    for (short i = 0; i < 8; i++) {
        a.elems()[i] = in[8 * id + i];
        acc.elems()[i] = in[8 * id + i];
    }
    fma_tiles(acc, a, a, acc);             // acc = a * a + a, twice in the k loop: a * a * 2 + a
    out[id] = sum_tile(acc);
}

// A view of threadgroup memory held in a thread object: references into the threadgroup array it names.
struct SharedView {
    threadgroup float* v;
    threadgroup float& at(uint i) thread { return v[i]; }
    const threadgroup float& at(uint i) const thread { return v[i]; }
};

// a free function returning a reference into a threadgroup array argument
threadgroup float& slot(threadgroup float* a, uint i) { return a[i]; }

// a threadgroup object's array, reached through a thread reference to an element the accessor returns
struct Cell {
    float2 pair[2] = {float2(0)};
    Cell() thread {}
    thread float2& second() thread { return pair[1]; }
};

// out[i] = in[63 - i] * 2 + 1 within each threadgroup of 64: writes and reads through references into threadgroup
// memory; out[64 * groups + i]: a thread object's accessor written through a bound reference
kernel void threadgroup_refs(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                             uint id [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]],
                             uint n [[threads_per_grid]])
{
    threadgroup float shared[64];
    SharedView s{&shared[0]};
    s.at(lid) = in[id];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0)
        for (uint i = 0; i < 64; i++)
            slot(shared, i) *= 2;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const SharedView r{&shared[0]};
    out[id] = r.at(63 - lid) + 1;
    Cell cell;
    thread auto& p = cell.second();
    p.y = in[id];
    p.x = p.y * 3;
    out[n + id] = cell.pair[1].x + cell.pair[0].y;
}
