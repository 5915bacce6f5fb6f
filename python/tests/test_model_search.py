"""Your own model in triad's search: self-play and matches driven by a
Python callable (``triad.SelfPlay``, ``triad.play_match``)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

import triad

REPO = pathlib.Path(__file__).resolve().parents[2]

SMALL = """
[game]
name = "{game}"
[selfplay]
simulations = 8
cheap_simulations = 4
games_in_flight = 4
max_plies = {plies}
"""


def run_file(tmp_path, game, plies=40):
    path = tmp_path / f"{game.replace('/', '-')}.toml"
    path.write_text(SMALL.format(game=game, plies=plies))
    return path


def uniform(batch):
    """Even priors over each leaf's legal moves, an even W/D/L."""
    mask = batch["mask"]
    policy = mask / mask.sum(axis=1, keepdims=True)
    return policy.astype(np.float32), np.full((mask.shape[0], 3), 1 / 3, np.float32)


class Scripted:
    """`uniform`, except that call number `fail_at` answers `bad(batch)`
    (or raises what it raises)."""

    def __init__(self, bad, fail_at=3):
        self.bad, self.fail_at, self.calls = bad, fail_at, 0

    def __call__(self, batch):
        self.calls += 1
        if self.calls == self.fail_at:
            return self.bad(batch)
        return uniform(batch)


def shard_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(pathlib.Path(folder).glob("*.parquet"))}


def triad_binary():
    binary = os.environ.get("TRIAD_BIN", str(REPO / "target" / "debug" / "triad"))
    if not os.path.exists(binary):
        pytest.skip(f"no triad binary at {binary} (cargo build, or set TRIAD_BIN)")
    return binary


@pytest.mark.parametrize("name", triad.registered_games())
def test_every_game_plays_to_the_end_through_a_python_model(tmp_path, name):
    """Two whole games of every registered game, their leaves evaluated by
    a NumPy model answering logits, into shards that `triad data verify`
    passes and `triad train` trains on."""
    game = triad.load_game(name)
    rng = np.random.default_rng(0)
    seen = []

    def logits(batch):
        seen.append(batch)
        b, m = batch["legal"].shape
        assert batch["planes"].shape[0] == b and batch["planes"].dtype == np.float32
        assert np.array_equal(batch["legal"] >= 0, batch["mask"])
        return rng.normal(size=(b, m)).astype(np.float32), rng.normal(size=(b, 3))

    out = tmp_path / "shards"
    sp = triad.SelfPlay(game, logits, out, 2, config=run_file(tmp_path, name), logits=True)
    report = sp.play()
    assert report["done"] and report["games"] == 2
    assert report["model_calls"] == len(seen) > 0
    assert report["positions"] > 0 and report["evaluations"] >= report["model_calls"]
    assert [pathlib.Path(s).name for s in report["shards"]] == ["selfplay-s1-0000.parquet"]
    assert not list(out.glob("*.tmp")) and not (out / "triad.lock").exists()
    codes = game.num_distinct_actions()
    if codes <= 4096:
        assert seen[0]["legal_mask"].shape == (len(seen[0]["legal"]), codes)
    else:
        assert "legal_mask" not in seen[0]
    binary = triad_binary()
    run = subprocess.run([binary, "data", "verify", str(out), "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    # ... and `triad train` trains on them.
    run = subprocess.run(
        [binary, "train", "--game", name, "--data", str(out), "--out", str(tmp_path / "train"),
         "--steps", "1", "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert list((tmp_path / "train" / "checkpoints").glob("step-*.safetensors"))


BAD = {
    "not a tuple": (lambda b: uniform(b)[0], TypeError, "tuple (policy, value)"),
    "policy shape": (lambda b: (uniform(b)[0][:, :-1], uniform(b)[1]), ValueError, "policy has shape"),
    "policy dtype": (lambda b: (b["mask"].astype(np.int64), uniform(b)[1]), TypeError, "dtype int64"),
    "policy NaN": (lambda b: (uniform(b)[0] * np.nan, uniform(b)[1]), ValueError, "finite"),
    "negative": (lambda b: (uniform(b)[0] - 1.0, uniform(b)[1]), ValueError, "cannot be negative"),
    "unnormalised": (lambda b: (uniform(b)[0] * 2, uniform(b)[1]), ValueError, "sum to 1"),
    "value inf": (lambda b: (uniform(b)[0], uniform(b)[1] * np.inf), ValueError, "value[0, 0] is inf"),
    "value shape": (lambda b: (uniform(b)[0], uniform(b)[1][:, :2]), ValueError, "value has shape"),
    "value range": (lambda b: (uniform(b)[0], np.full(len(b["mask"]), 2.0)), ValueError, "[-1, 1]"),
    "raises": (lambda b: 1 / 0, ZeroDivisionError, "division by zero"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_answers_raise_naming_them_and_the_job_goes_on(tmp_path, case):
    """Each bad answer (or an exception in the model) raises a Python error
    naming what was expected and what came; no shard is half written; and
    `play()` again goes on to exactly the shards of a run whose model never
    failed."""
    bad, error, words = BAD[case]
    config = run_file(tmp_path, "connect4")
    model = Scripted(bad)
    out = tmp_path / "flaky"
    sp = triad.SelfPlay(triad.load_game("connect4"), model, out, 5, config=config, shard_games=2)
    with pytest.raises(error) as raised:
        sp.play()
    assert words in str(raised.value), str(raised.value)
    assert model.calls == 3
    assert not sp.report()["done"]
    # Readers see whole shards only, none being written.
    listed = triad._triad.list_shards([str(out)])
    assert all(pathlib.Path(p).suffix == ".parquet" for p in listed)
    report = sp.play()
    assert report["done"] and report["games"] == 5
    clean = tmp_path / "clean"
    triad.SelfPlay(triad.load_game("connect4"), uniform, clean, 5, config=config, shard_games=2).play()
    assert shard_bytes(out) == shard_bytes(clean) != {}
    assert not list(out.glob("*.tmp"))


def test_an_abandoned_job_leaves_no_partial_shard(tmp_path):
    """A job whose model failed and that is dropped leaves only whole
    shards: the one being written disappears with it."""
    import gc

    out = tmp_path / "dropped"
    model = Scripted(lambda b: 1 / 0, fail_at=40)
    sp = triad.SelfPlay(triad.load_game("connect4"), model, out, 6,
                        config=run_file(tmp_path, "connect4"), shard_games=100)
    with pytest.raises(ZeroDivisionError):
        sp.play()
    del sp
    gc.collect()
    assert not list(out.glob("*.tmp")) and not list(out.glob("*.parquet"))
    assert not (out / "triad.lock").exists()


def test_refusals_name_what_is_wrong(tmp_path):
    game = triad.load_game("piratechnics")
    with pytest.raises(ValueError, match="actions=True"):
        triad.SelfPlay(game, uniform, tmp_path / "a", 1, actions=True)
    with pytest.raises(ValueError, match="not piratechnics"):
        triad.SelfPlay(game, uniform, tmp_path / "b", 1, config=run_file(tmp_path, "connect4"))
    with pytest.raises(ValueError, match="at least 1"):
        triad.SelfPlay(game, uniform, tmp_path / "c", 0)
    c4 = triad.load_game("connect4")
    first = tmp_path / "d"
    triad.SelfPlay(c4, uniform, first, 1, config=run_file(tmp_path, "connect4")).play()
    with pytest.raises(ValueError, match="exists"):
        triad.SelfPlay(c4, uniform, first, 1, config=run_file(tmp_path, "connect4"))
    with pytest.raises(ValueError, match="players"):
        triad.play_match(c4, ["net:mine,sims=4"], models={"mine": uniform})


def test_a_policy_over_move_codes_plays_dense_games(tmp_path):
    """`actions=True`: a Connect Four model answering one logit per column
    (the AlphaZero layout) plays, its illegal columns ignored."""
    def columns(batch):
        mask = batch["legal_mask"]
        logits = np.where(mask, 0.0, 50.0).astype(np.float32)  # illegal ones are ignored
        logits[:, 3] += 1.0
        return logits, np.zeros(len(mask), np.float32)

    sp = triad.SelfPlay(triad.load_game("connect4"), columns, tmp_path / "s", 2,
                        config=run_file(tmp_path, "connect4"), logits=True, actions=True)
    assert sp.play()["games"] == 2


def test_a_python_model_plays_matches_against_the_engine_and_a_checkpoint(tmp_path):
    """`play_match`: a Python model as a `net:` player against `ab:depth=1`
    and against a checkpoint, every game played, the score in [0, 1]; the
    same seed plays the same games; a model that raises stops the match
    with its error."""
    game = triad.load_game("connect4")
    ckpt = tmp_path / "net.safetensors"
    triad.Network.fresh(game, seed=3).save(str(ckpt))
    players = ["net:mine,sims=16", "ab:depth=1", f"net:{ckpt},sims=8"]
    calls = []

    def mine(batch):
        calls.append(len(batch["mask"]))
        return uniform(batch)

    first = triad.play_match(game, players, models={"mine": mine}, games=4, seed=5)
    assert first["wins"] + first["draws"] + first["losses"] == 8
    assert 0.0 <= first["score"] <= 1.0
    assert set(first["against"]) == {"ab:depth=1", f"net:{ckpt},sims=8"}
    assert max(calls) > 1, "the games' leaves are batched"
    again = triad.play_match(game, players, models={"mine": mine}, games=4, seed=5)
    assert again["games"] == first["games"]
    with pytest.raises(ZeroDivisionError):
        triad.play_match(game, players[:2], models={"mine": lambda b: 1 / 0}, games=2)


@pytest.mark.parametrize("name", ["connect4", "piratechnics"])
def test_triadnet_as_the_python_model_writes_the_shards_of_rust_self_play(tmp_path, name):
    """The checkpoint's network as `triad.torch.TriadNet` driving the
    search from Python writes byte-identical shards to Rust self-play with
    that checkpoint (`triad.selfplay`, tch inside Rust): same seed, CPU,
    fp32, one libtorch thread as `[model] threads` sets."""
    torch = pytest.importorskip("torch")
    import triad.torch as tt

    game = triad.load_game(name)
    ckpt = tmp_path / "gen-0003.safetensors"
    triad.Network.fresh(game, seed=11).save(str(ckpt), step=42)
    config = run_file(tmp_path, name, plies=24)
    rust = tmp_path / "rust"
    triad.selfplay(str(config), 6, str(rust), model=str(ckpt), seed=9, shard_games=4)
    threads = torch.get_num_threads()
    try:
        model = tt.evaluator(tt.TriadNet.load(ckpt), threads=1)
        assert model.model_id == "gen-0003@42"
        python = tmp_path / "python"
        report = triad.SelfPlay(game, model, python, 6, config=config, seed=9, shard_games=4,
                                model_id=model.model_id).play()
    finally:
        torch.set_num_threads(threads)
    assert report["games"] == 6
    assert shard_bytes(python) == shard_bytes(rust) != {}


def test_the_own_model_example_runs(tmp_path):
    """docs/python.md's complete example, shortened: self-play through a
    PyTorch network of its own, training from the shards, the matches."""
    pytest.importorskip("torch")
    import importlib.util

    spec = importlib.util.spec_from_file_location("python_model", REPO / "examples" / "python_model.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    report = tmp_path / "report.json"
    result = example.main(["--out", str(tmp_path / "run"), "--generations", "2", "--games", "8",
                           "--sims", "8", "--epochs", "1", "--match-games", "2",
                           "--report", str(report)])
    assert [s["generation"] for s in result["scores"]] == [0, 1, 2]
    assert all(0.0 <= s["vs_generation_0"] <= 1.0 for s in result["scores"])
    assert [t["selfplay_games"] for t in result["training"]] == [8, 8]
    assert report.exists() and report.with_suffix(".svg").read_text().startswith("<svg")
