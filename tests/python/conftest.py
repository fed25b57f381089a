"""pytest set-up for the Python package's tests (ctest label `python`, tests/CMakeLists.txt).

The package is imported from the source tree (python/), the libraries from MTL2GLSL_LIBRARY_PATH (ctest sets it
to the build directory; by hand: MTL2GLSL_LIBRARY_PATH=build /usr/bin/python3 -m pytest tests/python). Outputs the
package allocates are poisoned (MTL2GLSL_POISON=1: NaN / 0xA5 bytes), and so are the outputs the samples allocate
with torch.empty / torch.empty_like, so an element a kernel never writes fails the comparison.
"""
import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "samples", "python"))
os.environ.setdefault("MTL2GLSL_POISON", "1")


def poison_tensor(t):
    import torch
    if t.dtype.is_floating_point or t.dtype.is_complex:
        return t.fill_(float("nan"))
    return t.view(torch.uint8).fill_(0xA5).view(t.dtype) if t.numel() else t


@pytest.fixture
def poisoned_torch(monkeypatch):
    """torch.empty / torch.empty_like return poisoned tensors while the test runs."""
    torch = pytest.importorskip("torch")
    empty, empty_like = torch.empty, torch.empty_like
    monkeypatch.setattr(torch, "empty", lambda *a, **k: poison_tensor(empty(*a, **k)))
    monkeypatch.setattr(torch, "empty_like", lambda *a, **k: poison_tensor(empty_like(*a, **k)))
    return torch


@pytest.fixture
def rng():
    return np.random.default_rng(20261124)
