#include <metal_stdlib>
using namespace metal;
// SNAPSHOT: --subgroup-size=8
// SNAPSHOT: --subgroup-size=64
// SNAPSHOT: --subgroup-size=64 --virtual-subgroups

// Every SIMD-group and quad-group function of Metal on lane-dependent values of float, half, int, uint and
// their vectors, first with every lane of the SIMD-group active, then after a branch that leaves lanes
// 0, 3, 6, ... out. Each thread writes one row of COLUMNS floats (integer results are small enough to be
// exact); a column whose source lane does not exist (the last SIMD-group or quad of a partial threadgroup) or
// whose thread did not take the branch holds MISSING.
constant uint COLUMNS = 99;
constant float MISSING = -12345.0f;

kernel void simd_functions(device float* out [[buffer(0)]],
                           uint gid [[thread_position_in_grid]],
                           uint threads [[threads_per_threadgroup]],
                           uint lane [[thread_index_in_simdgroup]],
                           uint simd_group [[simdgroup_index_in_threadgroup]],
                           uint quad_lane [[thread_index_in_quadgroup]])
{
    uint lanes = min(32u, threads - simd_group * 32u); // lanes of this SIMD-group
    uint quad_base = lane - quad_lane;                  // first lane of this quad
    uint o = gid * COLUMNS;
    float f = float(lane) * 0.5f - 3.0f;
    int i = int((lane * 7u) % 11u) - 5;
    uint u = (lane * 37u) % 64u + 1u;
    half h = half(lane) * half(0.25f);
    float g = 1.0f + float(lane) / 64.0f;
    int small = lane % 5 == 0 ? 2 : 1;
    float4 f4 = float4(f, -f, f * 2.0f, g);
    int2 i2 = int2(i, -i);
    uint3 u3 = uint3(u, u + 1u, lane);
    half2 h2 = half2(h, -h * half(2.0f));

    // reductions and scans
    out[o + 0] = simd_sum(f);
    out[o + 1] = simd_product(g);
    out[o + 2] = simd_min(f);
    out[o + 3] = float(simd_max(i));
    out[o + 4] = float(simd_and(u + 64u));
    out[o + 5] = float(simd_or(u));
    out[o + 6] = float(simd_xor(u));
    out[o + 7] = simd_prefix_inclusive_sum(f);
    out[o + 8] = float(simd_prefix_exclusive_sum(i));
    out[o + 9] = float(simd_prefix_inclusive_product(small));
    out[o + 10] = simd_prefix_exclusive_product(g);
    out[o + 11] = float(simd_product(small));
    out[o + 12] = float(simd_min(u));
    out[o + 13] = simd_max(f);
    out[o + 14] = float(simd_prefix_inclusive_sum(u));
    out[o + 15] = float(simd_prefix_exclusive_sum(u));

    // shuffles
    uint src = (lane * 5u + 3u) % lanes;
    out[o + 16] = simd_shuffle(f, src);
    out[o + 17] = simd_shuffle_up(f, 3);
    float down = float(simd_shuffle_down(i, 5));
    out[o + 18] = lane + 5u < lanes || lanes == 32u ? down : MISSING;
    float x6 = float(simd_shuffle_xor(u, 6));
    out[o + 19] = (lane ^ 6u) < lanes ? x6 : MISSING;
    float rot_up = simd_shuffle_rotate_up(f, 4);
    out[o + 20] = ((lane - 4u) & 31u) < lanes ? rot_up : MISSING;
    float rot_down = float(simd_shuffle_rotate_down(i, 9));
    out[o + 21] = ((lane + 9u) & 31u) < lanes ? rot_down : MISSING;
    float fill_up = simd_shuffle_and_fill_up(f, f + 100.0f, 3);
    out[o + 22] = lane >= 3u || 29u + lane < lanes ? fill_up : MISSING;
    float fill_down = float(simd_shuffle_and_fill_down(i, i + 1000, 7));
    out[o + 23] = lane + 7u < lanes || lane + 7u - 32u < lanes ? fill_down : MISSING;
    float fill_up8 = float(simd_shuffle_and_fill_up(u, u + 500u, 2, 8));
    uint up8_src = (lane % 8u) >= 2u ? lane - 2u : lane - lane % 8u + 6u + lane % 8u;
    out[o + 24] = up8_src < lanes ? fill_up8 : MISSING;
    float fill_down16 = simd_shuffle_and_fill_down(f, -f, 3, 16);
    uint down16_src = (lane % 16u) + 3u < 16u ? lane + 3u : lane + 3u - 16u;
    out[o + 25] = down16_src < lanes ? fill_down16 : MISSING;
    float b2 = simd_broadcast(f, 2);
    out[o + 26] = lanes > 2u ? b2 : MISSING;
    out[o + 27] = float(simd_broadcast_first(i));

    // votes
    uint ballot = uint(simd_ballot(lane % 3u == 1u));
    out[o + 28] = float(ballot & 0xffffu);
    out[o + 29] = float(ballot >> 16);
    out[o + 30] = simd_all(f > -10.0f) ? 1.0f : 0.0f;
    out[o + 31] = simd_all(lane < 20u) ? 1.0f : 0.0f;
    out[o + 32] = simd_any(lane == 7u) ? 1.0f : 0.0f;
    out[o + 33] = simd_is_first() ? 1.0f : 0.0f;
    uint active = uint(simd_active_threads_mask());
    out[o + 34] = float(active & 0xffffu);
    out[o + 35] = float(active >> 16);

    // vectors and half
    out[o + 36] = simd_sum(f4).y;
    out[o + 37] = simd_max(f4).z;
    out[o + 38] = float(simd_max(i2).y);
    float sh3 = float(simd_shuffle(u3, lane ^ 1u).z);
    out[o + 39] = (lane ^ 1u) < lanes ? sh3 : MISSING;
    out[o + 40] = float(simd_sum(h));
    out[o + 41] = float(simd_prefix_inclusive_sum(h));
    out[o + 42] = simd_prefix_exclusive_sum(f4).w;
    out[o + 43] = float(simd_min(i2).x);

    // after divergence: lanes 0, 3, 6, ... do not take the branch
    float d_sum = MISSING, d_max = MISSING, d_xsum = MISSING, d_iprod = MISSING, d_first = MISSING;
    float d_is_first = MISSING, d_active_lo = MISSING, d_active_hi = MISSING, d_ballot_lo = MISSING;
    float d_ballot_hi = MISSING, d_all = MISSING, d_any = MISSING, d_and = MISSING, d_isum = MISSING;
    float d_quad_first = MISSING, d_quad_active = MISSING, d_quad_sum = MISSING, d_quad_bfirst = MISSING;
    if (lane % 3u != 0u) {
        d_sum = simd_sum(f);
        d_max = float(simd_max(i));
        d_xsum = float(simd_prefix_exclusive_sum(u));
        d_iprod = simd_prefix_inclusive_product(g);
        d_first = simd_broadcast_first(f);
        d_is_first = simd_is_first() ? 1.0f : 0.0f;
        uint a = uint(simd_active_threads_mask());
        d_active_lo = float(a & 0xffffu);
        d_active_hi = float(a >> 16);
        uint b = uint(simd_ballot(lane > 10u));
        d_ballot_lo = float(b & 0xffffu);
        d_ballot_hi = float(b >> 16);
        d_all = simd_all(lane % 3u != 0u) ? 1.0f : 0.0f;
        d_any = simd_any(lane == 4u) ? 1.0f : 0.0f;
        d_and = float(simd_and(u | 1u));
        d_isum = float(simd_prefix_inclusive_sum(i));
        d_quad_first = quad_is_first() ? 1.0f : 0.0f;
        d_quad_active = float(uint(quad_active_threads_mask()));
        d_quad_sum = quad_sum(f);
        d_quad_bfirst = float(quad_broadcast_first(i));
    }
    out[o + 44] = d_sum;
    out[o + 45] = d_max;
    out[o + 46] = d_xsum;
    out[o + 47] = d_iprod;
    out[o + 48] = d_first;
    out[o + 49] = d_is_first;
    out[o + 50] = d_active_lo;
    out[o + 51] = d_active_hi;
    out[o + 52] = d_ballot_lo;
    out[o + 53] = d_ballot_hi;
    out[o + 54] = d_all;
    out[o + 55] = d_any;
    out[o + 56] = d_and;
    out[o + 57] = d_isum;
    out[o + 58] = d_quad_first;
    out[o + 59] = d_quad_active;
    out[o + 60] = d_quad_sum;
    out[o + 61] = d_quad_bfirst;

    // quad-groups (every lane)
    uint quad_lanes = min(4u, lanes - quad_base);
    out[o + 62] = quad_sum(f);
    out[o + 63] = quad_product(g);
    out[o + 64] = float(quad_min(i));
    out[o + 65] = float(quad_max(u));
    out[o + 66] = float(quad_and(u + 64u));
    out[o + 67] = float(quad_or(u));
    out[o + 68] = float(quad_xor(u));
    out[o + 69] = quad_prefix_inclusive_sum(f);
    out[o + 70] = float(quad_prefix_exclusive_sum(i));
    out[o + 71] = float(quad_prefix_inclusive_product(small));
    out[o + 72] = quad_prefix_exclusive_product(g);
    float q_sh = quad_shuffle(f, 3u - quad_lane);
    out[o + 73] = 3u - quad_lane < quad_lanes ? q_sh : MISSING;
    out[o + 74] = quad_shuffle_up(f, 1);
    float q_down = float(quad_shuffle_down(i, 2));
    out[o + 75] = quad_lane + 2u < quad_lanes || quad_lanes == 4u ? q_down : MISSING;
    float q_xor = float(quad_shuffle_xor(u, 1));
    out[o + 76] = (quad_lane ^ 1u) < quad_lanes ? q_xor : MISSING;
    float q_rot_up = quad_shuffle_rotate_up(f, 1);
    out[o + 77] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_up : MISSING;
    float q_rot_down = float(quad_shuffle_rotate_down(i, 3));
    out[o + 78] = ((quad_lane + 3u) & 3u) < quad_lanes ? q_rot_down : MISSING;
    float q_fill_up = quad_shuffle_and_fill_up(f, -f, 1);
    out[o + 79] = quad_lane >= 1u || 3u < quad_lanes ? q_fill_up : MISSING;
    float q_fill_down = float(quad_shuffle_and_fill_down(i, i + 100, 2));
    out[o + 80] = quad_lane + 2u < quad_lanes || quad_lane + 2u - 4u < quad_lanes ? q_fill_down : MISSING;
    out[o + 81] = quad_broadcast(f, 0);
    out[o + 82] = float(quad_broadcast_first(u));
    out[o + 83] = float(uint(quad_ballot(lane % 2u == 0u)));
    out[o + 84] = quad_all(f > 0.0f) ? 1.0f : 0.0f;
    out[o + 85] = quad_any(lane == 5u) ? 1.0f : 0.0f;
    out[o + 86] = quad_is_first() ? 1.0f : 0.0f;
    out[o + 87] = float(uint(quad_active_threads_mask()));
    out[o + 88] = quad_sum(f4).x;
    out[o + 89] = float(quad_max(i2).y);
    out[o + 90] = float(quad_sum(h));
    float q_sh3 = float(quad_shuffle(u3, 0).y);
    out[o + 91] = q_sh3;
    out[o + 92] = quad_min(f);
    out[o + 93] = quad_max(f);
    out[o + 94] = float(quad_prefix_exclusive_sum(u));
    out[o + 95] = float(lanes);
    out[o + 96] = float(simd_sum(h2).y);
    float hx = float(simd_shuffle_xor(h2, 3).x);
    out[o + 97] = (lane ^ 3u) < lanes ? hx : MISSING;
    out[o + 98] = float(quad_prefix_inclusive_sum(h2).y);
}

// The SIMD-group and quad-group attributes and the threadgroup ones they build on, per thread of a 2-D grid.
kernel void simd_ids(device uint* out [[buffer(0)]],
                     uint2 gid [[thread_position_in_grid]],
                     uint2 grid [[threads_per_grid]],
                     uint tid [[thread_index_in_threadgroup]],
                     uint2 threads [[threads_per_threadgroup]],
                     uint2 dispatch_threads [[dispatch_threads_per_threadgroup]],
                     uint2 groups [[threadgroups_per_grid]],
                     uint lane [[thread_index_in_simdgroup]],
                     uint simd_group [[simdgroup_index_in_threadgroup]],
                     uint simd_width [[threads_per_simdgroup]],
                     uint simd_groups [[simdgroups_per_threadgroup]],
                     uint dispatch_simd_groups [[dispatch_simdgroups_per_threadgroup]],
                     uint execution_width [[thread_execution_width]],
                     uint quad_lane [[thread_index_in_quadgroup]],
                     uint quad_group [[quadgroup_index_in_threadgroup]],
                     uint quad_groups [[quadgroups_per_threadgroup]],
                     uint dispatch_quad_groups [[dispatch_quadgroups_per_threadgroup]])
{
    uint o = (gid.y * grid.x + gid.x) * 14;
    out[o + 0] = tid;
    out[o + 1] = threads.x * 1000 + threads.y;
    out[o + 2] = dispatch_threads.x * 1000 + dispatch_threads.y;
    out[o + 3] = groups.x * 1000 + groups.y;
    out[o + 4] = lane;
    out[o + 5] = simd_group;
    out[o + 6] = simd_width;
    out[o + 7] = simd_groups;
    out[o + 8] = dispatch_simd_groups;
    out[o + 9] = execution_width;
    out[o + 10] = quad_lane;
    out[o + 11] = quad_group;
    out[o + 12] = quad_groups;
    out[o + 13] = dispatch_quad_groups;
}
