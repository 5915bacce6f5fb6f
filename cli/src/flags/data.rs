//! The flags of `triad data` (its `run` is `src/cmd/data.rs`).

use super::GenerationsArg;
use std::ops::RangeInclusive;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub verb: Verb,
}

#[derive(clap::Subcommand)]
pub enum Verb {
    /// Summarise shards: games, positions, results, mean game length, schema version.
    #[command(
        after_help = "A run directory of `triad loop` (or its games/ folder) gives its self-play\nshards, games/gen-NNNN/*.parquet, in generation order; its evaluation games\n(eval/gen-NNNN.parquet) are read only when named (`RUN/eval`).\n\nExamples:\n  triad data info runs/quickstart\n  triad data info runs/quickstart --generations 8..\n  triad data info runs/demo/shards\n  triad data info a.parquet b.parquet --json"
    )]
    Info(InfoArgs),
    /// Write one game in the inventor's notation (readable by `triad replay`).
    #[command(
        after_help = "The game is rebuilt from its rows: ply 0's TFEN is the start and each\nrow's chosen move is played in turn. Lines are `N)\\tWHITE,\\tBLACK;`.\nThe header names the game and its start position; `triad replay FILE`\nreads both from it.\n\nExample:\n  triad data export runs/demo/shards --game 42 --out game42.txt"
    )]
    Export(ExportArgs),
    /// Turn game records from elsewhere into a shard (`source = "imported"`, no search columns).
    #[command(
        after_help = "Every game is replayed through the rules as it is read; a record that does\nnot replay is reported with its file and line and left out, the rest kept.\nThe result is the record's (a resignation, an export header's result) or the\nrules'. Formats:\n  record  the game's own notation, as `triad replay` reads it: the inventor's\n          notation with its commentary, the numbered pairs of the other games,\n          the records `triad data export` writes (several in one file, each\n          after its `Game N (...)` header)\n  lines   one game a line: Connect Four's move strings (`4453...`; the first\n          word, so Pons's `.moves` files read as they are)\nTrain on the shard alone or beside self-play: `triad train --data RUN imported.parquet`\n(docs/data.md).\n\nExamples:\n  triad data import games/piratechnics/vectors/sample-game-1.txt --out inventor.parquet\n  triad data import --game connect4 --format lines games.txt --out c4.parquet --json"
    )]
    Import(ImportArgs),
    /// Rename a run written in the old layout of distributed runs to the one layout.
    #[command(
        after_help = "A distributed run written before the one layout (docs/scale-out.md) has\nshards/gNNNNNN/, checkpoints/gNNNNNN.json and -<trainer>.safetensors,\nmatches/gNNNNNN.json; the trainer, the workers and the readers refuse it.\nThis renames each object to games/gen-NNNN/, networks/gen-NNNN.json and\n-<trainer>.safetensors, matches/gen-NNNN.json (a new object by put-if-absent,\nthen the old one deleted; manifests after the weights they name), rewrites\nLATEST and refits ratings.md. Stop the run's trainer and workers first.\nRunning it again does nothing, and finishes an upgrade that was killed.\n\nExamples:\n  triad data upgrade runs/r1\n  triad data upgrade s3://triad-runs/c4-01 --json"
    )]
    Upgrade(UpgradeArgs),
    /// Replay every game of the shards through its rules and check every row.
    #[command(
        after_help = "Each game is replayed from its first row; every row's position text, side\nto move, hash, repetition count and legal moves must be the replay's and\nits chosen move legal; plies in order and complete; game ids unique across\nall the shards given; visits, policy target, root value and W/D/L\nconsistent; result, termination and length the same on every row and what\nthe rules say at the last ply; the file's game, variant and schema those of\nits rows. Prints each fault (file, game, ply) and a summary; exit 1 on any\nfault, 2 when the paths hold no shard (docs/data.md, \"Verifying shards\").\n\nExamples:\n  triad data verify runs/quickstart\n  triad data verify s3://triad-runs/c4-01 --generations 3..\n  triad data verify a.parquet b.parquet --json"
    )]
    Verify(VerifyArgs),
    /// Sample positions from games: up to N distinct positions of each ply, seeded.
    #[command(
        after_help = "Reads the position of every row (any game), keeps the distinct ones of each\nply in --plies, leaves out those listed in --exclude files (each line's first\nword: Pons's files as they are), and draws up to --per-ply of each ply with\nthe seed. Prints one position a line (`-` for an empty text), ply by ply, or\nwrites them to --out. This is how a test set is drawn from games nothing was\ntuned on; label it with `triad solve --file F --columns` (docs/data.md,\n\"Sampling positions\"; scripts/connect4-heldout.sh).\n\nExamples:\n  triad data positions games/ --per-ply 80 --plies 4..41 --exclude benchmarks/connect4/*.moves --out pos.txt\n  triad data positions runs/c4 --per-ply 10 --json"
    )]
    Positions(PositionsArgs),
}

#[derive(clap::Args)]
pub struct PositionsArgs {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards, not eval/; name `RUN/eval` for its match games).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Positions at most of each ply.
    #[arg(long, value_name = "N")]
    pub per_ply: usize,
    /// The plies sampled: `A..B` (both included), `A..`, `..B` or `N`.
    #[arg(long, default_value = "0..", value_parser = parse_plies)]
    pub plies: std::ops::RangeInclusive<u32>,
    /// Files of positions never to sample (e.g. another test set's).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub exclude: Vec<PathBuf>,
    /// Seed of the draw: the same games and seed give the same positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the positions here (a temporary name, then renamed) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print one JSON object (counts per ply and the positions) instead.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Shard files, directories of shards, run directories (their self-play
    /// shards, not eval/) or run URLs (s3://, gs://, az://, file://).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub generations: GenerationsArg,
    /// Print one JSON object (summary and every fault) instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct InfoArgs {
    /// Shard files, directories of shards (`*.parquet`; `*.tmp` is ignored),
    /// or run directories (their self-play shards games/gen-NNNN/*.parquet,
    /// not their evaluation games in eval/).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub generations: GenerationsArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards, not eval/).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The game id (the `game_id` column).
    #[arg(long)]
    pub game: u64,
    /// Write the record here instead of stdout (written to a temporary name, then renamed).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ImportArgs {
    /// Record files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The game, `NAME[/VARIANT]` (default: the one the first file's
    /// `triad data export` header names, else piratechnics).
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// How the files write their games: `record` or `lines`.
    #[arg(long, default_value = "record", value_parser = import_format)]
    pub format: ImportFormat,
    /// The first game's id; the next games count up from it (give each
    /// import its own range when their shards are used together).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FIRST_ID)]
    pub first_id: u64,
    /// The shard to write (`NAME.parquet`; written under a temporary name,
    /// then renamed; an existing file is refused).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct UpgradeArgs {
    /// The run: a URL (s3://, gs://, az://, file://) or a path.
    pub run: String,
    /// Print one JSON object (objects renamed, finished; LATEST, ratings rewritten).
    #[arg(long)]
    pub json: bool,
}

/// `--first-id`'s default (`data::import::DEFAULT_FIRST_ID`; a test
/// checks they agree): far above the ids a run's self-play gives.
pub const DEFAULT_FIRST_ID: u64 = 1_000_000_000_000;

/// `--format` of `triad data import` (the command maps it to
/// `data::import::ImportFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    /// The game's own notation, as `triad replay` reads it.
    Record,
    /// One game a line.
    Lines,
}

fn import_format(s: &str) -> Result<ImportFormat, ImportFormatError> {
    match s {
        "record" => Ok(ImportFormat::Record),
        "lines" => Ok(ImportFormat::Lines),
        _ => Err(ImportFormatError {
            text: s.to_string(),
        }),
    }
}

/// A ply range (`--plies`) that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PliesError {
    /// Not of the form `N`, `A..B`, `A..` or `..B`.
    #[error("\"{text}\" is not a ply range (N, A..B, A.. or ..B)")]
    NotARange { text: String },
    /// `A..B` with `A` after `B`.
    #[error("\"{text}\": the range is empty")]
    Empty { text: String },
}

/// Parses a ply range: `N`, `A..B` (both included), `A..` or `..B`.
pub fn parse_plies(text: &str) -> Result<RangeInclusive<u32>, PliesError> {
    let num = |t: &str, default: u32| -> Result<u32, PliesError> {
        if t.is_empty() {
            return Ok(default);
        }
        t.parse().map_err(|_| PliesError::NotARange {
            text: text.to_string(),
        })
    };
    let range = match text.split_once("..") {
        None => {
            let n = num(text, 0)?;
            n..=n
        }
        Some((a, b)) => num(a, 0)?..=num(b.trim_start_matches('='), u32::MAX)?,
    };
    if range.is_empty() {
        return Err(PliesError::Empty {
            text: text.to_string(),
        });
    }
    Ok(range)
}

/// A `--format` of `triad data import` that is neither `record` nor `lines`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not record or lines")]
pub struct ImportFormatError {
    /// The text given.
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_plies("4..41"), Ok(4..=41));
        assert_eq!(parse_plies("4..=41"), Ok(4..=41));
        assert_eq!(parse_plies("7"), Ok(7..=7));
        assert_eq!(parse_plies("9.."), Ok(9..=u32::MAX));
        assert_eq!(parse_plies("..3"), Ok(0..=3));
        assert!(parse_plies("5..2")
            .unwrap_err()
            .to_string()
            .contains("empty"));
        assert!(parse_plies("a..2")
            .unwrap_err()
            .to_string()
            .contains("not a ply range"));
    }
}
