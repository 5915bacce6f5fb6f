"""The PettingZoo AEC environments pass PettingZoo's own API test."""

import numpy as np
import pytest

from pettingzoo.test import api_test

from triad.pettingzoo import env, raw_env


@pytest.mark.parametrize("game", ["connect4", "connect4/4x4", "influence"])
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


def test_sparse_games_are_refused():
    with pytest.raises(ValueError, match="too many for an action mask"):
        raw_env("piratechnics")
