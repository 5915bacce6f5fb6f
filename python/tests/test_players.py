"""The players on a state: alpha-beta, pure MCTS, the Connect Four solver."""

import itertools

import pytest

import triad
from conftest import REPO


def test_analyze_finds_the_win_in_one():
    g = triad.load_game("connect4")
    # First player has three in column a (1-based text "1"): 1 2 1 2 1 2 -> 1 wins.
    s = g.new_initial_state()
    for a in [0, 1, 0, 1, 0, 1]:
        s.apply_action(a)
    a = triad.analyze(s, depth=4)
    assert a["bestmove"] == 0
    assert a["pv"][0] == 0 and a["pv_text"][0] == s.action_to_string(0)
    assert a["mate"] == 1 and a["score"] is None
    assert a["depth"] == 4


def test_analyze_every_game(game):
    s = game.new_initial_state()
    a = triad.analyze(s, depth=1)
    assert a["bestmove"] in s.legal_actions()
    assert a["pv"] and a["pv"][0] == a["bestmove"]
    with pytest.raises(ValueError, match="depth"):
        triad.analyze(s, depth=0)


def test_mcts_plays_a_legal_move_and_takes_the_win():
    g = triad.load_game("connect4")
    s = g.new_initial_state()
    for a in [0, 1, 0, 1, 0, 1]:
        s.apply_action(a)
    move, edges = triad.mcts(s, "mcts:sims=400", seed=1)
    assert move == 0
    assert sorted(e[0] for e in edges) == s.legal_actions()
    assert sum(e[1] for e in edges) == 400
    assert move == max(edges, key=lambda e: e[1])[0]
    with pytest.raises(ValueError, match="sims"):
        triad.mcts(s, "mcts:sims=0")
    with pytest.raises(ValueError, match="expected mcts"):
        triad.mcts(s, "alphabeta")
    over = s.clone()
    over.apply_action(0)
    assert triad.mcts(over, "mcts:sims=10") == (None, [])


def test_mcts_every_game(game):
    s = game.new_initial_state()
    move, edges = triad.mcts(s, "mcts:sims=30,plies=60", seed=2)
    assert move in s.legal_actions()


def pons_cases(name, count):
    path = REPO / "benchmarks" / "connect4" / name
    lines = [l.split() for l in path.read_text().splitlines() if l.strip()]
    return lines[:count]


@pytest.mark.parametrize("moves,score", pons_cases("Test_L3_R1", 12))
def test_solver_reproduces_pons_scores(moves, score):
    s = triad.load_game("connect4").new_initial_state(moves)
    assert triad.Solver(16).solve(s) == int(score)


@pytest.mark.parametrize("line", pons_cases("Test_L3_R1.moves", 4))
def test_solver_reproduces_pons_column_values(line):
    moves, score, *columns = line
    s = triad.load_game("connect4").new_initial_state(moves)
    solver = triad.Solver(16)
    assert solver.solve(s) == int(score)
    expected = [None if c == "." else int(c) for c in columns]
    assert solver.column_values(s) == expected


def test_solver_refuses_other_games():
    with pytest.raises(ValueError, match="Connect Four only"):
        triad.Solver(12).solve(triad.load_game("influence").new_initial_state())
    with pytest.raises(ValueError, match="table_bits"):
        triad.Solver(5)


def test_choose_takes_every_player_spec(tmp_path):
    g = triad.load_game("connect4")
    s = g.new_initial_state()
    for a in [0, 1, 0, 1, 0, 1]:
        s.apply_action(a)
    assert triad.choose(s, "ab:depth=2") == 0
    assert triad.choose(s, "mcts:sims=300") == 0
    assert triad.choose(s, "random", seed=4) in s.legal_actions()
    path = tmp_path / "net.safetensors"
    triad.Network.fresh(g, seed=1).save(path)
    assert triad.choose(s, f"net:{path},sims=16") in s.legal_actions()
    with pytest.raises(ValueError, match="player"):
        triad.choose(s, "nonsense")
    with pytest.raises(ValueError):
        triad.choose(s, f"net:{tmp_path / 'missing.safetensors'},sims=4")
    over = s.clone()
    over.apply_action(0)
    with pytest.raises(ValueError, match="over"):
        triad.choose(over, "random")
