"""triad.torch's evaluator gives, bit for bit, the answers of the Rust
network (`model::Network::evaluate_encoded`) for the same batch on the CPU:
what lets self-play with a Python evaluator write the shards Rust writes."""

import os

import numpy as np
import pytest
import torch

import triad
import triad.torch as tt
from test_encoding import sample_states


@pytest.fixture(params=[1, None], ids=["1-thread", "default-threads"])
def threads(request):
    """libtorch's intra-op threads for the test (one pool, shared by torch
    and the extension), put back afterwards. MKL's matrix products split
    their sums by thread, so parity holds at the same count, not across
    counts."""
    before = torch.get_num_threads()
    torch.set_num_threads(request.param or os.cpu_count() or 1)
    yield torch.get_num_threads()
    torch.set_num_threads(before)


def rust_arrays(answers, m):
    """`triad.Network.evaluate`'s answers laid out as the evaluator's:
    policy (B, M) with zeros in padding, wdl (B, 3), float32."""
    policy = np.zeros((len(answers), m), np.float32)
    wdl = np.zeros((len(answers), 3), np.float32)
    for i, (p, w) in enumerate(answers):
        policy[i, : len(p)] = p
        wdl[i] = w
    return policy, wdl


def assert_same_bits(f, rust, states):
    x = triad.network_inputs(states)
    policy, wdl = f(x)
    assert policy.dtype == np.float32 and wdl.dtype == np.float32
    assert policy.shape == x["mask"].shape and wdl.shape == (len(states), 3)
    want_policy, want_wdl = rust_arrays(rust.evaluate(states), policy.shape[1])
    assert policy.tobytes() == want_policy.tobytes()
    assert wdl.tobytes() == want_wdl.tobytes()


@pytest.mark.parametrize("name", triad.registered_games())
def test_the_evaluator_gives_the_rust_networks_bits(tmp_path, name, threads):
    game = triad.load_game(name)
    path = tmp_path / "gen-0007.safetensors"
    rust = triad.Network.fresh(game, seed=9)
    rust.save(path, step=120)
    f = tt.evaluator(tt.TriadNet.load(path))
    assert f.model_id == "gen-0007@120"  # selfplay's `load_network`: STEM@STEP
    states = sample_states(game, 65)
    for batch in (states[:1], states[1:]):  # 1 and 64
        assert_same_bits(f, rust, batch)


@pytest.mark.parametrize("padding,pool,blocks", [("circular", True, 3), ("zeros", True, 1)])
def test_other_shapes_give_the_rust_networks_bits(tmp_path, padding, pool, blocks, threads):
    game = triad.load_game("pirate/6x6")
    base = tmp_path / "base.safetensors"
    triad.Network.fresh(game, seed=1).save(base)
    template = tt.TriadNet.load(base)
    shape = dict(template.shape, blocks=blocks, channels=24, policy_hidden=40, padding=padding, global_pool=pool)
    torch.manual_seed(blocks)
    net = tt.TriadNet(shape, template.game)
    with torch.no_grad():  # batch-norm statistics other than the defaults
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    path = tmp_path / "py.safetensors"
    net.save(path, step=3)
    rust = triad.Network.load(game, path)
    f = tt.evaluator(net)
    assert f.model_id == "py@3"
    states = sample_states(game, 65)
    for batch in (states[:1], states[1:]):
        assert_same_bits(f, rust, batch)
    # TriadNet.evaluate is the same pass, as lists.
    for (p, w), (q, v) in zip(net.evaluate(states[1:]), rust.evaluate(states[1:])):
        assert p == q and w == v


def test_the_evaluator_reads_the_arrays_in_place(monkeypatch):
    game = triad.load_game("connect4")
    planes, _, _ = game.observation_tensor_shape()
    shape = {
        "blocks": 1, "channels": 8, "move_embed": 4, "policy_hidden": 8, "value_hidden": 8,
        "planes": planes, "move_features": game.move_features(), "padding": "zeros",
        "global_pool": False, "aux_heads": False,
    }
    net = tt.TriadNet(shape)
    net.train()
    f = tt.evaluator(net)
    assert not net.training and f.model_id == "unsaved"
    x = triad.network_inputs(sample_states(game, 5))
    views = []
    from_numpy = torch.from_numpy
    monkeypatch.setattr(torch, "from_numpy", lambda a: views.append(a) or from_numpy(a))
    policy, wdl = f(x)
    assert sorted(id(a) for a in views) == sorted(id(a) for a in x.values())
    assert np.allclose(policy.sum(axis=1), 1.0) and np.allclose(wdl.sum(axis=1), 1.0)
    assert np.all(policy[~x["mask"]] == 0.0)
    assert all(p.grad is None for p in net.parameters())
