"""triad in Python: its games in pyspiel's words, batches without copies.

    >>> import triad
    >>> game = triad.load_game("connect4")
    >>> state = game.new_initial_state()
    >>> state.apply_action(3)
    >>> state.current_player()
    1

Every game and variant the command line's ``--game`` knows loads here
(``"piratechnics/8x8"``, ``"connect4/6x5"``, ``"pirate/10x8"``, ...).
The players: ``triad.analyze(state, depth=6)`` (the alpha-beta engine),
``triad.mcts(state, "mcts:sims=1000")`` (pure MCTS) and ``triad.Solver()``
(the perfect Connect Four solver). ``triad.Network`` is the libtorch network;
``triad.torch.TriadNet`` the same network as a PyTorch module. Modules
``triad.pettingzoo`` and ``triad.data`` hold the PettingZoo environments
and the shard reader.

Action ids are triad's move codes (``GameMove::code``, the numbers the
shards store): the column for Connect Four, RULES.md's fixed index for
Influence Chess, packed bit fields for PiRaTeKnIcS and Pirate Chess; see
docs/python.md.

The extension links the libtorch of the torch wheel installed beside it, so
``import torch`` and ``import triad`` share one libtorch in either order.
"""

from ._triad import (
    Game,
    Network,
    SelfPlay,
    Solver,
    State,
    VectorEnv,
    analyze,
    choose,
    encode_batch,
    encode_batch_with_model,
    game_descriptions,
    load_game,
    mcts,
    network_inputs,
    play_match,
    registered_games,
    selfplay,
)

TERMINAL_PLAYER = -4
"""``State.current_player()`` of a finished game (pyspiel's kTerminalPlayerId)."""

__all__ = [
    "Game",
    "Network",
    "SelfPlay",
    "Solver",
    "analyze",
    "choose",
    "selfplay",
    "mcts",
    "State",
    "VectorEnv",
    "TERMINAL_PLAYER",
    "encode_batch",
    "encode_batch_with_model",
    "game_descriptions",
    "load_game",
    "registered_games",
    "network_inputs",
    "play_match",
]
