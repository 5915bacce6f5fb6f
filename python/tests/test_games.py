"""The pyspiel-style state API against the rules: playouts, clones,
serialization, perft vectors, returns and bad input."""

import random

import numpy as np
import pytest

import triad
from conftest import REPO, VARIANTS

MAX_PLIES = 240


def playout(game, seed, max_plies=MAX_PLIES):
    """A random game from the start: yields every state on the way."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(max_plies):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


def test_registered_games_are_the_registry():
    assert triad.registered_games() == ["piratechnics", "connect4", "influence", "pirate"]
    names = [d[0] for d in triad.game_descriptions()]
    assert names == triad.registered_games()
    for name in VARIANTS:
        g = triad.load_game(name)
        assert g.name == name.split("/")[0]
    assert str(triad.load_game("connect4/6x5")) == "connect4/6x5"
    assert triad.load_game("connect4").variant == "7x6"


def test_random_playouts_clone_is_independent(game):
    for seed in range(3):
        for state in playout(game, seed):
            if state.is_terminal():
                break
            before = (state.position(), state.history(), state.legal_actions())
            copy = state.clone()
            action = state.legal_actions()[0]
            copy.apply_action(action)
            assert (state.position(), state.history(), state.legal_actions()) == before
            assert copy.history() == before[1] + [action]
            assert copy.position() != before[0] or copy.is_terminal()


def test_terminal_states(game):
    finished = 0
    for seed in range(4):
        states = list(s.clone() for s in playout(game, seed, max_plies=600))
        last = states[-1]
        for s in states[:-1]:
            assert not s.is_terminal()
            assert s.returns() == [0.0, 0.0]
            assert s.current_player() in (0, 1)
            assert s.outcome() is None
        if not last.is_terminal():
            continue
        finished += 1
        assert last.legal_actions() == []
        assert last.current_player() == triad.TERMINAL_PLAYER
        result, termination = last.outcome()
        ret = last.returns()
        assert sum(ret) == 0.0
        assert ret == {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0], "1/2-1/2": [0.0, 0.0]}[result]
        assert termination
        with pytest.raises(ValueError):
            last.apply_action(0)
    if game.name == "connect4":
        assert finished == 4


def test_serialize_round_trips(game):
    for state in playout(game, 7, max_plies=120):
        text = state.serialize()
        back = game.deserialize_state(text)
        assert back.position() == state.position()
        assert back.history() == state.history()
        assert back.legal_actions() == state.legal_actions()
        assert back.repetitions() == state.repetitions()
        assert back.serialize() == text
        again = game.new_initial_state(state.position())
        assert again.position() == state.position()


def test_action_strings(game):
    for state in playout(game, 3, max_plies=40):
        for a in state.legal_actions()[:20]:
            assert state.string_to_action(state.action_to_string(a)) == a


def perft_lines():
    for folder in ["piratechnics", "influence", "pirate"]:
        path = REPO / "games" / folder / "vectors" / "perft.txt"
        for number, line in enumerate(path.read_text().splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            position, *counts = [p.strip() for p in line.split(";")]
            depths = {}
            for c in counts:
                d, n = c.split()
                depths[int(d[1:])] = int(n)
            yield pytest.param(folder, position, depths, id=f"{folder}:{number}")


@pytest.mark.parametrize("name,position,depths", list(perft_lines()))
def test_legal_action_counts_equal_perft_vectors(name, position, depths):
    game = triad.load_game(name).game_for_position(position)
    state = game.new_initial_state(position)
    actions = state.legal_actions()
    assert len(actions) == depths[1]
    if 2 in depths:
        total = 0
        for a in actions:
            child = state.clone()
            child.apply_action(a)
            total += len(child.legal_actions())
        assert total == depths[2]


def test_connect4_perft_by_hand():
    # Connect Four 7x6 from the start: 7, then 49 (no line of four before
    # ply 7).
    s = triad.load_game("connect4").new_initial_state()
    assert len(s.legal_actions()) == 7
    assert sum(len(_play(s, a).legal_actions()) for a in s.legal_actions()) == 49


def _play(state, action):
    s = state.clone()
    s.apply_action(action)
    return s


def test_bad_input_raises():
    c4 = triad.load_game("connect4")
    s = c4.new_initial_state()
    with pytest.raises(ValueError, match="action 99 is not a legal move"):
        s.apply_action(99)
    with pytest.raises(ValueError, match="action -1 is not a legal move"):
        s.apply_action(-1)
    with pytest.raises(ValueError, match="unknown game \"chess\""):
        triad.load_game("chess")
    with pytest.raises(ValueError, match="game.variant"):
        triad.load_game("connect4/99")
    with pytest.raises(ValueError):
        triad.load_game("piratechnics").new_initial_state("not a position")
    for name in ["connect4", "influence", "pirate"]:
        with pytest.raises(ValueError):
            triad.load_game(name).new_initial_state("zz/zz garbage")
    with pytest.raises(ValueError, match="not a serialized state"):
        c4.deserialize_state("no newline")
    with pytest.raises(ValueError, match="is not a move code"):
        c4.deserialize_state("\n3 x")
    with pytest.raises(ValueError, match="action 9 is not a legal move"):
        c4.deserialize_state("\n3 9")
    with pytest.raises(ValueError):
        s.string_to_action("nonsense")
    # A full column: playing into it again is refused and the state is unchanged.
    for _ in range(6):
        s.apply_action(0)
    assert 0 not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(0)
    assert s.history() == [0] * 6


def test_num_distinct_actions_bounds_the_codes(game):
    bound = game.num_distinct_actions()
    for state in playout(game, 11, max_plies=60):
        assert all(0 <= a < bound for a in state.legal_actions())
    if game.name == "connect4":
        assert bound == game.observation_tensor_shape()[2]
    if game.name == "influence":
        assert bound == 7056
