//! The ship-and-crew encoding: positions into input planes, legal moves into
//! the per-move arrays the policy head scores.
//!
//! Everything is from the side to move's point of view: for Black the ranks
//! are flipped and the colours swapped, so one network plays both sides and
//! the standard start looks the same to either player. The plane layout is
//! listed in `docs/model.md`; changing it means bumping [`ENCODING_VERSION`],
//! which makes old checkpoints refuse to load instead of silently misreading
//! their inputs.

use piratechnics::{cell_index, encode_planes, encode_move_features, Move, Position, MOVE_FEATURES, PLANES};
pub use piratechnics::ENCODING_VERSION;
use ndarray::{Array4, ArrayView2, ArrayView3, ArrayView4};
use tch::{Device, Tensor};

/// The file mirror (a↔f) of a training sample: the mirrored position and
/// its moves mirrored element by element, so arrays aligned with the moves
/// (visit counts, policy targets) stay aligned. The rules are symmetric under
/// this mirror (the start position is not), so the result is another valid
/// sample for variants where `Variant::mirror_symmetric` holds.
pub fn mirror_sample(pos: &Position, moves: &[Move]) -> (Position, Vec<Move>) {
    let v = pos.variant();
    (pos.mirror(), moves.iter().map(|m| m.mirror(v)).collect())
}

/// One position to encode: the position and how many times it has occurred
/// in its game, this time included (see [`encode_planes`]).
pub type Input<'a> = (&'a Position, u8);

/// Encodes a batch into a fresh `[B, PLANES, height, width]` array. For the
/// hot path use an [`Encoder`], which reuses its buffers.
pub fn encode_batch(inputs: &[Input]) -> Array4<f32> {
    let mut enc = Encoder::new();
    for &(pos, reps) in inputs {
        enc.push_planes_only(pos, reps);
    }
    enc.planes().to_owned()
}

/// Reusable buffers for encoding batches: after the first few batches it
/// allocates nothing. Use: [`clear`](Encoder::clear), [`push`](Encoder::push)
/// each position, [`finish`](Encoder::finish), then read the arrays or
/// [`to_tensors`](Encoder::to_tensors).
///
/// Moves are stored compactly while pushing (the largest legal-move count is
/// not known until the last position) and padded by `finish`.
#[derive(Default)]
pub struct Encoder {
    height: usize,
    width: usize,
    count: usize,
    planes: Vec<f32>,
    /// Legal moves of all positions, in `Position::legal_moves` order.
    moves: Vec<Move>,
    /// `offsets[i]..offsets[i+1]` are position i's moves.
    offsets: Vec<usize>,
    /// Compact per-move arrays, parallel to `moves`.
    cell_from: Vec<i64>,
    cell_to: Vec<i64>,
    features: Vec<f32>,
    /// Padded to `[count, max_moves]` by `finish`.
    max_moves: usize,
    pad_from: Vec<i64>,
    pad_to: Vec<i64>,
    pad_features: Vec<f32>,
    pad_mask: Vec<bool>,
    scratch: Vec<Move>,
    /// Whether the padded arrays match the pushed positions.
    finished: bool,
}

impl Encoder {
    pub fn new() -> Encoder {
        Encoder {
            offsets: vec![0],
            ..Default::default()
        }
    }

    /// Empties the batch, keeping the buffers.
    pub fn clear(&mut self) {
        self.count = 0;
        self.planes.clear();
        self.moves.clear();
        self.offsets.clear();
        self.offsets.push(0);
        self.cell_from.clear();
        self.cell_to.clear();
        self.features.clear();
        self.max_moves = 0;
        self.finished = false;
    }

    /// Positions in the batch.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn push_planes_only(&mut self, pos: &Position, repetitions: u8) {
        let v = pos.variant();
        let (h, w) = (v.height as usize, v.width as usize);
        if self.count == 0 {
            self.height = h;
            self.width = w;
        }
        assert!(
            (h, w) == (self.height, self.width),
            "one batch holds one board size"
        );
        let n = PLANES * h * w;
        let start = self.planes.len();
        self.planes.resize(start + n, 0.0);
        encode_planes(pos, repetitions, &mut self.planes[start..]);
        self.count += 1;
    }

    /// Adds a position; its legal moves are generated here, in
    /// `Position::legal_moves` order.
    pub fn push(&mut self, pos: &Position, repetitions: u8) {
        let mut scratch = std::mem::take(&mut self.scratch);
        pos.legal_moves(&mut scratch);
        self.push_with_moves(pos, repetitions, &scratch);
        self.scratch = scratch;
    }

    /// Adds a position with a given list of its moves (e.g. the legal moves
    /// stored with a training sample), scored in that order.
    pub fn push_with_moves(&mut self, pos: &Position, repetitions: u8, moves: &[Move]) {
        self.push_planes_only(pos, repetitions);
        let v = pos.variant();
        let side = pos.side();
        for &m in moves {
            self.moves.push(m);
            self.cell_from.push(cell_index(v, side, m.from()) as i64);
            self.cell_to.push(cell_index(v, side, m.to()) as i64);
            let start = self.features.len();
            self.features.resize(start + MOVE_FEATURES, 0.0);
            encode_move_features(v, side, m, &mut self.features[start..]);
        }
        self.offsets.push(self.moves.len());
        self.max_moves = self.max_moves.max(moves.len());
        self.finished = false;
    }

    /// Pads the move arrays to the batch's largest legal-move count (at
    /// least 1, so a batch of positions without moves still has a shape).
    pub fn finish(&mut self) {
        let b = self.count;
        let m = self.max_moves.max(1);
        self.max_moves = m;
        self.pad_from.clear();
        self.pad_from.resize(b * m, 0);
        self.pad_to.clear();
        self.pad_to.resize(b * m, 0);
        self.pad_mask.clear();
        self.pad_mask.resize(b * m, false);
        self.pad_features.clear();
        self.pad_features.resize(b * m * MOVE_FEATURES, 0.0);
        for i in 0..b {
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            let row = i * m;
            self.pad_from[row..row + hi - lo].copy_from_slice(&self.cell_from[lo..hi]);
            self.pad_to[row..row + hi - lo].copy_from_slice(&self.cell_to[lo..hi]);
            self.pad_mask[row..row + hi - lo].fill(true);
            self.pad_features[row * MOVE_FEATURES..(row + hi - lo) * MOVE_FEATURES]
                .copy_from_slice(&self.features[lo * MOVE_FEATURES..hi * MOVE_FEATURES]);
        }
        self.finished = true;
    }

    /// The padded move count M (after `finish`).
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }
    /// Position i's moves, in the order their probabilities come back.
    pub fn moves(&self, i: usize) -> &[Move] {
        &self.moves[self.offsets[i]..self.offsets[i + 1]]
    }
    /// `offsets[i]..offsets[i+1]` index position i's moves in a flat list.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// `[B, PLANES, height, width]`.
    pub fn planes(&self) -> ArrayView4<'_, f32> {
        ArrayView4::from_shape((self.count, PLANES, self.height, self.width), &self.planes)
            .expect("planes buffer matches its shape")
    }
    /// `[B, M]` cell index (see [`cell_index`]) of each move's origin; 0 in padding.
    pub fn move_from(&self) -> ArrayView2<'_, i64> {
        ArrayView2::from_shape((self.count, self.max_moves), &self.pad_from).expect("shape")
    }
    /// `[B, M]` cell index of each move's destination; 0 in padding.
    pub fn move_to(&self) -> ArrayView2<'_, i64> {
        ArrayView2::from_shape((self.count, self.max_moves), &self.pad_to).expect("shape")
    }
    /// `[B, M, MOVE_FEATURES]`; zeros in padding.
    pub fn move_features(&self) -> ArrayView3<'_, f32> {
        ArrayView3::from_shape(
            (self.count, self.max_moves, MOVE_FEATURES),
            &self.pad_features,
        )
        .expect("shape")
    }
    /// `[B, M]`: true for a real move, false for padding.
    pub fn mask(&self) -> ArrayView2<'_, bool> {
        ArrayView2::from_shape((self.count, self.max_moves), &self.pad_mask).expect("shape")
    }

    /// Copies the finished batch into tensors on `device`. One `memcpy` per
    /// array: for the quickstart network at batch 256 the copy is well under
    /// 1% of a forward pass (see `triad bench model`), so the zero-copy
    /// `from_blob` route and its lifetime hazards are not worth it.
    pub fn to_tensors(&self, device: Device) -> BatchTensors {
        assert!(self.finished, "Encoder::finish must run before to_tensors");
        let (b, m) = (self.count as i64, self.max_moves as i64);
        let dims = [b, PLANES as i64, self.height as i64, self.width as i64];
        BatchTensors {
            planes: Tensor::from_slice(&self.planes)
                .view(dims)
                .to_device(device),
            move_from: Tensor::from_slice(&self.pad_from)
                .view([b, m])
                .to_device(device),
            move_to: Tensor::from_slice(&self.pad_to)
                .view([b, m])
                .to_device(device),
            move_features: Tensor::from_slice(&self.pad_features)
                .view([b, m, MOVE_FEATURES as i64])
                .to_device(device),
            mask: Tensor::from_slice(&self.pad_mask)
                .view([b, m])
                .to_device(device),
        }
    }
}

/// A finished batch as tensors: the network's input.
pub struct BatchTensors {
    /// `[B, PLANES, H, W]` f32.
    pub planes: Tensor,
    /// `[B, M]` i64 cell indices.
    pub move_from: Tensor,
    /// `[B, M]` i64 cell indices.
    pub move_to: Tensor,
    /// `[B, M, MOVE_FEATURES]` f32.
    pub move_features: Tensor,
    /// `[B, M]` bool, true for real moves.
    pub mask: Tensor,
}
