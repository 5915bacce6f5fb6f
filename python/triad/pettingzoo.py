"""PettingZoo AEC environments of triad's games (``pip install pettingzoo``).

    >>> from triad.pettingzoo import env
    >>> e = env("connect4")
    >>> e.reset(seed=0)
    >>> obs, reward, termination, truncation, info = e.last()
    >>> obs["action_mask"]          # one flag per move code
    array([1, 1, 1, 1, 1, 1, 1], dtype=int8)

Agents are ``player_0`` (who moves first) and ``player_1``. An action is a
move code (``State.legal_actions()``); the observation is a dict of the
network's planes for the agent to move (``State.observation_tensor()``)
and ``action_mask`` over ``Game.num_distinct_actions()`` codes. Rewards are
+1/-1/0 at the end. Games whose move codes are sparse bit fields
(PiRaTeKnIcS, Pirate Chess: 2**32 codes) have no such mask and are refused.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import load_game

MAX_MASK = 1 << 16
"""The largest action space with a dense ``action_mask``."""


class TriadEnv(AECEnv):
    """A two-player AEC environment of one triad game and variant."""

    metadata = {"render_modes": ["human", "ansi"], "name": "triad_v0", "is_parallelizable": False}

    def __init__(self, game: str = "connect4", render_mode: str | None = None, max_plies: int = 1000):
        super().__init__()
        self.game = load_game(game)
        n = self.game.num_distinct_actions()
        if n > MAX_MASK:
            raise ValueError(
                f"{self.game}: move codes run to {n}, too many for an action mask; "
                "PettingZoo environments exist for games with a dense action space "
                "(connect4, influence)"
            )
        self.metadata = dict(self.metadata, name=f"triad_{self.game.name}_v0")
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.possible_agents = ["player_0", "player_1"]
        shape = self.game.observation_tensor_shape()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        n = self.game.num_distinct_actions()
        mask = np.zeros(n, dtype=np.int8)
        if agent == self.agent_selection:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        position = (options or {}).get("position")
        self.state = self.game.new_initial_state(position)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            for i, a in enumerate(self.agents):
                self.rewards[a] = returns[i]
                self.terminations[a] = True
            self.agent_selection = self.agents[1 - self.agents.index(agent)]
        else:
            if len(self.state.history()) >= self.max_plies:
                for a in self.agents:
                    self.truncations[a] = True
            self.agent_selection = self.agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass


def raw_env(game: str = "connect4", **kwargs) -> TriadEnv:
    """The environment without PettingZoo's checking wrappers."""
    return TriadEnv(game, **kwargs)


def env(game: str = "connect4", **kwargs):
    """The environment in PettingZoo's usual wrappers (illegal moves end
    the game as a loss; order enforced)."""
    e = raw_env(game, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
