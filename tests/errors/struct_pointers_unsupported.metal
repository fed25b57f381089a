// Pointers kept in structs: each object's pointer member keeps to one buffer or threadgroup array
// (samples/steel_forms.metal has the forms that translate).
// EXPECT-EXIT: 1
// EXPECT-ERROR: 27:5: error: pointer member 'lc.src' points into 'b' and into 'a': a pointer kept in a struct must point into one buffer or threadgroup array for each object
// EXPECT-ERROR: 17:3: error: pointer member 'l.src' points into 'b' and into 'a'
// EXPECT-ERROR: 43:23: error: pointer member 'Loader::src' points into 'b' and into 'a'
#include <metal_stdlib>
using namespace metal;

struct Loader {
  const device float* src;
  Loader(const device float* p, uint i) thread : src(p + i) {}
  float read() const thread { return src[0]; }
};

void repoint(thread Loader& l, const device float* p) {
  l.src = p;
}

// A copy of one object, then of another: the copy's member would point into two buffers.
kernel void copied_twice(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                         device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  Loader la(a, i), lb(b, i);
  Loader lc = la;
  y[i] = lc.read();
  if (i > 4)
    lc = lb;
  y[i] += lc.read();
}

// A helper pointing its reference parameter's member elsewhere.
kernel void repointed(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                      device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  Loader la(a, i);
  repoint(la, b);
  y[i] = la.read();
}

// An array of loaders over two buffers: its elements share one root per member.
kernel void loader_array(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                         device float* y [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  Loader la(a, i), lb(b, i);
  Loader ls[2] = {la, lb};
  y[i] = ls[i % 2].read();
}
