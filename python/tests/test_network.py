"""The network from Python: fresh, saved, loaded (by Python and by the
command line), evaluated; checkpoints of another game refused."""

import os
import subprocess

import pytest

import triad
from conftest import REPO


def test_save_load_evaluate(tmp_path):
    game = triad.load_game("connect4")
    net = triad.Network.fresh(game, seed=3)
    assert net.game == "connect4/7x6" and net.parameter_count() > 0
    path = tmp_path / "net.safetensors"
    net.save(path, step=5)
    assert (tmp_path / "net.json").exists()
    back = triad.Network.load(game, path)
    states = [game.new_initial_state(), game.new_initial_state("4453")]
    a, b = net.evaluate(states), back.evaluate(states)
    for (pa, wa), (pb, wb), s in zip(a, b, states):
        assert pa == pb and wa == wb
        assert len(pa) == len(s.legal_actions())
        assert abs(sum(pa) - 1.0) < 1e-5 and abs(sum(wa) - 1.0) < 1e-5
    assert triad.Network.fresh(game, seed=3).evaluate(states) == a


def test_checkpoint_of_another_game_is_refused(tmp_path):
    path = tmp_path / "net.safetensors"
    triad.Network.fresh(triad.load_game("connect4"), seed=1).save(path)
    with pytest.raises(ValueError, match="connect4"):
        triad.Network.load(triad.load_game("connect4/6x5"), path)
    with pytest.raises(ValueError):
        triad.Network.load(triad.load_game("connect4"), tmp_path / "missing.safetensors")
    net = triad.Network.fresh(triad.load_game("connect4"), seed=1)
    with pytest.raises(ValueError, match="for a network of connect4/7x6"):
        net.evaluate([triad.load_game("influence").new_initial_state()])


def test_the_command_line_loads_a_checkpoint_saved_from_python(tmp_path):
    binary = os.environ.get("TRIAD_BIN", str(REPO / "target" / "debug" / "triad"))
    if not os.path.exists(binary):
        pytest.skip(f"no triad binary at {binary} (cargo build, or set TRIAD_BIN)")
    path = tmp_path / "net.safetensors"
    triad.Network.fresh(triad.load_game("connect4"), seed=2).save(path)
    out = subprocess.run(
        [binary, "move", "--game", "connect4", "--position", "44", "--player", f"net:{path},sims=8"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    move = out.stdout.split()[0]
    state = triad.load_game("connect4").new_initial_state("44")
    assert state.string_to_action(move) in state.legal_actions()
