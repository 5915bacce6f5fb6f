//! The replay window: the newest N positions across many shards, handed to
//! the trainer in shuffled batches prepared on a background thread.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

use game::GameTag;

use crate::error::DataError;
use crate::reader::{list_shards, ShardReader};
use crate::record::{PositionRecord, ShardGame};

/// The seedable generator shuffling uses (reproducibility, not
/// cryptographic quality): the workspace's one SplitMix64, from `game`.
pub type SplitMix64 = game::SplitMix;

/// How batches are drawn from the window.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// Positions per batch (the last batch of an epoch may be smaller).
    pub batch_size: usize,
    /// Seed of the shuffle and of the symmetry choices; epoch `e` uses
    /// `seed + e`.
    pub seed: u64,
    /// Symmetry augmentation: each sample is given a symmetry drawn
    /// uniformly from `0..symmetries` (0 is the identity). Pass the game's
    /// `game::Game::symmetries()` to augment (PiRaTeKnIcS: 2, the file
    /// mirror a↔f, on boards symmetric under it), 1 (the default) not to.
    pub symmetries: usize,
    /// Batches prepared ahead on the background thread.
    pub prefetch: usize,
    /// Epochs to run (`None`: endless; the consumer stops by dropping the stream).
    pub epochs: Option<u64>,
}

impl Default for WindowOptions {
    fn default() -> Self {
        WindowOptions {
            batch_size: 256,
            seed: 0,
            symmetries: 1,
            prefetch: 4,
            epochs: None,
        }
    }
}

/// A batch: indices into the window's records, each with its symmetry.
/// Cheap to build (no record is copied).
#[derive(Debug, Clone)]
pub struct Batch {
    records: Arc<Vec<PositionRecord>>,
    pub indices: Vec<u32>,
    /// `symmetry[i]`: apply symmetry `symmetry[i]` of the game to sample `i`
    /// (`GameState::transform` to the position, `GameState::transform_move`
    /// to every move code, or `PositionRecord::transformed`) before
    /// encoding it; 0 is the identity.
    pub symmetry: Vec<u8>,
    /// Epoch this batch belongs to (0-based).
    pub epoch: u64,
}

impl Batch {
    pub fn len(&self) -> usize {
        self.indices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The samples: each record with its symmetry (0: the identity).
    pub fn iter(&self) -> impl Iterator<Item = (&PositionRecord, usize)> + '_ {
        self.indices
            .iter()
            .zip(&self.symmetry)
            .map(|(&i, &s)| (&self.records[i as usize], s as usize))
    }

    /// The samples as [`Batch::iter`] gives them, each with up to `ahead`
    /// rows that follow it in the window. A shard holds each game's rows
    /// together in ply order, so these are usually the game's next
    /// positions; the caller checks `game_id` and `ply` before using them
    /// (the window's edge or a shard's end cuts a game short).
    pub fn iter_ahead(
        &self,
        ahead: usize,
    ) -> impl Iterator<Item = (&PositionRecord, usize, &[PositionRecord])> + '_ {
        self.indices
            .iter()
            .zip(&self.symmetry)
            .map(move |(&i, &s)| {
                let i = i as usize;
                let end = (i + 1 + ahead).min(self.records.len());
                (&self.records[i], s as usize, &self.records[i + 1..end])
            })
    }
}

/// Batches prepared by a background thread, delivered in order. Dropping
/// the stream stops the thread.
pub struct Prefetch<T> {
    receiver: Option<Receiver<T>>,
    thread: Option<JoinHandle<()>>,
}

impl<T> Iterator for Prefetch<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        self.receiver.as_ref()?.recv().ok()
    }
}

impl<T> Drop for Prefetch<T> {
    fn drop(&mut self) {
        // Dropping the receiver makes the producer's next send fail, so it stops.
        self.receiver.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The newest positions of a set of shards, held in memory. All of one game
/// and variant: a shard of another is an error, not a skipped file.
pub struct ReplayWindow {
    records: Arc<Vec<PositionRecord>>,
    shards: Vec<PathBuf>,
    skipped: Vec<DataError>,
    capacity: usize,
    /// The game and variant of the rows: the expected one, else the first
    /// shard's.
    game: Option<ShardGame>,
    /// Whether `game` was given by the caller (the error then says "this
    /// run plays").
    expected: bool,
}

impl ReplayWindow {
    /// Loads the newest `capacity` positions from the shards under `paths`
    /// (see [`list_shards`] for the order). A shard that cannot be read is
    /// skipped with a warning on stderr and recorded in [`Self::skipped`];
    /// an unreadable path (e.g. a missing directory) is an error, and so is
    /// a shard of another game or variant than the newest shard read.
    pub fn load<P: AsRef<Path>>(paths: &[P], capacity: usize) -> Result<ReplayWindow, DataError> {
        ReplayWindow::load_with(paths, capacity, None)
    }

    /// As [`ReplayWindow::load`] for a run that plays `game`: a shard of
    /// another game or variant is an error naming the file and both games
    /// ("shard is piratechnics/8x8; this run plays piratechnics/standard").
    pub fn load_for<P: AsRef<Path>>(
        paths: &[P],
        capacity: usize,
        game: &GameTag,
    ) -> Result<ReplayWindow, DataError> {
        ReplayWindow::load_with(paths, capacity, Some(ShardGame::from(game)))
    }

    fn load_with<P: AsRef<Path>>(
        paths: &[P],
        capacity: usize,
        expected: Option<ShardGame>,
    ) -> Result<ReplayWindow, DataError> {
        let shards = list_shards(paths)?;
        let mut window = ReplayWindow {
            records: Arc::new(Vec::new()),
            shards: Vec::new(),
            skipped: Vec::new(),
            capacity,
            expected: expected.is_some(),
            game: expected,
        };
        let mut chunks: Vec<Vec<PositionRecord>> = Vec::new();
        let mut used = Vec::new();
        let mut total = 0usize;
        for shard in shards.iter().rev() {
            if total >= capacity {
                break;
            }
            if let Some(mut rows) = window.read_shard(&shard.path)? {
                let want = capacity - total;
                if rows.len() > want {
                    // Keep the newest rows of the oldest shard used.
                    rows.drain(..rows.len() - want);
                }
                total += rows.len();
                chunks.push(rows);
                used.push(shard.path.clone());
            }
        }
        // Oldest first, so records are in the order they were written.
        chunks.reverse();
        used.reverse();
        window.records = Arc::new(chunks.into_iter().flatten().collect());
        window.shards = used;
        Ok(window)
    }

    /// Reads one shard's rows: `Ok(None)` when it cannot be read (skipped
    /// with a warning), an error when it is of another game.
    fn read_shard(&mut self, path: &Path) -> Result<Option<Vec<PositionRecord>>, DataError> {
        let reader = match ShardReader::open(path) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("warning: skipping shard {e}");
                self.skipped.push(e);
                return Ok(None);
            }
        };
        match (&self.game, reader.game()) {
            (Some(want), Some(g)) if want != g => {
                let message = if self.expected {
                    format!("shard is {g}; this run plays {want}")
                } else {
                    format!("shard is {g}; the window holds {want} shards")
                };
                return Err(DataError::new(path, message));
            }
            (None, Some(g)) => self.game = Some(g.clone()),
            _ => {}
        }
        match reader.read_records() {
            Ok(rows) => Ok(Some(rows)),
            Err(e) => {
                eprintln!("warning: skipping shard {e}");
                self.skipped.push(e);
                Ok(None)
            }
        }
    }

    /// Builds a window from records already in memory (tests, tools). Its
    /// game is the first record's.
    pub fn from_records(records: Vec<PositionRecord>) -> ReplayWindow {
        let capacity = records.len();
        ReplayWindow {
            game: records.first().map(|r| r.shard_game()),
            expected: false,
            records: Arc::new(records),
            shards: Vec::new(),
            skipped: Vec::new(),
            capacity,
        }
    }

    /// The game and variant of the window's rows (`None` while it has read
    /// no shard and was given none).
    pub fn game(&self) -> Option<&ShardGame> {
        self.game.as_ref()
    }

    /// Adds the rows of shards that appeared under `paths` since the window
    /// was loaded (oldest first) and drops the oldest rows beyond the
    /// capacity. Shards already held or already skipped are not read again;
    /// a new shard of another game or variant is an error (and the window is
    /// left as it was). Returns the number of rows added. Batch streams
    /// already running keep the rows they started with.
    pub fn refresh<P: AsRef<Path>>(&mut self, paths: &[P]) -> Result<usize, DataError> {
        let known: std::collections::HashSet<PathBuf> = self
            .shards
            .iter()
            .cloned()
            .chain(self.skipped.iter().map(|e| e.path.clone()))
            .collect();
        let mut new_rows: Vec<PositionRecord> = Vec::new();
        let mut new_shards = Vec::new();
        let game_before = self.game.clone();
        for shard in list_shards(paths)? {
            if known.contains(&shard.path) {
                continue;
            }
            match self.read_shard(&shard.path) {
                Ok(Some(rows)) => {
                    new_rows.extend(rows);
                    new_shards.push(shard.path);
                }
                Ok(None) => {}
                Err(e) => {
                    self.game = game_before;
                    return Err(e);
                }
            }
        }
        let added = new_rows.len();
        if added > 0 {
            let mut records: Vec<PositionRecord> = self.records.as_ref().clone();
            records.extend(new_rows);
            if records.len() > self.capacity {
                records.drain(..records.len() - self.capacity);
            }
            self.records = Arc::new(records);
        }
        self.shards.extend(new_shards);
        Ok(added)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn records(&self) -> &[PositionRecord] {
        &self.records
    }

    /// The shards the window holds rows of, oldest first.
    pub fn shards(&self) -> &[PathBuf] {
        &self.shards
    }

    /// Shards that could not be read, with the reason.
    pub fn skipped(&self) -> &[DataError] {
        &self.skipped
    }

    /// Shuffled batches, built on a background thread.
    pub fn batches(&self, options: &WindowOptions) -> Prefetch<Batch> {
        self.batches_with(options, |b: Batch| b)
    }

    /// Shuffled batches passed through `prepare` on the background thread —
    /// the trainer encodes its input tensors there, so the training step
    /// never waits for data. At most `options.prefetch` prepared batches
    /// wait in the channel.
    pub fn batches_with<T, F>(&self, options: &WindowOptions, mut prepare: F) -> Prefetch<T>
    where
        T: Send + 'static,
        F: FnMut(Batch) -> T + Send + 'static,
    {
        let (sender, receiver) = sync_channel(options.prefetch.max(1));
        let records = self.records.clone();
        let options = options.clone();
        let thread = std::thread::spawn(move || {
            let n = records.len();
            if n == 0 {
                return;
            }
            let batch_size = options.batch_size.max(1);
            let symmetries = options.symmetries.clamp(1, 256);
            let mut order: Vec<u32> = (0..n as u32).collect();
            let mut epoch = 0u64;
            while options.epochs.is_none_or(|e| epoch < e) {
                let mut rng = SplitMix64::new(options.seed.wrapping_add(epoch));
                rng.shuffle(&mut order);
                for chunk in order.chunks(batch_size) {
                    let symmetry = chunk
                        .iter()
                        .map(|_| {
                            if symmetries > 1 {
                                rng.below(symmetries as u64) as u8
                            } else {
                                0
                            }
                        })
                        .collect();
                    let batch = Batch {
                        records: records.clone(),
                        indices: chunk.to_vec(),
                        symmetry,
                        epoch,
                    };
                    if sender.send(prepare(batch)).is_err() {
                        return;
                    }
                }
                epoch += 1;
            }
        });
        Prefetch {
            receiver: Some(receiver),
            thread: Some(thread),
        }
    }
}
