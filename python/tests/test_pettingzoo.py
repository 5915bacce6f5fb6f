"""The PettingZoo AEC environments pass PettingZoo's own API test."""

import numpy as np
import pytest

from pettingzoo.test import api_test

from triad.pettingzoo import env, raw_env


@pytest.mark.parametrize(
    "game", ["connect4", "connect4/4x4", "influence", "piratechnics", "piratechnics/8x8", "pirate/6x6"]
)
def test_api_test_passes(game):
    api_test(env(game), num_cycles=200, verbose_progress=False)


def test_a_game_to_the_end_with_masks():
    e = env("connect4")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            action = None
        else:
            assert obs["observation"].shape == (4, 6, 7)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    assert sum(total.values()) == 0.0


@pytest.mark.parametrize("game", ["piratechnics", "pirate"])
def test_sparse_games_act_by_index_into_the_legal_moves(game):
    e = raw_env(game, max_plies=60)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    plies = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = e.state.legal_actions()
        mask, codes = obs["action_mask"], obs["legal_actions"]
        assert mask.shape == codes.shape == (e.n,)
        assert mask.sum() == len(legal) and mask[: len(legal)].all()
        assert list(codes[: len(legal)]) == legal and (codes[len(legal):] == -1).all()
        action = int(rng.integers(len(legal)))
        before = e.state.clone()
        e.step(action)
        before.apply_action(legal[action])
        assert e.state.history() == before.history()
        plies += 1
    assert plies == 60 or e.state.is_terminal()


def test_sparse_games_bad_input_raises():
    e = raw_env("piratechnics", max_actions=5)
    with pytest.raises(ValueError, match="more than max_actions=5"):
        e.reset(seed=1)
        e.observe(e.agent_selection)
    e = raw_env("piratechnics")
    e.reset(seed=1)
    with pytest.raises(ValueError, match="not a legal move's index"):
        e.step(e.n - 1)
    with pytest.raises(ValueError, match="positive whole number"):
        raw_env("pirate", max_actions=0)
    with pytest.raises(ValueError, match="sparse move codes"):
        raw_env("connect4", max_actions=10)
