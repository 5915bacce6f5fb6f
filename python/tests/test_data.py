"""Shards into one pyarrow table, found as the command line finds them."""

import shutil

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
