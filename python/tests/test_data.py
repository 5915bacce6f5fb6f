"""Shards into one pyarrow table, found as the command line finds them."""

import shutil

import triad

import pyarrow.parquet as pq
import pytest

from conftest import REPO
from triad.data import list_shards, read_shards

SHARD = REPO / "data" / "tests" / "data" / "v1-selfplay.parquet"


def test_read_a_run_folder(tmp_path):
    run = tmp_path / "run"
    for g in [0, 1]:
        d = run / "games" / f"gen-{g:04}"
        d.mkdir(parents=True)
        shutil.copy(SHARD, d / f"selfplay-s1-{g:04}.parquet")
    (run / "games" / "gen-0001" / "selfplay-s1-0002.parquet.tmp").write_bytes(b"partial")
    files = list_shards(run)
    assert [f.split("/")[-2] for f in files] == ["gen-0000", "gen-0001"]
    table = read_shards(run)
    one = pq.read_table(SHARD)
    assert table.num_rows == 2 * one.num_rows
    assert table.schema.names == one.schema.names
    assert table.slice(0, one.num_rows).equals(one)
    moves = read_shards(run, columns=[one.schema.names[0]])
    assert moves.num_columns == 1


def test_bad_paths_raise(tmp_path):
    with pytest.raises(ValueError, match="missing"):
        list_shards(tmp_path / "missing")
    with pytest.raises(ValueError, match="no shards"):
        read_shards(tmp_path)


CONFIG = """
seed = 1

[game]
name = "connect4"
variant = "5x4"

[model]
blocks = 1
channels = 8
threads = 1

[selfplay]
simulations = 4
games_in_flight = 4
max_plies = 20
pools = 1
"""


def test_selfplay_into_shards_and_back(tmp_path):
    config = tmp_path / "run.toml"
    config.write_text(CONFIG)
    out = tmp_path / "games"
    shards = triad.selfplay(config, 6, out, seed=3, shard_games=4)
    assert len(shards) == 2 and all(s.startswith(str(out)) for s in shards)
    assert list_shards(out) == shards
    table = read_shards(out)
    assert table.num_rows > 6
    games = set(table.column("game_id").to_pylist())
    assert games == set(range(6))
    assert set(table.column("variant").to_pylist()) == {"5x4"}
    # Each game replays here: the recorded positions, legal moves and
    # results are this package's.
    game = triad.load_game("connect4/5x4")
    rows = table.to_pylist()
    for gid in range(6):
        mine = sorted((r for r in rows if r["game_id"] == gid), key=lambda r: r["ply"])
        state = game.new_initial_state()
        for r in mine:
            assert r["position"] == state.position()
            assert r["legal_moves"] == state.legal_actions()
            state.apply_action(r["chosen_move"])
        if mine[0]["termination"] in ("line", "board-full"):
            assert state.outcome() == (mine[0]["result"], mine[0]["termination"])


def test_selfplay_bad_config_raises(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nname = \"chess\"\n")
    with pytest.raises(ValueError, match="chess"):
        triad.selfplay(bad, 1, tmp_path / "out")
