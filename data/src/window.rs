//! The replay window: the newest N positions across many shards, handed to
//! the trainer in shuffled batches prepared on a background thread.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::error::DataError;
use crate::reader::{list_shards, ShardReader};
use crate::record::PositionRecord;

/// The seedable generator shuffling uses (reproducibility, not
/// cryptographic quality): the workspace's one SplitMix64, from `game`.
pub type SplitMix64 = piratechnics::SplitMix;

/// How batches are drawn from the window.
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// Positions per batch (the last batch of an epoch may be smaller).
    pub batch_size: usize,
    /// Seed of the shuffle and of the mirror choices; epoch `e` uses `seed + e`.
    pub seed: u64,
    /// File-mirror augmentation: each sample is marked mirrored with
    /// probability 1/2 (the rules are symmetric under a↔f).
    pub mirror: bool,
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
            mirror: false,
            prefetch: 4,
            epochs: None,
        }
    }
}

/// A batch: indices into the window's records, each with its mirror flag.
/// Cheap to build (no record is copied).
#[derive(Debug, Clone)]
pub struct Batch {
    records: Arc<Vec<PositionRecord>>,
    pub indices: Vec<u32>,
    /// `mirrored[i]`: apply the file mirror (a↔f) to sample `i` —
    /// `Position::mirror()` to the position and `Move::mirror()` to every
    /// move code — before encoding it.
    pub mirrored: Vec<bool>,
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

    /// The samples: each record with its mirror flag.
    pub fn iter(&self) -> impl Iterator<Item = (&PositionRecord, bool)> + '_ {
        self.indices
            .iter()
            .zip(&self.mirrored)
            .map(|(&i, &m)| (&self.records[i as usize], m))
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

/// The newest positions of a set of shards, held in memory.
pub struct ReplayWindow {
    records: Arc<Vec<PositionRecord>>,
    shards: Vec<PathBuf>,
    skipped: Vec<DataError>,
    capacity: usize,
}

impl ReplayWindow {
    /// Loads the newest `capacity` positions from the shards under `paths`
    /// (see [`list_shards`] for the order). A shard that cannot be read is
    /// skipped with a warning on stderr and recorded in [`Self::skipped`];
    /// only an unreadable path (e.g. a missing directory) is an error.
    pub fn load<P: AsRef<Path>>(paths: &[P], capacity: usize) -> Result<ReplayWindow, DataError> {
        let shards = list_shards(paths)?;
        let mut chunks: Vec<Vec<PositionRecord>> = Vec::new();
        let mut used = Vec::new();
        let mut skipped = Vec::new();
        let mut total = 0usize;
        for shard in shards.iter().rev() {
            if total >= capacity {
                break;
            }
            match ShardReader::open(&shard.path).and_then(|r| r.read_records()) {
                Ok(mut rows) => {
                    let want = capacity - total;
                    if rows.len() > want {
                        // Keep the newest rows of the oldest shard used.
                        rows.drain(..rows.len() - want);
                    }
                    total += rows.len();
                    chunks.push(rows);
                    used.push(shard.path.clone());
                }
                Err(e) => {
                    eprintln!("warning: skipping shard {e}");
                    skipped.push(e);
                }
            }
        }
        // Oldest first, so records are in the order they were written.
        chunks.reverse();
        used.reverse();
        let records: Vec<PositionRecord> = chunks.into_iter().flatten().collect();
        Ok(ReplayWindow {
            records: Arc::new(records),
            shards: used,
            skipped,
            capacity,
        })
    }

    /// Builds a window from records already in memory (tests, tools).
    pub fn from_records(records: Vec<PositionRecord>) -> ReplayWindow {
        let capacity = records.len();
        ReplayWindow {
            records: Arc::new(records),
            shards: Vec::new(),
            skipped: Vec::new(),
            capacity,
        }
    }

    /// Adds the rows of shards that appeared under `paths` since the window
    /// was loaded (oldest first) and drops the oldest rows beyond the
    /// capacity. Shards already held or already skipped are not read again.
    /// Returns the number of rows added. Batch streams already running keep
    /// the rows they started with.
    pub fn refresh<P: AsRef<Path>>(&mut self, paths: &[P]) -> Result<usize, DataError> {
        let known: std::collections::HashSet<PathBuf> = self
            .shards
            .iter()
            .cloned()
            .chain(self.skipped.iter().map(|e| e.path.clone()))
            .collect();
        let mut records: Vec<PositionRecord> = self.records.as_ref().clone();
        let mut added = 0;
        for shard in list_shards(paths)? {
            if known.contains(&shard.path) {
                continue;
            }
            match ShardReader::open(&shard.path).and_then(|r| r.read_records()) {
                Ok(rows) => {
                    added += rows.len();
                    records.extend(rows);
                    self.shards.push(shard.path);
                }
                Err(e) => {
                    eprintln!("warning: skipping shard {e}");
                    self.skipped.push(e);
                }
            }
        }
        if records.len() > self.capacity {
            records.drain(..records.len() - self.capacity);
        }
        self.records = Arc::new(records);
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
            let mut order: Vec<u32> = (0..n as u32).collect();
            let mut epoch = 0u64;
            while options.epochs.is_none_or(|e| epoch < e) {
                let mut rng = SplitMix64::new(options.seed.wrapping_add(epoch));
                rng.shuffle(&mut order);
                for chunk in order.chunks(batch_size) {
                    let mirrored = chunk
                        .iter()
                        .map(|_| options.mirror && rng.next_u64() & 1 == 1)
                        .collect();
                    let batch = Batch {
                        records: records.clone(),
                        indices: chunk.to_vec(),
                        mirrored,
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
