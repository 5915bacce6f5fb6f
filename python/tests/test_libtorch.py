"""`import torch` and `import triad` in one process, in either order, load
one libtorch."""

import subprocess
import sys

import pytest

SCRIPT = """
import {first}, {second}
import torch, triad
maps = open("/proc/self/maps").read().split("\\n")
libs = {{line.split()[-1] for line in maps if line.endswith("libtorch_cpu.so")}}
assert len(libs) == 1, libs
state = triad.load_game("connect4").new_initial_state()
x = torch.from_numpy(state.observation_tensor()).sum()
assert float(x) == 42.0 + 7.0, float(x)
print("ok", libs.pop())
"""


@pytest.mark.parametrize("first,second", [("torch", "triad"), ("triad", "torch")])
def test_one_libtorch(first, second):
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(first=first, second=second)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok ")
