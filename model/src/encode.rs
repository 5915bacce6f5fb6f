//! Batches of positions into the network's input: planes, and legal moves
//! into the padded per-move arrays the policy head scores.
//!
//! What a plane or a move feature means is the game's business
//! (`GameState::encode_planes`, `GameState::encode_move`); this module only
//! lays a batch out in reusable buffers, for any game.

use game::{Encoding, GameState};
use ndarray::{Array4, ArrayView2, ArrayView3, ArrayView4};
use tch::{Device, Tensor};

/// One position to encode: the position and how many times it has occurred
/// in its game, this time included (see [`encode_planes`]).
pub type Input<'a, S> = (&'a S, u8);

/// Encodes a batch into a fresh `[B, planes, height, width]` array. For the
/// hot path use an [`Encoder`], which reuses its buffers.
pub fn encode_batch<S: GameState>(inputs: &[Input<S>]) -> Array4<f32> {
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
pub struct Encoder<S: GameState> {
    /// The shape of the batch's positions (set by the first push).
    encoding: Option<Encoding>,
    height: usize,
    width: usize,
    planes_per: usize,
    features_per: usize,
    count: usize,
    planes: Vec<f32>,
    /// Legal moves of all positions, in `GameState::legal_moves` order.
    moves: Vec<S::Move>,
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
    /// Packed by `finish_packed`, one entry per move: the row of the
    /// trunk's `[B * cells, H]` view each move's origin and destination
    /// read (`position * cells + cell`), and its slot in the `[B, M]`
    /// logits (`position * M + k` for its k-th move).
    pack_from: Vec<i64>,
    pack_to: Vec<i64>,
    pack_slot: Vec<i64>,
    scratch: Vec<S::Move>,
    /// Whether the padded arrays match the pushed positions.
    finished: bool,
    /// Whether the packed arrays match the pushed positions.
    packed: bool,
}

impl<S: GameState> Default for Encoder<S> {
    fn default() -> Self {
        Encoder::new()
    }
}

impl<S: GameState> Encoder<S> {
    pub fn new() -> Encoder<S> {
        Encoder {
            encoding: None,
            height: 0,
            width: 0,
            planes_per: 0,
            features_per: 0,
            count: 0,
            planes: Vec::new(),
            moves: Vec::new(),
            offsets: vec![0],
            cell_from: Vec::new(),
            cell_to: Vec::new(),
            features: Vec::new(),
            max_moves: 0,
            pad_from: Vec::new(),
            pad_to: Vec::new(),
            pad_features: Vec::new(),
            pad_mask: Vec::new(),
            pack_from: Vec::new(),
            pack_to: Vec::new(),
            pack_slot: Vec::new(),
            scratch: Vec::new(),
            finished: false,
            packed: false,
        }
    }

    /// The encoding of the batch's positions (`None` before the first push).
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
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
        self.packed = false;
    }

    /// Positions in the batch.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn push_planes_only(&mut self, pos: &S, repetitions: u8) {
        if self.count == 0 {
            let e = pos.encoding();
            if self.encoding != Some(e) {
                self.encoding = Some(e);
                self.height = e.height;
                self.width = e.width;
                self.planes_per = e.planes;
                self.features_per = e.move_features;
            }
        } else {
            debug_assert_eq!(
                Some(pos.encoding()),
                self.encoding,
                "one batch holds one encoding"
            );
        }
        let n = self.planes_per * self.height * self.width;
        let start = self.planes.len();
        self.planes.resize(start + n, 0.0);
        pos.encode_planes(repetitions, &mut self.planes[start..]);
        self.count += 1;
    }

    /// Adds a position; its legal moves are generated here, in
    /// `GameState::legal_moves` order.
    pub fn push(&mut self, pos: &S, repetitions: u8) {
        let mut scratch = std::mem::take(&mut self.scratch);
        pos.legal_moves(&mut scratch);
        self.push_with_moves(pos, repetitions, &scratch);
        self.scratch = scratch;
    }

    /// Adds a position that was encoded elsewhere (by a self-play tree
    /// worker, see [`EncodedLeaf`]), with the moves it was encoded with: a
    /// plain copy of its arrays, so the thread that runs the network spends
    /// no time on the game's encoding.
    pub fn push_encoded(&mut self, leaf: &EncodedLeaf, moves: &[S::Move]) {
        let e = leaf
            .encoding
            .expect("EncodedLeaf::encode ran before push_encoded");
        debug_assert_eq!(leaf.cell_from.len(), moves.len(), "the leaf's moves");
        if self.count == 0 {
            if self.encoding != Some(e) {
                self.encoding = Some(e);
                self.height = e.height;
                self.width = e.width;
                self.planes_per = e.planes;
                self.features_per = e.move_features;
            }
        } else {
            debug_assert_eq!(Some(e), self.encoding, "one batch holds one encoding");
        }
        self.planes.extend_from_slice(&leaf.planes);
        self.count += 1;
        self.moves.extend_from_slice(moves);
        self.cell_from.extend_from_slice(&leaf.cell_from);
        self.cell_to.extend_from_slice(&leaf.cell_to);
        self.features.extend_from_slice(&leaf.features);
        self.offsets.push(self.moves.len());
        self.max_moves = self.max_moves.max(moves.len());
        self.finished = false;
        self.packed = false;
    }

    /// Replaces the batch with `leaves` (each leaf with the moves it was
    /// encoded with), finished: the same batch as
    /// [`push_encoded`](Encoder::push_encoded) of each and
    /// [`finish`](Encoder::finish), written straight into the padded arrays
    /// in parallel on the current rayon pool. Self-play's tree thread calls
    /// it while the network runs the other half's batch: at batch 512 on a
    /// GPU a serial copy took about as long as the forward pass itself.
    pub fn fill_from_leaves(&mut self, leaves: &[(&EncodedLeaf, &[S::Move])]) {
        use rayon::prelude::*;
        self.clear();
        let Some(e) = leaves.first().map(|l| {
            l.0.encoding
                .expect("EncodedLeaf::encode ran before fill_from_leaves")
        }) else {
            self.finish();
            return;
        };
        self.encoding = Some(e);
        self.height = e.height;
        self.width = e.width;
        self.planes_per = e.planes;
        self.features_per = e.move_features;
        let (b, nf) = (leaves.len(), e.move_features);
        let pp = e.planes * e.height * e.width;
        let m = leaves.iter().map(|l| l.1.len()).max().unwrap_or(0).max(1);
        self.count = b;
        self.max_moves = m;
        for (leaf, moves) in leaves {
            debug_assert_eq!(leaf.encoding, Some(e), "one batch holds one encoding");
            debug_assert_eq!(leaf.cell_from.len(), moves.len(), "the leaf's moves");
            self.moves.extend_from_slice(moves);
            self.offsets.push(self.moves.len());
        }
        // Every element is overwritten below: resizing only sets lengths
        // (and zeroes memory the first time a buffer grows).
        fn set_len<T: Clone>(v: &mut Vec<T>, n: usize, zero: T) {
            if v.len() > n {
                v.truncate(n);
            } else {
                v.resize(n, zero);
            }
        }
        set_len(&mut self.planes, b * pp, 0.0);
        set_len(&mut self.pad_from, b * m, 0);
        set_len(&mut self.pad_to, b * m, 0);
        set_len(&mut self.pad_mask, b * m, false);
        set_len(&mut self.pad_features, b * m * nf, 0.0);
        self.planes
            .par_chunks_mut(pp)
            .zip(leaves.par_iter())
            .for_each(|(dst, (leaf, _))| dst.copy_from_slice(&leaf.planes));
        self.pad_from
            .par_chunks_mut(m)
            .zip(self.pad_to.par_chunks_mut(m))
            .zip(self.pad_mask.par_chunks_mut(m))
            .zip(self.pad_features.par_chunks_mut(m * nf))
            .zip(leaves.par_iter())
            .for_each(|((((from, to), mask), feats), (leaf, _))| {
                let k = leaf.cell_from.len();
                from[..k].copy_from_slice(&leaf.cell_from);
                from[k..].fill(0);
                to[..k].copy_from_slice(&leaf.cell_to);
                to[k..].fill(0);
                mask[..k].fill(true);
                mask[k..].fill(false);
                feats[..k * nf].copy_from_slice(&leaf.features);
                feats[k * nf..].fill(0.0);
            });
        self.finished = true;
    }

    /// Adds a position with a given list of its moves (e.g. the legal moves
    /// stored with a training sample), scored in that order.
    pub fn push_with_moves(&mut self, pos: &S, repetitions: u8, moves: &[S::Move]) {
        self.push_planes_only(pos, repetitions);
        let nf = self.features_per;
        for &m in moves {
            self.moves.push(m);
            let start = self.features.len();
            self.features.resize(start + nf, 0.0);
            let (from, to) = pos.encode_move(m, &mut self.features[start..]);
            self.cell_from.push(from as i64);
            self.cell_to.push(to as i64);
        }
        self.offsets.push(self.moves.len());
        self.max_moves = self.max_moves.max(moves.len());
        self.finished = false;
        self.packed = false;
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
        self.pad_features.resize(b * m * self.features_per, 0.0);
        for i in 0..b {
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            let row = i * m;
            self.pad_from[row..row + hi - lo].copy_from_slice(&self.cell_from[lo..hi]);
            self.pad_to[row..row + hi - lo].copy_from_slice(&self.cell_to[lo..hi]);
            self.pad_mask[row..row + hi - lo].fill(true);
            self.pad_features[row * self.features_per..(row + hi - lo) * self.features_per]
                .copy_from_slice(&self.features[lo * self.features_per..hi * self.features_per]);
        }
        self.finished = true;
    }

    /// Finishes the batch for [`to_packed_tensors`](Encoder::to_packed_tensors)
    /// instead of padding it: the moves stay back to back, and only their
    /// indices are computed (see `pack_from`). A batch whose move counts
    /// differ widely (Pirate Chess: 9 to 1,500 legal turns) then costs the
    /// policy head its moves, not positions × the largest count.
    pub fn finish_packed(&mut self) {
        debug_assert_eq!(
            self.cell_from.len(),
            self.moves.len(),
            "a batch filled by fill_from_leaves has no compact move arrays"
        );
        let m = self.max_moves.max(1);
        self.max_moves = m;
        let cells = (self.height * self.width) as i64;
        self.pack_from.clear();
        self.pack_to.clear();
        self.pack_slot.clear();
        for i in 0..self.count {
            let (lo, hi) = (self.offsets[i], self.offsets[i + 1]);
            let row = i as i64 * cells;
            self.pack_from
                .extend(self.cell_from[lo..hi].iter().map(|&c| row + c));
            self.pack_to
                .extend(self.cell_to[lo..hi].iter().map(|&c| row + c));
            let slot = (i * m) as i64;
            self.pack_slot
                .extend((0..(hi - lo) as i64).map(|k| slot + k));
        }
        self.packed = true;
    }

    /// The batch as packed tensors on `device` (after
    /// [`finish_packed`](Encoder::finish_packed)): the network's input for
    /// [`Network::evaluate_packed`](crate::Network::evaluate_packed).
    pub fn to_packed_tensors(&self, device: Device) -> PackedTensors {
        assert!(
            self.packed,
            "Encoder::finish_packed must run before to_packed_tensors"
        );
        let n = self.moves.len() as i64;
        let dims = [
            self.count as i64,
            self.planes_per as i64,
            self.height as i64,
            self.width as i64,
        ];
        PackedTensors {
            planes: upload(&self.planes, &dims, device),
            move_from: upload(&self.pack_from, &[n], device),
            move_to: upload(&self.pack_to, &[n], device),
            move_features: upload(&self.features, &[n, self.features_per as i64], device),
            move_slot: upload(&self.pack_slot, &[n], device),
        }
    }

    /// The padded move count M (after `finish`).
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }
    /// Position i's moves, in the order their probabilities come back.
    pub fn moves(&self, i: usize) -> &[S::Move] {
        &self.moves[self.offsets[i]..self.offsets[i + 1]]
    }
    /// `offsets[i]..offsets[i+1]` index position i's moves in a flat list.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// `[B, planes, height, width]`.
    pub fn planes(&self) -> ArrayView4<'_, f32> {
        ArrayView4::from_shape(
            (self.count, self.planes_per, self.height, self.width),
            &self.planes,
        )
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
    /// `[B, M, move_features]`; zeros in padding.
    pub fn move_features(&self) -> ArrayView3<'_, f32> {
        ArrayView3::from_shape(
            (self.count, self.max_moves, self.features_per),
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
    /// 1% of a forward pass on the CPU (see `triad bench model`). On CUDA
    /// each array goes through page-locked memory instead (see `upload`).
    pub fn to_tensors(&self, device: Device) -> BatchTensors {
        assert!(self.finished, "Encoder::finish must run before to_tensors");
        let (b, m) = (self.count as i64, self.max_moves as i64);
        let dims = [
            b,
            self.planes_per as i64,
            self.height as i64,
            self.width as i64,
        ];
        BatchTensors {
            planes: upload(&self.planes, &dims, device),
            move_from: upload(&self.pad_from, &[b, m], device),
            move_to: upload(&self.pad_to, &[b, m], device),
            move_features: upload(
                &self.pad_features,
                &[b, m, self.features_per as i64],
                device,
            ),
            mask: upload(&self.pad_mask, &[b, m], device),
        }
    }
}

/// `data` as a tensor of shape `dims` on `device`. On CUDA it is copied
/// once, into page-locked memory from libtorch's caching host allocator,
/// and from there to the GPU asynchronously (the thread goes on to queue
/// the forward pass while the copy runs; the allocator keeps the block
/// until the copy is done).
fn upload<T: tch::kind::Element>(data: &[T], dims: &[i64], device: Device) -> Tensor {
    debug_assert_eq!(data.len() as i64, dims.iter().product::<i64>());
    if !device.is_cuda() {
        return Tensor::from_slice(data).view(dims).to_device(device);
    }
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    // SAFETY: the view reads `data`, which outlives it, and lives only
    // until `_pin_memory` has copied it (synchronously) into memory that the
    // pinned tensor owns.
    let view = unsafe {
        Tensor::from_blob(
            data.as_ptr() as *const u8,
            dims,
            &strides,
            T::KIND,
            Device::Cpu,
        )
    };
    // `_pin_memory`, not `pin_memory`: tch passes a device to both, and
    // libtorch 2.11's `pin_memory` (and the `is_pinned` it calls) print a
    // deprecation warning for that argument on every call, two lines of
    // stderr per array per batch (11 MB in 40 s of self-play on an H100).
    // `_pin_memory` is the operator `pin_memory` dispatches to; the view is
    // never pinned already, so the check it skips is moot.
    view.internal_pin_memory(device)
        .to_device_(device, T::KIND, true, false)
}

/// One position's network input, encoded on the thread that reached it.
///
/// Self-play's tree workers fill one of these per game when its search
/// stops at a leaf; the thread that owns the network then only copies it
/// into the batch ([`Encoder::push_encoded`]). The game's encoding
/// (`encode_planes`, `encode_move` per legal move) is a third of a GPU
/// forward pass at batch 512 (docs/selfplay.md), so doing it in the
/// workers, in parallel, keeps the network from waiting for it. The buffers
/// keep their capacity: after warm-up encoding allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct EncodedLeaf {
    encoding: Option<Encoding>,
    planes: Vec<f32>,
    cell_from: Vec<i64>,
    cell_to: Vec<i64>,
    features: Vec<f32>,
}

impl EncodedLeaf {
    pub fn new() -> EncodedLeaf {
        EncodedLeaf::default()
    }

    /// Encodes `pos` (seen `repetitions` times) and its `moves`, in that
    /// order, replacing what was there: the same values
    /// [`Encoder::push_with_moves`] would write.
    pub fn encode<S: GameState>(&mut self, pos: &S, repetitions: u8, moves: &[S::Move]) {
        let e = pos.encoding();
        self.encoding = Some(e);
        self.planes.clear();
        self.planes.resize(e.planes * e.height * e.width, 0.0);
        pos.encode_planes(repetitions, &mut self.planes);
        self.cell_from.clear();
        self.cell_to.clear();
        self.features.clear();
        self.features.resize(moves.len() * e.move_features, 0.0);
        for (i, &m) in moves.iter().enumerate() {
            let f = &mut self.features[i * e.move_features..(i + 1) * e.move_features];
            let (from, to) = pos.encode_move(m, f);
            self.cell_from.push(from as i64);
            self.cell_to.push(to as i64);
        }
    }

    /// Moves encoded (0 before the first [`encode`](EncodedLeaf::encode)).
    pub fn moves(&self) -> usize {
        self.cell_from.len()
    }
}

/// A batch finished by [`Encoder::finish_packed`] as tensors: the moves of
/// all positions back to back, `N` in all.
pub struct PackedTensors {
    /// `[B, planes, H, W]` f32.
    pub planes: Tensor,
    /// `[N]` i64: `position * cells + cell` of each move's origin.
    pub move_from: Tensor,
    /// `[N]` i64: the same for its destination.
    pub move_to: Tensor,
    /// `[N, move_features]` f32.
    pub move_features: Tensor,
    /// `[N]` i64: the move's slot in a `[B, M]` row-major layout
    /// (`position * M + k`, M the batch's largest move count).
    pub move_slot: Tensor,
}

/// A finished batch as tensors: the network's input.
pub struct BatchTensors {
    /// `[B, planes, H, W]` f32.
    pub planes: Tensor,
    /// `[B, M]` i64 cell indices.
    pub move_from: Tensor,
    /// `[B, M]` i64 cell indices.
    pub move_to: Tensor,
    /// `[B, M, move_features]` f32.
    pub move_features: Tensor,
    /// `[B, M]` bool, true for real moves.
    pub mask: Tensor,
}
