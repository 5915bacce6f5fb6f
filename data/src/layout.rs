//! The one layout of a run: the names of its generations, shard folders,
//! networks and match records, for the local loop (`triad loop`) and the
//! distributed run (`triad trainer`, `triad worker`) alike, and their
//! parsing back. Every name of a run's object is made here (the readers of
//! this crate, `pipeline`'s orchestrators and its upgrade of old runs use
//! it); nothing else spells `gen-` or a run's folder names.
//!
//! ```text
//! RUN/games/gen-0003/…parquet                  self-play shards of generation 3's network:
//!     selfplay-….parquet                         the loop's
//!     w0007-<incarnation>-s000031.parquet        a worker's (shard, incarnation, sequence)
//! RUN/networks/gen-0003.safetensors            the loop's network of generation 3
//! RUN/networks/gen-0003.json                   loop: its sidecar; distributed: its manifest
//! RUN/networks/gen-0003-<trainer>.safetensors  distributed: the weights the manifest names
//! RUN/eval/gen-0003.parquet                    the loop's match games of generation 3
//! RUN/matches.json                             the loop's match results, every generation
//! RUN/matches/gen-0003.json                    distributed: generation 3's match results
//! RUN/LATEST                                   distributed: "gen-0003", the newest (a hint)
//! RUN/ratings.md                               distributed: ratings refitted from matches/
//! RUN/config.toml                              the run file
//! ```
//!
//! A generation is `gen-` and its number, at least four digits
//! ([`gen_name`]); names are parsed as numbers ([`parse_gen`]), never
//! sorted as text (`gen-10000` follows `gen-9999`).
//!
//! Where the two orchestrators write different content for the same thing
//! the names still come from here and differ only where they must:
//! - `networks/gen-NNNN.json` is the loop's checkpoint sidecar
//!   (`model::CheckpointInfo`) beside `gen-NNNN.safetensors`, and the
//!   distributed run's manifest (the sidecar inside it, plus the weights'
//!   key and checksum). In an object store the manifest is the fence: it is
//!   put-if-absent after the weights, and the weights carry the trainer's
//!   name (`gen-NNNN-<trainer>.safetensors`) because two trainers may race
//!   to upload them and immutable objects are never overwritten.
//! - `matches.json` is the loop's one record of every generation's results
//!   (rewritten by its one process); a distributed run cannot rewrite an
//!   object safely, so each generation's results are their own immutable
//!   object `matches/gen-NNNN.json`.
//!
//! Runs written before this layout (distributed runs: `shards/g000003/`,
//! `checkpoints/g000003…`, `matches/g000003.json`) are named by [`v1`];
//! readers refuse them with [`old_layout_message`], and `triad data
//! upgrade` renames them (`pipeline::scale::upgrade`).

use std::path::Path;

/// The folder of a run's self-play shards, one [`gen_name`] folder per
/// generation.
pub const GAMES_DIR: &str = "games";
/// The folder of a run's networks (and, in a distributed run, manifests).
pub const NETWORKS_DIR: &str = "networks";
/// The folder of the loop's match games, one `gen-NNNN.parquet` each.
pub const EVAL_DIR: &str = "eval";
/// The loop's match results of every generation.
pub const MATCHES_FILE: &str = "matches.json";
/// The folder of a distributed run's match results, one object a generation.
pub const MATCHES_DIR: &str = "matches";
/// The distributed run's hint of its newest generation.
pub const LATEST: &str = "LATEST";
/// The run file of a run (a copy; in a store, put once by the trainer).
pub const CONFIG_FILE: &str = "config.toml";
/// The distributed run's ratings, refitted from its match results.
pub const RATINGS_MD: &str = "ratings.md";
/// Where the distributed trainer moves a shard that fails verification
/// (`quarantine/games/gen-0003/….parquet`, whole, with
/// `….parquet.reason.json` beside it): never listed as the run's games.
pub const QUARANTINE_DIR: &str = "quarantine";

/// `gen-0003`: generation `g`'s name (at least four digits).
pub fn gen_name(g: u32) -> String {
    format!("gen-{g:04}")
}

/// The number of a generation name `gen-NNNN` (any number of digits, at
/// least one); `None` for any other name.
pub fn parse_gen(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("gen-")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The generation of a shard path: [`parse_gen`] of its folder (a run's
/// `games/gen-NNNN/*.parquet`), else of its folder's folder (a `[loop]
/// mix` variant's `games/gen-NNNN/<variant>/*.parquet`), else of its own
/// stem (a run's `eval/gen-NNNN.parquet`). A shard with a generation is
/// listed by generation and name, never by its time: self-play pools
/// finish in any order, and a training run must read the same window
/// whatever the order was.
pub fn generation_of_path(path: &Path) -> Option<u32> {
    let folder = |d: Option<&Path>| {
        d.and_then(|d| d.file_name())
            .and_then(|n| n.to_str())
            .and_then(parse_gen)
    };
    let parent = path.parent();
    folder(parent)
        .or_else(|| folder(parent.and_then(|p| p.parent())))
        .or_else(|| {
            path.file_name()?
                .to_str()?
                .strip_suffix(".parquet")
                .and_then(parse_gen)
        })
}

/// `games/gen-0003`: generation `g`'s shard folder, relative to the run.
pub fn games_dir(g: u32) -> String {
    format!("{GAMES_DIR}/{}", gen_name(g))
}

/// `games/gen-0003/w0007-<incarnation>-s000031.parquet`: a worker's shard
/// of generation `g`'s network (worker index, incarnation, sequence: a
/// restarted worker never reuses a name).
pub fn worker_shard(g: u32, worker: u32, incarnation: &str, seq: u64) -> String {
    format!(
        "{}/w{worker:04}-{incarnation}-s{seq:06}.parquet",
        games_dir(g)
    )
}

/// `networks/gen-0003.safetensors`: the loop's network of generation `g`.
pub fn network(g: u32) -> String {
    format!("{NETWORKS_DIR}/{}.safetensors", gen_name(g))
}

/// `networks/gen-0003.json`: a distributed run's manifest of generation
/// `g` (the loop's sidecar has the same name, see the module docs).
pub fn manifest(g: u32) -> String {
    format!("{NETWORKS_DIR}/{}.json", gen_name(g))
}

/// The generation of a manifest key `networks/gen-NNNN.json`.
pub fn manifest_generation(key: &str) -> Option<u32> {
    let name = key.strip_prefix(NETWORKS_DIR)?.strip_prefix('/')?;
    parse_gen(name.strip_suffix(".json")?)
}

/// `networks/gen-0003-<trainer>.safetensors`: the weights a distributed
/// run's trainer incarnation uploads for generation `g`.
pub fn trainer_weights(g: u32, trainer: &str) -> String {
    format!("{NETWORKS_DIR}/{}-{trainer}.safetensors", gen_name(g))
}

/// `eval/gen-0003.parquet`: the loop's match games of generation `g`.
pub fn eval_games(g: u32) -> String {
    format!("{EVAL_DIR}/{}.parquet", gen_name(g))
}

/// `matches/gen-0003.json`: a distributed run's match results of
/// generation `g`.
pub fn generation_matches(g: u32) -> String {
    format!("{MATCHES_DIR}/{}.json", gen_name(g))
}

/// The command that upgrades a run in an old layout.
pub const UPGRADE_COMMAND: &str = "triad data upgrade";

/// The one-line refusal of the run `run` in an old layout, naming the
/// upgrade (the caller puts the run in front, as its errors name a path).
pub fn old_layout_message(run: &str) -> String {
    format!(
        "a run in the old layout (shards/gNNNNNN/, checkpoints/gNNNNNN…): upgrade it first with `{UPGRADE_COMMAND} {run}` (docs/scale-out.md)"
    )
}

/// The first layout of distributed runs (until the one layout): names and
/// their new names, for refusing and upgrading such runs only.
pub mod v1 {
    use super::{gen_name, generation_matches, manifest, trainer_weights, GAMES_DIR};

    /// Where its shards were, `shards/g000003/…`.
    pub const SHARDS: &str = "shards/";
    /// Where its manifests and weights were, `checkpoints/g000003…`.
    pub const CHECKPOINTS: &str = "checkpoints/";
    /// Where its match results were, `matches/g000003.json`.
    pub const MATCHES: &str = "matches/";

    /// The generation of an old name `g000003` (exactly six digits).
    pub fn parse_gen(name: &str) -> Option<u32> {
        let d = name.strip_prefix('g')?;
        (d.len() == 6 && d.bytes().all(|b| b.is_ascii_digit()))
            .then(|| d.parse().ok())
            .flatten()
    }

    /// What an old object becomes.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum Rename {
        /// The same bytes under a new key.
        Same(String),
        /// A manifest: its `weights` key becomes [`super::trainer_weights`].
        Manifest(String),
        /// Match results: their generation names become [`gen_name`]s.
        Matches(String),
    }

    impl Rename {
        /// The new key.
        pub fn key(&self) -> &str {
            match self {
                Rename::Same(k) | Rename::Manifest(k) | Rename::Matches(k) => k,
            }
        }
    }

    /// The new name of an old layout's object key, `None` for a key the
    /// layouts share (`config.toml`, `ratings.md`, `LATEST`) or do not know.
    pub fn rename(key: &str) -> Option<Rename> {
        if let Some(rest) = key.strip_prefix(SHARDS) {
            let (folder, file) = rest.split_once('/')?;
            let g = parse_gen(folder)?;
            return Some(Rename::Same(format!("{GAMES_DIR}/{}/{file}", gen_name(g))));
        }
        if let Some(name) = key.strip_prefix(CHECKPOINTS) {
            let g = parse_gen(name.get(..7)?)?;
            let rest = &name[7..];
            if rest == ".json" {
                return Some(Rename::Manifest(manifest(g)));
            }
            let trainer = rest.strip_prefix('-')?.strip_suffix(".safetensors")?;
            return Some(Rename::Same(trainer_weights(g, trainer)));
        }
        if let Some(name) = key.strip_prefix(MATCHES) {
            let g = parse_gen(name.strip_suffix(".json")?)?;
            return Some(Rename::Matches(generation_matches(g)));
        }
        None
    }

    /// `name` as the one layout spells it: an old generation name becomes
    /// [`gen_name`], any other name stays.
    pub fn rename_player(name: &str) -> String {
        parse_gen(name).map_or_else(|| name.to_string(), gen_name)
    }
}

#[cfg(test)]
mod tests {
    use super::v1::{rename, Rename};
    use super::*;

    #[test]
    fn names_parse_back_as_numbers() {
        assert_eq!(gen_name(3), "gen-0003");
        assert_eq!(gen_name(12345), "gen-12345");
        for g in [0, 3, 9999, 10000, u32::MAX] {
            assert_eq!(parse_gen(&gen_name(g)), Some(g));
            assert_eq!(manifest_generation(&manifest(g)), Some(g));
        }
        assert_eq!(parse_gen("gen-"), None);
        assert_eq!(parse_gen("gen-12a"), None);
        assert_eq!(parse_gen("g000003"), None);
        assert_eq!(
            manifest_generation("networks/gen-0003-ab.safetensors"),
            None
        );
        assert_eq!(manifest_generation(&trainer_weights(3, "ab")), None);
        assert_eq!(
            generation_of_path(Path::new("r/games/gen-0012/w0001-ab-s000002.parquet")),
            Some(12)
        );
        assert_eq!(
            generation_of_path(Path::new("r/eval/gen-0007.parquet")),
            Some(7)
        );
        assert_eq!(
            generation_of_path(Path::new("r/shards/g000007/x.parquet")),
            None
        );
        assert_eq!(
            generation_of_path(Path::new(
                "r/games/gen-0004/6x5/selfplay-s1-p1-0000.parquet"
            )),
            Some(4)
        );
    }

    #[test]
    fn the_distributed_run_uses_the_loops_names() {
        assert_eq!(games_dir(3), "games/gen-0003");
        assert_eq!(
            worker_shard(3, 7, "ab", 31),
            "games/gen-0003/w0007-ab-s000031.parquet"
        );
        assert_eq!(network(3), "networks/gen-0003.safetensors");
        assert_eq!(manifest(3), "networks/gen-0003.json");
        assert_eq!(trainer_weights(3, "ab"), "networks/gen-0003-ab.safetensors");
        assert_eq!(eval_games(3), "eval/gen-0003.parquet");
        assert_eq!(generation_matches(3), "matches/gen-0003.json");
    }

    #[test]
    fn old_names_map_to_new_ones() {
        assert_eq!(
            rename("shards/g000003/w0001-ab-s000002.parquet"),
            Some(Rename::Same(
                "games/gen-0003/w0001-ab-s000002.parquet".into()
            ))
        );
        assert_eq!(
            rename("checkpoints/g000001.json"),
            Some(Rename::Manifest("networks/gen-0001.json".into()))
        );
        assert_eq!(
            rename("checkpoints/g000001-314ba4cd0044ff.safetensors"),
            Some(Rename::Same(
                "networks/gen-0001-314ba4cd0044ff.safetensors".into()
            ))
        );
        assert_eq!(
            rename("matches/g000002.json"),
            Some(Rename::Matches("matches/gen-0002.json".into()))
        );
        for kept in [
            "config.toml",
            "LATEST",
            "ratings.md",
            "games/gen-0001/x.parquet",
            "matches/gen-0002.json",
            "checkpoints/step-00000010.safetensors",
        ] {
            assert_eq!(rename(kept), None, "{kept}");
        }
        assert_eq!(v1::rename_player("g000002"), "gen-0002");
        assert_eq!(v1::rename_player("random"), "random");
    }
}
