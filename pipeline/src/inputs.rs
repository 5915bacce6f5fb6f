//! The inputs of the commands that read runs: shard paths with every run
//! URL replaced by its local cache folder (with a progress bar while many
//! shards download), the shards of a range of generations with a one-line
//! error when there are none, and a run in a store pulled into its local
//! mirror. Errors are [`InputError`]s (exit 2) naming the flag or path.

use std::path::PathBuf;

use crate::scale::cache::{self, Fetching};
use crate::scale::mirror::Mirror;
use crate::{Error, InputError};
use data::{list_shards, list_shards_in, Generations, ShardFile};
use indicatif::{ProgressBar, ProgressStyle};

/// Lists the shards under `paths` (run URLs fetched into the local cache
/// first; of the generations in `range`, if given), as a bad-input error
/// when a path is missing or none is found.
pub fn shards_of(paths: &[PathBuf], range: Option<&Generations>) -> Result<Vec<ShardFile>, Error> {
    let input = |e: data::DataError| Error::from(InputError::Shards(e));
    let local = localize(paths)?;
    let paths = local.as_slice();
    let shards = match range {
        None => list_shards(paths).map_err(input)?,
        Some(r) => list_shards_in(paths, r).map_err(|source| InputError::Generations {
            range: r.to_string(),
            source,
        })?,
    };
    if shards.is_empty() {
        let places = paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::from(match range {
            None => InputError::NoShards { places },
            Some(r) => {
                let held: Vec<u32> = list_shards(paths)
                    .map_err(input)?
                    .iter()
                    .filter_map(|s| s.generation)
                    .collect();
                match (held.iter().min(), held.iter().max()) {
                    (Some(&first), Some(&last)) => InputError::NoShardsOfGenerations {
                        range: r.to_string(),
                        places,
                        first,
                        last,
                    },
                    _ => InputError::NoShardsForGenerations {
                        range: r.to_string(),
                        places,
                    },
                }
            }
        }));
    }
    Ok(shards)
}

/// `paths` with every run URL replaced by its local cache folder
/// ([`cache::localize`]), with a progress bar while many shards download
/// and a line on stderr for each run fetched.
pub fn localize(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut bar = ProgressBar::hidden();
    cache::localize(paths, &mut |event| match event {
        Fetching::Start { todo, .. } => {
            if todo >= 20 {
                bar = ProgressBar::new(todo as u64);
                bar.set_style(
                    ProgressStyle::with_template(
                        "fetching {bar:30} {pos}/{len} shards  {eta} left",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
            }
        }
        Fetching::Shard => bar.inc(1),
        Fetching::Done { url, shards, cache } => {
            bar.finish_and_clear();
            bar = ProgressBar::hidden();
            eprintln!("{url}: {shards} shards in {}", cache.display());
        }
    })
}

/// Opens the run at `url` (`--run`) and pulls it into its local mirror
/// ([`Mirror`]), saying so on stderr.
pub fn pull_mirror(url: &str) -> Result<Mirror, Error> {
    let store = store::Store::open(url).map_err(|source| InputError::Store {
        flag: "--run",
        source,
    })?;
    let local = cache::cache_dir(url).join("run");
    let (mirror, pulled) = Mirror::pull(store, local)?;
    eprintln!(
        "{url}: the run is mirrored in {} ({} objects, {} fetched)",
        mirror.local.display(),
        pulled.objects,
        pulled.fetched
    );
    Ok(mirror)
}

/// The shards under `data` checked against `game`'s rules before a
/// training run reads them (`triad train --data`; [`data::verify`], game
/// ids unique across them). A shard that fails is refused, as bad input
/// naming the file and its first fault, or, with `skip_bad`, left out and
/// said on stderr. Returns what to train on: `data` itself when every
/// shard passed, else the sound shards' files, in the listing's order.
pub fn verified_data<G: game::Game>(
    game: &G,
    data: Vec<PathBuf>,
    skip_bad: bool,
) -> Result<Vec<PathBuf>, Error> {
    let shards = list_shards(&data).map_err(InputError::Shards)?;
    let bar = if shards.len() >= 20 {
        crate::bar_with(
            shards.len() as u64,
            "verifying {bar:30} {pos}/{len} shards  {eta} left",
        )
    } else {
        ProgressBar::hidden()
    };
    let mut verifier = data::verify::Verifier::new(game);
    let mut ids = data::verify::GameIds::default();
    let (mut good, mut bad) = (Vec::with_capacity(shards.len()), 0usize);
    for s in &shards {
        let check = verifier.shard(&s.path, &ids);
        bar.inc(1);
        match check.first_fault() {
            None => {
                ids.add(&s.path, &check.checked.ids);
                good.push(s.path.clone());
            }
            Some(fault) if skip_bad => {
                bar.suspend(|| {
                    eprintln!(
                        "warning: skipping {fault} ({} fault(s) in the file; --skip-bad-shards)",
                        check.checked.faults.len()
                    )
                });
                bad += 1;
            }
            Some(_) => {
                bar.finish_and_clear();
                // `first_fault` is the first of the check's faults.
                return Err(InputError::BadShard {
                    path: s.path.clone(),
                    fault: Box::new(check.checked.faults[0].clone()),
                }
                .into());
            }
        }
    }
    bar.finish_and_clear();
    Ok(if bad == 0 { data } else { good })
}

/// The record files of `triad data import`, read, and the game they are
/// of ([`read_imports`]).
pub struct Imports {
    /// The game of the `--game` flag, else the one the first file's
    /// `triad data export` header names, else [`registry::DEFAULT_GAME`].
    pub game: registry::AnyGame,
    /// Each file's name and text.
    texts: Vec<(String, String)>,
}

/// `triad data import`, first part: reads the record `files` and picks
/// their game (a `NAME[/VARIANT]` flag; default: the game the first
/// file's `triad data export` header names, else
/// [`registry::DEFAULT_GAME`]). An existing `out`, a file that cannot be
/// read or a bad game are bad input.
pub fn read_imports(
    files: &[PathBuf],
    game: Option<&str>,
    out: &std::path::Path,
) -> Result<Imports, Error> {
    if out.exists() {
        return Err(InputError::OutExists {
            path: out.to_path_buf(),
        }
        .into());
    }
    let mut texts = Vec::with_capacity(files.len());
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|source| InputError::Read {
            path: f.clone(),
            source,
        })?;
        texts.push((f.display().to_string(), text));
    }
    let name = match game {
        Some(g) => g.to_string(),
        None => texts
            .first()
            .and_then(|(_, t)| data::header_game(t))
            .unwrap_or_else(|| registry::DEFAULT_GAME.to_string()),
    };
    let game = registry::from_flag(&name)?;
    Ok(Imports { game, texts })
}

impl Imports {
    /// Writes the games of `game` (the files', [`Imports::game`]) into the
    /// new shard `out` ([`data::import::import`]), calling `on_game` after
    /// each record read. No record at all or a shard that cannot be
    /// written are bad input; every record refused is a failed check
    /// ([`Error::Failed`]).
    pub fn import<G: game::Game>(
        &self,
        game: &G,
        options: &data::import::ImportOptions,
        out: &std::path::Path,
        on_game: impl FnMut(),
    ) -> Result<(data::import::ImportReport, data::ShardSummary), Error> {
        use data::import::{import, ImportInput};
        let inputs: Vec<ImportInput> = (self.texts.iter())
            .map(|(name, text)| ImportInput { name, text })
            .collect();
        import(game, &inputs, options, out, on_game).map_err(|e| InputError::Import(e).into())
    }
}
