"""Observations: the network's own encoding, one state and batches."""

import numpy as np
import pytest

import triad
from test_games import playout


def sample_states(game, n=24):
    states = []
    seed = 0
    while len(states) < n:
        for i, s in enumerate(playout(game, seed, max_plies=80)):
            if i % 7 == 0 and not s.is_terminal():
                states.append(s.clone())
        seed += 1
    return states[:n]


def test_observation_equals_the_networks_encoder(game):
    states = sample_states(game)
    shape = game.observation_tensor_shape()
    ours = np.empty((len(states),) + shape, dtype=np.float32)
    triad.encode_batch(states, ours)
    model = np.full((len(states),) + shape, np.nan, dtype=np.float32)
    triad.encode_batch_with_model(states, model)
    np.testing.assert_array_equal(ours, model)
    for i, s in enumerate(states):
        obs = s.observation_tensor()
        assert obs.shape == shape and obs.dtype == np.float32
        np.testing.assert_array_equal(obs, ours[i])
    assert np.any(ours != 0)


def test_connect4_observation_by_hand():
    g = triad.load_game("connect4")
    s = g.new_initial_state()
    obs = s.observation_tensor()
    # Planes: own stones, the opponent's, landing cells, first player to move.
    assert obs.shape == (4, 6, 7)
    assert obs[3].min() == 1.0  # the first player moves
    assert obs[2][5].tolist() == [1.0] * 7 and obs[2][:5].sum() == 0
    s.apply_action(3)  # first player drops in column d: the bottom row
    obs = s.observation_tensor()
    assert obs[0].sum() == 0  # seen from the second player
    assert obs[1][5][3] == 1.0 and obs[1].sum() == 1
    assert obs[2][4][3] == 1.0 and obs[2][5][3] == 0.0
    assert obs[3].max() == 0.0


def test_batch_errors():
    c4 = triad.load_game("connect4")
    states = [c4.new_initial_state() for _ in range(3)]
    with pytest.raises(ValueError, match="shape"):
        triad.encode_batch(states, np.empty((2, 4, 6, 7), dtype=np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        triad.encode_batch(states, np.empty((3, 4, 7, 6), dtype=np.float32).transpose(0, 1, 3, 2))
    mixed = states + [triad.load_game("connect4/6x5").new_initial_state()]
    with pytest.raises(ValueError, match="one batch holds one game"):
        triad.encode_batch(mixed, np.empty((4, 4, 6, 7), dtype=np.float32))
    with pytest.raises(TypeError):
        triad.encode_batch(states, np.empty((3, 4, 6, 7), dtype=np.float64))
    # The network's own encoders refuse a batch of two variants too.
    with pytest.raises(ValueError, match="batch"):
        triad.encode_batch_with_model(mixed, np.empty((4, 4, 6, 7), dtype=np.float32))
    with pytest.raises(ValueError, match="batch"):
        triad.network_inputs(mixed)


def test_vector_env_steps_every_game(game):
    env = triad.VectorEnv(game, 8, seed=5)
    obs = env.reset()
    assert obs.shape == (8,) + game.observation_tensor_shape()
    finished = 0
    for _ in range(60):
        actions = env.random_actions()
        legal = env.legal_actions()
        for i, a in enumerate(actions):
            assert a in legal[i][legal[i] >= 0]
        before = [env.state(i) for i in range(len(env))]
        obs, returns, dones, legal = env.step(actions)
        assert returns.shape == (8, 2) and dones.shape == (8,)
        for i in range(len(env)):
            s = env.state(i)
            np.testing.assert_array_equal(obs[i], s.observation_tensor())
            np.testing.assert_array_equal(legal[i][legal[i] >= 0], s.legal_actions())
            if dones[i]:
                finished += 1
                after = before[i].clone()
                after.apply_action(int(actions[i]))
                assert after.is_terminal()
                assert list(returns[i]) == after.returns()
                assert s.history() == []
            else:
                assert returns[i].tolist() == [0.0, 0.0]
                assert s.history() == before[i].history() + [int(actions[i])]
    if game.name == "connect4" and game.variant == "4x4":
        assert finished > 0


def test_vector_env_refuses_an_illegal_action():
    env = triad.VectorEnv(triad.load_game("connect4"), 2)
    with pytest.raises(ValueError, match="game 1: action 9"):
        env.step(np.array([0, 9], dtype=np.int64))
    assert env.state(0).history() == []
    with pytest.raises(ValueError, match="one action per game"):
        env.step(np.array([0], dtype=np.int64))
