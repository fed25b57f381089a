"""time_group_sizes: run a kernel call at several threadgroup sizes and report GPU times (device timestamps)."""
import sys


def time_group_sizes(kernel, *args, group_sizes=(32, 64, 128, 256, 512, 1024), repeat=10, file=sys.stdout,
                     **call):
    """GPU milliseconds (median of REPEAT runs) of KERNEL(*ARGS, **CALL) at each threadgroup size of GROUP_SIZES,
    as {size: ms}; a table goes to FILE (None: nothing printed). A size may be an int (x only) or a tuple.
    KERNEL: a compile_shader kernel (group_size=), a metal_kernel (threadgroup=) or a TorchMetalKernel
    (threads_per_thread_group=). Sizes over the kernel's limit are skipped."""
    from ._compile import KernelFunction
    from ._mlx import MetalKernel
    from .coreai import TorchMetalKernel
    results = {}
    for g in group_sizes:
        gt = (g,) if isinstance(g, int) else tuple(g)
        if isinstance(kernel, KernelFunction):
            threads = call.get("threads")
            nd = 1 if threads is None or isinstance(threads, int) else len(threads)
            size = gt[0] if nd == 1 else (gt + (1, 1))[:nd]
            if (gt + (1, 1))[0] * (gt + (1, 1))[1] * (gt + (1, 1))[2] > kernel.max_threads_per_threadgroup:
                continue
            ms = kernel.time(*args, repeat=repeat, **dict(call, group_size=size))
        elif isinstance(kernel, MetalKernel):
            ms = kernel.time(repeat=repeat, **dict(call, threadgroup=(gt + (1, 1))[:3]))
        elif isinstance(kernel, TorchMetalKernel):
            ms = kernel.time(*args, repeat=repeat, **dict(call, threads_per_thread_group=(gt + (1, 1))[:3]))
        else:
            raise TypeError("time_group_sizes: not a kernel of mtl2glsl: %r" % (kernel,))
        results[g] = ms
    if file is not None:
        name = getattr(kernel, "name", "kernel")
        file.write("%s: GPU time per threadgroup size (median of %d runs)\n" % (name, repeat))
        for g, ms in results.items():
            file.write("  %-14s %10.4f ms\n" % ("x".join(map(str, (g,) if isinstance(g, int) else g)), ms))
    return results
