// A range-based for is a loop over the array's indices that reads the range per element: a body that changes what
// the range expression reads (C++ evaluated it once) is refused by name.
// EXPECT-EXIT: 1
// EXPECT-ERROR: 11:5: error: range-based for whose body changes a variable its range expression reads
#include <metal_stdlib>
using namespace metal;
constant uint tab[2][2] = {{1, 2}, {3, 4}};
kernel void rf(device uint* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    int k = 0;
    uint s = 0;
    for (auto r : tab[k]) {
        s += r;
        k = 1;
    }
    out[i] = s;
}
