"""triad's Parquet shards in Python: one call from a run to a table.

    >>> from triad.data import read_shards
    >>> table = read_shards("runs/quickstart")      # a pyarrow.Table
    >>> df = table.to_pandas()                       # or polars.from_arrow(table)

Shards are found as the command line finds them (``list_shards``: a run
folder's self-play shards in generation order, files still being written
skipped); docs/data.md describes the columns.
"""

from __future__ import annotations

import os
from typing import List, Union

from ._triad import list_shards as _list_shards

PathLike = Union[str, "os.PathLike[str]"]


def list_shards(*paths: PathLike) -> List[str]:
    """The shard files under ``paths`` (shard files, folders, run folders),
    in the order triad's trainer reads them."""
    return [str(p) for p in _list_shards([os.fspath(p) for p in paths])]


def read_shards(*paths: PathLike, columns: List[str] | None = None):
    """Every row of the shards under ``paths`` as one ``pyarrow.Table``
    (``columns``: only these), each file's rows in order, files in
    ``list_shards`` order. Needs pyarrow (``make setup`` installs it)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = list_shards(*paths)
    if not files:
        raise ValueError(f"no shards under {', '.join(map(str, paths))}")
    tables = [pq.read_table(f, columns=columns) for f in files]
    return pa.concat_tables(tables, promote_options="default")
