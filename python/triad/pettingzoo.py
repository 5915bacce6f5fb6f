"""PettingZoo AEC environments of triad's games (``pip install pettingzoo``).

    >>> from triad.pettingzoo import env
    >>> e = env("connect4")
    >>> e.reset(seed=0)
    >>> obs, reward, termination, truncation, info = e.last()
    >>> obs["action_mask"]          # one flag per move code
    array([1, 1, 1, 1, 1, 1, 1], dtype=int8)

Agents are ``player_0`` (who moves first) and ``player_1``. Rewards are
+1/-1/0 at the end. The observation is a dict of the network's planes for
the agent to move (``State.observation_tensor()``) and an ``action_mask``;
what an action is depends on the game's move codes:

- Dense codes (Connect Four, Influence Chess: ``Game.num_distinct_actions()``
  at most 65,536): an action is a move code (``State.legal_actions()``) and
  ``action_mask`` has one flag per code.
- Sparse codes (PiRaTeKnIcS, Pirate Chess: moves are bit fields over 2**32
  codes, no dense mask exists): an action is an index into the position's
  legal moves in ``State.legal_actions()`` order, ``action_mask`` flags the
  first ``len(legal_actions())`` of ``max_actions`` slots, and the
  observation also holds ``legal_actions``, the move codes behind the slots
  (-1 past the end). A position with more legal moves than ``max_actions``
  raises ``ValueError`` naming the count: pass a larger ``max_actions``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import load_game

MAX_MASK = 1 << 16
"""The largest action space with a dense ``action_mask``."""

MAX_ACTIONS = {"piratechnics": 1024, "pirate": 4096}
"""The default ``max_actions`` of the sparse games: at least twice the
most legal moves seen in 20 s of random games (179 in PiRaTeKnIcS, 1,605 in
Pirate Chess)."""


class TriadEnv(AECEnv):
    """A two-player AEC environment of one triad game and variant."""

    metadata = {"render_modes": ["human", "ansi"], "name": "triad_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "connect4",
        render_mode: str | None = None,
        max_plies: int = 1000,
        max_actions: int | None = None,
    ):
        super().__init__()
        self.game = load_game(game)
        codes = self.game.num_distinct_actions()
        self.sparse = codes > MAX_MASK
        if not self.sparse:
            if max_actions is not None:
                raise ValueError(
                    f"max_actions is for games with sparse move codes; {self.game.name}'s "
                    f"actions are its {codes} move codes"
                )
            n = codes
        else:
            n = MAX_ACTIONS.get(self.game.name, 4096) if max_actions is None else max_actions
            if not isinstance(n, int) or n < 1:
                raise ValueError(f"max_actions must be a positive whole number, not {max_actions!r}")
        self.n = n
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
                    **(
                        {"legal_actions": spaces.Box(-1, 2**32 - 1, (n,), dtype=np.int64)}
                        if self.sparse
                        else {}
                    ),
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

    def _legal(self):
        legal = self.state.legal_actions()
        if self.sparse and len(legal) > self.n:
            raise ValueError(
                f"{len(legal)} legal moves in {self.state.position()}, more than "
                f"max_actions={self.n}: make the environment with a larger max_actions"
            )
        return legal

    def observe(self, agent):
        mask = np.zeros(self.n, dtype=np.int8)
        legal = self._legal() if agent == self.agent_selection else []
        obs = {"observation": self.state.observation_tensor()}
        if self.sparse:
            mask[: len(legal)] = 1
            codes = np.full(self.n, -1, dtype=np.int64)
            codes[: len(legal)] = legal
            obs["action_mask"] = mask
            obs["legal_actions"] = codes
        else:
            mask[legal] = 1
            obs["action_mask"] = mask
        return obs

    def action_code(self, action: int) -> int:
        """The move code an action stands for in the position now (the
        action itself for games with dense codes)."""
        if not self.sparse:
            return int(action)
        legal = self._legal()
        if not 0 <= int(action) < len(legal):
            raise ValueError(
                f"action {action} is not a legal move's index here: {len(legal)} legal moves"
            )
        return legal[int(action)]

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
        self.state.apply_action(self.action_code(action))
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
