#include <metal_stdlib>
using namespace metal;

// Adds x to acc in place and returns the new total.
static float accumulate(thread float& acc, float x) {
    acc += x;
    return acc;
}

// Steps of the Collatz sequence from n down to 1, capped at 200.
static int collatz_steps(uint n) {
    int steps = 0;
    while (n != 1u && steps < 200) {
        n = (n % 2u == 0u) ? n / 2u : 3u * n + 1u;
        ++steps;
    }
    return steps;
}

// Control flow of every kind; each thread writes 4 floats.
kernel void statements(device const int* in [[buffer(0)]],
                       device float* out [[buffer(1)]],
                       constant uint& n [[buffer(2)]],
                       uint i [[thread_position_in_grid]]) {
    if (i >= n) {
        return;
    }
    int v = in[i];

    float acc = 0.0f;
    for (int k = 0; k < 16; k++) {
        if (k % 3 == 1) {
            continue;
        }
        if (k > (v & 15)) {
            break;
        }
        accumulate(acc, float(k));
    }

    int countdown = v & 7;
    int iters = 0;
    do {
        iters++;
        countdown--;
    } while (countdown > 0);

    float s;
    switch (v & 3) {
    case 0:
        s = 1.0f;
        break;
    case 1:
    case 2:
        s = 2.0f;
        break;
    default:
        s = -1.0f;
        break;
    }

    float w = 1.0f;
    {
        float w = 2.0f * s;
        acc += w;
        {
            int v = 3;
            acc -= float(v);
        }
    }
    w *= 3.0f;
    w -= 0.5f;
    w /= 2.0f;

    uint bits = uint(v);
    bits <<= 2;
    bits |= 1u;
    bits ^= 0x5u;
    bits >>= 1;
    bits &= 0xffu;
    int r = v;
    r %= 7;
    --r;

    int steps = collatz_steps(uint(v & 63) + 1u);
    out[4 * i + 0] = acc;
    out[4 * i + 1] = float(iters) + s;
    out[4 * i + 2] = w + float(bits) + float(r);
    out[4 * i + 3] = v < 0 ? -float(steps) : float(steps);
}
