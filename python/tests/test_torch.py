"""triad's network in PyTorch gives libtorch's answers (through tch) and
reads and writes checkpoints triad reads and writes."""

import json
import os
import subprocess

import pytest
import torch

import triad
import triad.torch as tt
from conftest import REPO
from test_encoding import sample_states

GAMES = ["connect4", "piratechnics", "influence", "pirate/6x6"]


def close(a, b, tol=1e-5):
    for (pa, wa), (pb, wb) in zip(a, b):
        assert len(pa) == len(pb)
        assert max(abs(x - y) for x, y in zip(pa + wa, pb + wb)) <= tol


@pytest.mark.parametrize("name", GAMES)
def test_a_triad_checkpoint_gives_tchs_answers(tmp_path, name):
    game = triad.load_game(name)
    path = tmp_path / "net.safetensors"
    triad.Network.fresh(game, seed=4).save(path)
    ours = tt.TriadNet.load(path)
    theirs = triad.Network.load(game, path)
    states = sample_states(game, 1000)
    for i in range(0, len(states), 40):
        batch = states[i : i + 40]
        close(ours.evaluate(batch), theirs.evaluate(batch))


@pytest.mark.parametrize("padding,pool", [("circular", True), ("zeros", True), ("circular", False)])
def test_a_checkpoint_saved_from_python_loads_in_triad(tmp_path, padding, pool):
    game = triad.load_game("connect4")
    shape = {
        "blocks": 3, "channels": 16, "move_embed": 8, "policy_hidden": 24, "value_hidden": 20,
        "planes": 4, "move_features": 4, "padding": padding, "global_pool": pool, "aux_heads": False,
    }
    torch.manual_seed(0)
    net = tt.TriadNet(shape, {"game": "connect4", "variant": "7x6", "encoding_version": game.encoding_version()})
    with torch.no_grad():  # batch-norm statistics other than the defaults
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    net.eval()
    path = tmp_path / "py.safetensors"
    net.save(path, step=7)
    states = sample_states(game, 60)
    close(net.evaluate(states), triad.Network.load(game, path).evaluate(states))
    close(tt.TriadNet.load(path).evaluate(states), net.evaluate(states), tol=0.0)
    with pytest.raises(ValueError, match="connect4"):
        triad.Network.load(triad.load_game("connect4/6x5"), path)


def test_training_step_changes_the_answers(tmp_path):
    game = triad.load_game("connect4")
    path = tmp_path / "net.safetensors"
    triad.Network.fresh(game, seed=1).save(path)
    net = tt.TriadNet.load(path)
    states = sample_states(game, 16)
    x = tt.tensors(triad.network_inputs(states))
    net.train()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    logits, value = net(**x)
    loss = torch.nn.functional.cross_entropy(value, torch.zeros(len(states), dtype=torch.long))
    loss.backward()
    opt.step()
    net.eval()
    out = tmp_path / "trained.safetensors"
    net.save(out, step=1)
    close(net.evaluate(states), triad.Network.load(game, out).evaluate(states))
    assert triad.Network.load(game, out).evaluate(states) != triad.Network.load(game, path).evaluate(states)
    binary = os.environ.get("TRIAD_BIN", str(REPO / "target" / "debug" / "triad"))
    if not os.path.exists(binary):
        pytest.skip(f"no triad binary at {binary} for the last check (cargo build, or set TRIAD_BIN)")
    run = subprocess.run(
        [binary, "move", "--game", "connect4", "--player", f"net:{out},sims=8"],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    # triad eval plays the Python-trained network against random.
    run = subprocess.run(
        [binary, "eval", "--game", "connect4", "--players", f"net:{out},sims=8", "random",
         "--games", "4", "--threads", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["games"] == 4 and report["wins"] + report["draws"] + report["losses"] == 4, report
    assert report["player"].startswith("net:"), report


def test_bad_checkpoints_raise(tmp_path):
    with pytest.raises(FileNotFoundError):
        tt.TriadNet.load(tmp_path / "missing.safetensors")
    (tmp_path / "x.json").write_text('{"format": "other"}')
    (tmp_path / "x.safetensors").write_bytes(b"")
    with pytest.raises(ValueError, match="not a triad checkpoint"):
        tt.TriadNet.load(tmp_path / "x.safetensors")
    # A mirror-equivariant checkpoint ([model] mirror) is refused by name.
    with pytest.raises(ValueError, match="mirror-equivariant"):
        tt.TriadNet({"mirror": True, "channels": 8, "planes": 4})
