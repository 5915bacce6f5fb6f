//! Behaviour of the encoding, the network and checkpoints.

use game::{random_positions, Encoding, Game, GameState, GameTag, SplitMix};
use model::*;
use piratechnics::{Move, Piratechnics, Position, ENCODING_VERSION, MOVE_FEATURES, PLANES};
use std::collections::HashSet;
use tch::{nn, nn::OptimizerConfig, Device, Kind, Tensor};

fn small_config() -> ModelConfig {
    ModelConfig {
        blocks: 1,
        channels: 16,
        move_embed: 16,
        policy_hidden: 32,
        value_hidden: 32,
        device: "cpu".into(),
        threads: 1,
        padding: Padding::Zeros,
        global_pool: false,
        aux_heads: false,
        precision: Precision::Fp32,
        mirror: false,
    }
}

fn enc() -> Encoding {
    Piratechnics::standard().encoding()
}

fn tag() -> GameTag {
    GameTag::of(&Piratechnics::standard())
}

/// The file mirror of a sample: the position and its moves, element by element.
fn mirror_sample(pos: &Position, moves: &[Move]) -> (Position, Vec<Move>) {
    (
        pos.transform(1),
        moves.iter().map(|&m| pos.transform_move(m, 1)).collect(),
    )
}

fn tmp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("triad-model-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The rows (from, to, features) of position 0's moves, sorted, as bits.
/// Removes `key` from a saved checkpoint's sidecar shape, as a sidecar
/// written before the key existed would be.
fn drop_shape_key(checkpoint: &std::path::Path, key: &str) {
    let sidecar = model::checkpoint::sidecar_path(checkpoint);
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sidecar).unwrap()).unwrap();
    let shape = json["shape"].as_object_mut().unwrap();
    assert!(shape.remove(key).is_some(), "no {key} in {sidecar:?}");
    std::fs::write(&sidecar, json.to_string()).unwrap();
}

fn move_rows(enc: &Encoder<Position>) -> Vec<(i64, i64, Vec<u32>)> {
    let n = enc.moves(0).len();
    let (from, to, feats) = (enc.move_from(), enc.move_to(), enc.move_features());
    let mut rows: Vec<_> = (0..n)
        .map(|j| {
            let f = (0..MOVE_FEATURES)
                .map(|k| feats[[0, j, k]].to_bits())
                .collect();
            (from[[0, j]], to[[0, j]], f)
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn start_looks_the_same_to_both_sides() {
    let white = Position::start();
    let tfen = white.to_tfen().replacen(" w ", " b ", 1);
    let black = Position::from_tfen(&tfen).unwrap();
    assert_eq!(
        encode_batch(&[(&white, 1)]),
        encode_batch(&[(&black, 1)]),
        "planes differ"
    );
    let mut a = Encoder::new();
    a.push(&white, 1);
    a.finish();
    let mut b = Encoder::new();
    b.push(&black, 1);
    b.finish();
    assert!(!a.moves(0).is_empty());
    assert_eq!(move_rows(&a), move_rows(&b), "move arrays differ");
}

#[test]
fn start_planes_say_what_is_on_the_board() {
    let pos = Position::start();
    let x = encode_batch(&[(&pos, 1)]);
    assert_eq!(x.shape(), &[1, PLANES, 8, 6]);
    // Corners do not exist; b1 has a ship with three own crew and no room.
    assert_eq!(x[[0, 0, 0, 0]], 0.0);
    assert_eq!(x[[0, 0, 0, 1]], 1.0);
    assert_eq!(x[[0, 1, 0, 1]], 1.0);
    assert_eq!(x[[0, 3, 0, 1]], 0.0);
    // Own pawns on a2: planes 4 + (0*6 + 0)*3 + t for ≥1, ≥2, ≥3.
    for t in 0..3 {
        assert_eq!(x[[0, 4 + t, 1, 0]], 1.0);
        // Enemy pawns on a7 (owner 1).
        assert_eq!(x[[0, 4 + 18 + t, 6, 0]], 1.0);
        assert_eq!(x[[0, 4 + t, 6, 0]], 0.0);
    }
    // Rank 4 is empty: existing cell, no ship.
    assert_eq!(x[[0, 0, 3, 2]], 1.0);
    assert_eq!(x[[0, 1, 3, 2]], 0.0);
    // Repetition and clock planes are constant.
    assert!(x
        .slice(ndarray::s![0, 45, .., ..])
        .iter()
        .all(|&v| v == 0.0));
    let x3 = encode_batch(&[(&pos, 3)]);
    assert!(x3
        .slice(ndarray::s![0, 45, .., ..])
        .iter()
        .all(|&v| v == 1.0));
}

#[test]
fn mirror_commutes_with_move_generation() {
    let mut moves: Vec<Move> = Vec::new();
    let mut mirrored: Vec<Move> = Vec::new();
    for pos in random_positions(&Position::start(), 300, 7, 120) {
        pos.legal_moves(&mut moves);
        let (mpos, mmoves) = mirror_sample(&pos, &moves);
        mpos.legal_moves(&mut mirrored);
        let expect: HashSet<Move> = mmoves.into_iter().collect();
        let got: HashSet<Move> = mirrored.iter().copied().collect();
        assert_eq!(expect.len(), moves.len(), "mirror merged moves in {pos:?}");
        assert_eq!(got, expect, "in {pos:?}");
        assert_eq!(mpos.mirror(), pos);
    }
}

#[test]
fn policy_is_a_distribution_over_exactly_the_legal_moves() {
    let net = Network::new(&small_config(), enc(), 1).unwrap();
    let positions = random_positions(&Position::start(), 40, 3, 80);
    let inputs: Vec<Input<Position>> = positions.iter().map(|p| (p, 1)).collect();
    let evals = net.evaluate(&inputs);
    assert_eq!(evals.len(), positions.len());
    let mut counts = HashSet::new();
    for (pos, e) in positions.iter().zip(&evals) {
        assert_eq!(e.policy.len(), pos.legal_move_vec().len());
        counts.insert(e.policy.len());
        assert!(e.policy.iter().all(|&p| p > 0.0 && p <= 1.0));
        let sum: f32 = e.policy.iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "policy sums to {sum}");
        let wdl: f32 = e.wdl.iter().sum();
        assert!((wdl - 1.0).abs() < 1e-4, "wdl sums to {wdl}");
    }
    assert!(counts.len() > 3, "the batch should mix move counts");
    // Batching changes nothing: one position alone gets the same answer.
    let alone = net.evaluate(&inputs[5..6]);
    for (a, b) in alone[0].policy.iter().zip(&evals[5].policy) {
        assert!((a - b).abs() < 1e-5);
    }
}

/// A batch scored packed (the moves back to back, `finish_packed`) gets
/// the answers of the same batch padded to its widest position, within
/// float rounding, in the same layout; the encoders' buffers serve a
/// second batch, and the same holds in bf16.
#[test]
fn packed_and_padded_evaluations_agree() {
    let mut net = Network::new(&small_config(), enc(), 2).unwrap();
    let positions = random_positions(&Position::start(), 48, 5, 120);
    let (mut padded, mut packed) = (Encoder::new(), Encoder::new());
    let (mut p1, mut w1, mut p2, mut w2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for precision in [Precision::Fp32, Precision::Bf16] {
        net.set_precision(precision);
        let tolerance = if precision == Precision::Fp32 {
            1e-5
        } else {
            2e-2
        };
        // Two batches through the same encoders: buffers are reused.
        for batch in [&positions[..48], &positions[7..20]] {
            padded.clear();
            packed.clear();
            for p in batch {
                padded.push(p, 1);
                packed.push(p, 1);
            }
            padded.finish();
            packed.finish_packed();
            assert_eq!(padded.max_moves(), packed.max_moves());
            net.evaluate_encoded(&padded, &mut p1, &mut w1);
            net.evaluate_packed(&packed, &mut p2, &mut w2);
            assert_eq!(p1.len(), padded.offsets()[batch.len()]);
            assert_eq!((p1.len(), w1.len()), (p2.len(), w2.len()));
            let worst = p1
                .iter()
                .zip(&p2)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(worst < tolerance, "{precision}: policy differs by {worst}");
            for (a, b) in w1.iter().zip(&w2) {
                for k in 0..3 {
                    assert!(
                        (a[k] - b[k]).abs() < tolerance,
                        "{precision}: {a:?} vs {b:?}"
                    );
                }
            }
        }
    }
    let widths: HashSet<usize> = positions.iter().map(|p| p.legal_move_vec().len()).collect();
    assert!(widths.len() > 5, "the batch mixes move counts");
    // An empty batch answers nothing.
    packed.clear();
    packed.finish_packed();
    net.evaluate_packed(&packed, &mut p2, &mut w2);
    assert!(p2.is_empty() && w2.is_empty());
}

/// A network in 16 bits evaluates the same positions to distributions over
/// the same moves, close to fp32's (the differences are what `bench model
/// --precision` reports), and back in fp32 it computes in 32 bits again.
#[test]
fn sixteen_bit_networks_give_close_distributions_over_the_same_moves() {
    let net = Network::new(&small_config(), enc(), 1).unwrap();
    let positions = random_positions(&Position::start(), 40, 4, 80);
    let inputs: Vec<Input<Position>> = positions.iter().map(|p| (p, 1)).collect();
    let reference = net.evaluate(&inputs);
    for precision in [Precision::Bf16, Precision::Fp16] {
        let mut low = net.duplicate();
        low.set_precision(precision);
        assert_eq!(low.precision(), precision);
        let evals = low.evaluate(&inputs);
        for (a, b) in reference.iter().zip(&evals) {
            assert_eq!(a.policy.len(), b.policy.len());
            let sum: f32 = b.policy.iter().sum();
            assert!(
                (sum - 1.0).abs() < 1e-3,
                "{precision}: policy sums to {sum}"
            );
            let tv: f32 = a
                .policy
                .iter()
                .zip(&b.policy)
                .map(|(x, y)| (x - y).abs())
                .sum();
            assert!(tv < 0.1, "{precision}: total variation {tv}");
            let dv = ((a.wdl[0] - a.wdl[2]) - (b.wdl[0] - b.wdl[2])).abs();
            assert!(dv < 0.1, "{precision}: expected score differs by {dv}");
        }
        assert!(
            reference
                .iter()
                .zip(&evals)
                .any(|(a, b)| a.policy != b.policy),
            "{precision}: 16 bits change some probabilities"
        );
        low.set_precision(Precision::Fp32);
        assert_eq!(low.precision(), Precision::Fp32);
    }
    assert!("fp8".parse::<Precision>().is_err());
    assert_eq!("bf16".parse::<Precision>().unwrap(), Precision::Bf16);
}

#[test]
fn save_then_load_gives_identical_outputs() {
    let dir = tmp_dir("save");
    let path = dir.join("net.safetensors");
    let net = Network::new(&small_config(), enc(), 11).unwrap();
    let mut info = CheckpointInfo::new(&tag(), net.shape(), 42);
    info.parent = Some("gen0".into());
    net.save(&path, &info).unwrap();
    let (loaded, got) = Network::load(&path, &tag(), Device::Cpu).unwrap();
    assert_eq!(got.step, 42);
    assert_eq!(got.parent.as_deref(), Some("gen0"));
    assert_eq!(got.shape, net.shape());
    let positions = random_positions(&Position::start(), 20, 5, 60);
    let inputs: Vec<Input<Position>> = positions.iter().map(|p| (p, 1)).collect();
    assert_eq!(net.evaluate(&inputs), loaded.evaluate(&inputs));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    // A different shape is refused, by name.
    let mut other = small_config();
    other.channels = 8;
    match Network::load_expecting(&path, &tag(), Shape::of(&other, enc()), Device::Cpu) {
        Err(CheckpointError::ShapeMismatch { .. }) => {}
        r => panic!("expected a shape mismatch, got {:?}", r.err()),
    }
    // A network of another variant or game is refused, naming both.
    let eight = GameTag::of(&Piratechnics::named("8x8", None).unwrap());
    let err = Network::load(&path, &eight, Device::Cpu)
        .err()
        .expect("must fail");
    assert!(matches!(err, CheckpointError::GameMismatch { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("piratechnics/standard") && msg.contains("piratechnics/8x8"),
        "{msg}"
    );
    // Another encoding version is refused.
    let sidecar = model::checkpoint::sidecar_path(&path);
    let text = std::fs::read_to_string(&sidecar).unwrap();
    let bumped = text.replace(
        &format!("\"encoding_version\": {ENCODING_VERSION}"),
        &format!("\"encoding_version\": {}", ENCODING_VERSION + 1),
    );
    assert_ne!(text, bumped);
    std::fs::write(&sidecar, bumped).unwrap();
    let err = Network::load(&path, &tag(), Device::Cpu)
        .err()
        .expect("must fail");
    assert!(matches!(err, CheckpointError::EncodingMismatch { .. }));
    assert!(err.to_string().contains("encoding version"), "{err}");
    // Weights that do not fit the sidecar's shape are refused, not a panic.
    let mut wrong = CheckpointInfo::new(&tag(), Shape::of(&other, enc()), 0);
    wrong.shape = Shape::of(&other, enc());
    std::fs::write(&sidecar, serde_json::to_string(&wrong).unwrap()).unwrap();
    let err = Network::load(&path, &tag(), Device::Cpu)
        .err()
        .expect("must fail");
    assert!(matches!(err, CheckpointError::BadWeights { .. }), "{err}");
    // A missing checkpoint is an I/O error.
    assert!(matches!(
        Network::load(&dir.join("none.safetensors"), &tag(), Device::Cpu),
        Err(CheckpointError::Io { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn small_network_overfits_a_few_dozen_positions() {
    tch::set_num_threads(1);
    let net = Network::new(&small_config(), enc(), 3).unwrap();
    let positions = random_positions(&Position::start(), 32, 9, 60);
    let mut enc = Encoder::new();
    for p in &positions {
        enc.push(p, 1);
    }
    enc.finish();
    let x = enc.to_tensors(Device::Cpu);
    // Targets: one random legal move per position, one random result.
    let mut rng = SplitMix::new(17);
    let m = enc.max_moves();
    let mut policy_target = vec![0f32; positions.len() * m];
    let mut value_target = vec![0f32; positions.len() * 3];
    for i in 0..positions.len() {
        policy_target[i * m + rng.below(enc.moves(i).len() as u64) as usize] = 1.0;
        value_target[i * 3 + rng.below(3) as usize] = 1.0;
    }
    let pt = Tensor::from_slice(&policy_target).view([positions.len() as i64, m as i64]);
    let vt = Tensor::from_slice(&value_target).view([positions.len() as i64, 3]);
    let losses = |train: bool| {
        let (pl, vl) = net.forward_t(&x, train);
        (policy_loss(&pl, &pt), value_loss(&vl, &vt))
    };
    let (p0, v0) = tch::no_grad(|| losses(false));
    let (p0, v0) = (p0.double_value(&[]), v0.double_value(&[]));
    let mut opt = nn::Adam::default().build(net.var_store(), 3e-3).unwrap();
    for _ in 0..150 {
        let (p, v) = losses(true);
        opt.backward_step(&(p + v));
    }
    let (p1, v1) = tch::no_grad(|| losses(false));
    let (p1, v1) = (p1.double_value(&[]), v1.double_value(&[]));
    eprintln!("policy loss {p0:.4} -> {p1:.4}, value loss {v0:.4} -> {v1:.4}");
    assert!(p1 < 0.1 * p0, "policy loss {p0} -> {p1}");
    assert!(v1 < 0.1 * v0, "value loss {v0} -> {v1}");
    assert_eq!(pt.kind(), Kind::Float);
}

/// A batch built from leaves encoded elsewhere (`EncodedLeaf`, what
/// self-play's tree workers fill) is bit for bit the batch the encoder
/// builds itself, in the same order, with one leaf buffer reused for all.
#[test]
fn pre_encoded_leaves_give_the_same_batch() {
    let positions = random_positions(&Piratechnics::standard().start(), 24, 7, 80);
    let (mut direct, mut copied) = (Encoder::<Position>::new(), Encoder::<Position>::new());
    let mut leaf = EncodedLeaf::new();
    let mut moves = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        p.legal_moves(&mut moves);
        let reps = (i % 3) as u8 + 1;
        direct.push_with_moves(p, reps, &moves);
        leaf.encode(p, reps, &moves);
        assert_eq!(leaf.moves(), moves.len());
        copied.push_encoded(&leaf, &moves);
    }
    direct.finish();
    copied.finish();
    // The same batch assembled at once from one leaf per position, into an
    // encoder that held a bigger batch before (its buffers only shrink).
    let mut all_moves = Vec::new();
    let leaves: Vec<EncodedLeaf> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            let mut leaf = EncodedLeaf::new();
            leaf.encode(p, (i % 3) as u8 + 1, &moves);
            all_moves.push(moves);
            leaf
        })
        .collect();
    let pairs: Vec<(&EncodedLeaf, &[Move])> = leaves
        .iter()
        .zip(&all_moves)
        .map(|(l, m)| (l, m.as_slice()))
        .collect();
    let mut filled = Encoder::<Position>::new();
    let doubled: Vec<_> = pairs.iter().chain(pairs.iter()).copied().collect();
    filled.fill_from_leaves(&doubled);
    assert_eq!(filled.len(), 2 * positions.len());
    filled.fill_from_leaves(&pairs);
    let bits = |a: ndarray::ArrayViewD<'_, f32>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(direct.planes().into_dyn()),
        bits(copied.planes().into_dyn())
    );
    assert_eq!(
        bits(direct.move_features().into_dyn()),
        bits(copied.move_features().into_dyn())
    );
    for other in [&copied, &filled] {
        assert_eq!(
            bits(direct.planes().into_dyn()),
            bits(other.planes().into_dyn())
        );
        assert_eq!(
            bits(direct.move_features().into_dyn()),
            bits(other.move_features().into_dyn())
        );
        assert_eq!(direct.move_from(), other.move_from());
        assert_eq!(direct.move_to(), other.move_to());
        assert_eq!(direct.mask(), other.mask());
        assert_eq!(direct.offsets(), other.offsets());
        assert_eq!(direct.max_moves(), other.max_moves());
        for i in 0..positions.len() {
            assert_eq!(direct.moves(i), other.moves(i));
        }
    }
}

/// `[model] padding = "circular"`: the trunk sees a torus, so rolling the
/// planes (a translation on the torus) changes no value, since the value
/// head pools over every cell; with zero padding the edges show and it
/// does change. The sidecar keeps the padding; a sidecar written before
/// the key existed loads as zeros.
#[test]
fn circular_padding_makes_the_value_translation_invariant() {
    let e = enc();
    let circular = ModelConfig {
        padding: Padding::Circular,
        ..small_config()
    };
    // One network per padding, built once and asked about both boards:
    // libtorch's generator is global, so two networks built from one seed
    // while other tests build theirs need not be equal.
    let values = |net: &Network, planes: &Tensor| -> Tensor {
        let b = planes.size()[0];
        let x = BatchTensors {
            planes: planes.shallow_clone(),
            move_from: Tensor::zeros([b, 1], (Kind::Int64, Device::Cpu)),
            move_to: Tensor::zeros([b, 1], (Kind::Int64, Device::Cpu)),
            move_features: Tensor::zeros(
                [b, 1, e.move_features as i64],
                (Kind::Float, Device::Cpu),
            ),
            mask: Tensor::ones([b, 1], (Kind::Bool, Device::Cpu)),
        };
        tch::no_grad(|| net.forward_t(&x, false).1)
    };
    let planes = model::with_torch_rng(|| {
        Tensor::randn(
            [4, e.planes as i64, e.height as i64, e.width as i64],
            (Kind::Float, Device::Cpu),
        )
    });
    let rolled = planes.roll([2i64, 3].as_slice(), [2i64, 3].as_slice());
    let gap = |a: &Tensor, b: &Tensor| (a - b).abs().max().double_value(&[]);
    let circular_net = Network::new(&circular, e, 5).unwrap();
    let c = gap(
        &values(&circular_net, &planes),
        &values(&circular_net, &rolled),
    );
    assert!(
        c < 1e-4,
        "circular padding: a rolled board changed the value by {c}"
    );
    let zeros_net = Network::new(&small_config(), e, 5).unwrap();
    let z = gap(&values(&zeros_net, &planes), &values(&zeros_net, &rolled));
    assert!(z > 1e-3, "zero padding should see the edges ({z})");

    let dir = tmp_dir("circular");
    let path = dir.join("net.safetensors");
    let net = Network::new(&circular, e, 11).unwrap();
    assert_eq!(net.shape().padding, Padding::Circular);
    net.save(&path, &CheckpointInfo::new(&tag(), net.shape(), 1))
        .unwrap();
    let (loaded, _) = Network::load(&path, &tag(), Device::Cpu).unwrap();
    assert_eq!(loaded.shape().padding, Padding::Circular);
    let positions = random_positions(&Position::start(), 8, 3, 40);
    let inputs: Vec<Input<Position>> = positions.iter().map(|p| (p, 1)).collect();
    assert_eq!(net.evaluate(&inputs), loaded.evaluate(&inputs));
    // A zero-padded network's sidecar without the key (as written before
    // it existed) loads as zeros.
    let zeros = Network::new(&small_config(), e, 11).unwrap();
    zeros
        .save(&path, &CheckpointInfo::new(&tag(), zeros.shape(), 1))
        .unwrap();
    drop_shape_key(&path, "padding");
    let (old, _) = Network::load(&path, &tag(), Device::Cpu).unwrap();
    assert_eq!(old.shape().padding, Padding::Zeros);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `[model] global_pool = true`: a block's pooled activations bias every
/// cell, so a move's logit depends on cells far outside the trunk's
/// receptive field (one block: three 3×3 convolutions, 3 cells each way);
/// without it a change 7 cells away leaves the logit exactly as it was.
/// The sidecar keeps the key, and a sidecar written before it existed
/// loads without pooling.
#[test]
fn global_pooling_lets_a_move_see_the_whole_board() {
    let e = enc();
    let pooled = ModelConfig {
        global_pool: true,
        ..small_config()
    };
    let logit = |net: &Network, planes: &Tensor| -> Tensor {
        let x = BatchTensors {
            planes: planes.shallow_clone(),
            // One move from and to cell 0, a corner of the board.
            move_from: Tensor::zeros([1, 1], (Kind::Int64, Device::Cpu)),
            move_to: Tensor::zeros([1, 1], (Kind::Int64, Device::Cpu)),
            move_features: Tensor::ones([1, 1, e.move_features as i64], (Kind::Float, Device::Cpu)),
            mask: Tensor::ones([1, 1], (Kind::Bool, Device::Cpu)),
        };
        // The raw logit (a one-move softmax would always be 1).
        tch::no_grad(|| net.forward_t(&x, false).0)
    };
    let planes = model::with_torch_rng(|| {
        Tensor::randn(
            [1, e.planes as i64, e.height as i64, e.width as i64],
            (Kind::Float, Device::Cpu),
        )
    });
    // The opposite corner changed.
    let far = planes.copy();
    let _ = far
        .narrow(2, e.height as i64 - 1, 1)
        .narrow(3, e.width as i64 - 1, 1)
        .fill_(5.0);
    let gap = |net: &Network| {
        (logit(net, &planes) - logit(net, &far))
            .abs()
            .max()
            .double_value(&[])
    };
    let plain = Network::new(&small_config(), e, 7).unwrap();
    assert_eq!(
        gap(&plain),
        0.0,
        "without pooling the far corner is out of reach"
    );
    let net = Network::new(&pooled, e, 7).unwrap();
    assert!(net.shape().global_pool);
    assert!(net.parameter_count() > plain.parameter_count());
    assert!(
        gap(&net) > 1e-6,
        "with pooling the far corner changes the logit"
    );

    let dir = tmp_dir("gpool");
    let path = dir.join("net.safetensors");
    net.save(&path, &CheckpointInfo::new(&tag(), net.shape(), 1))
        .unwrap();
    let (loaded, _) = Network::load(&path, &tag(), Device::Cpu).unwrap();
    assert!(loaded.shape().global_pool);
    let positions = random_positions(&Position::start(), 8, 3, 40);
    let inputs: Vec<Input<Position>> = positions.iter().map(|p| (p, 1)).collect();
    assert_eq!(net.evaluate(&inputs), loaded.evaluate(&inputs));
    // A sidecar without the key (as written before it existed) loads as a
    // network without pooling.
    let old = dir.join("old.safetensors");
    plain
        .save(&old, &CheckpointInfo::new(&tag(), plain.shape(), 1))
        .unwrap();
    drop_shape_key(&old, "global_pool");
    let (loaded, _) = Network::load(&old, &tag(), Device::Cpu).unwrap();
    assert!(!loaded.shape().global_pool);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `[model] aux_heads = true`: the training-only heads read the same trunk
/// and leave the policy and value exactly as `forward_t` gives them; their
/// outputs have the batch's shapes, padding masked; a network without them
/// answers `None`; the weights survive a save and load, and a sidecar from
/// before the key existed loads without them.
#[test]
fn auxiliary_heads_leave_play_unchanged() {
    let e = enc();
    let cfg = ModelConfig {
        aux_heads: true,
        precision: Precision::Fp32,
        ..small_config()
    };
    let net = Network::new(&cfg, e, 11).unwrap();
    let plain = Network::new(&small_config(), e, 11).unwrap();
    assert!(net.shape().aux_heads && !plain.shape().aux_heads);
    assert!(net.parameter_count() > plain.parameter_count());

    let positions = random_positions(&Position::start(), 6, 5, 30);
    let mut enc_now = Encoder::new();
    let mut enc_reply = Encoder::new();
    let mut moves = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        enc_now.push(p, 1);
        // Any position's moves stand in for the replies here; their counts
        // differ, so some rows are padded.
        p.legal_moves(&mut moves);
        enc_reply.push_with_moves(p, 1, &moves[..moves.len().min(1 + i)]);
    }
    enc_now.finish();
    enc_reply.finish();
    let x = enc_now.to_tensors(Device::Cpu);
    let r = enc_reply.to_tensors(Device::Cpu);
    let reply = ReplyMoves {
        move_features: r.move_features,
        mask: r.mask.shallow_clone(),
    };
    let (logits, value) = tch::no_grad(|| net.forward_t(&x, false));
    let (l2, v2, out) = tch::no_grad(|| net.forward_aux_t(&x, &reply, false)).unwrap();
    assert_eq!((&logits - &l2).abs().max().double_value(&[]), 0.0);
    assert_eq!((&value - &v2).abs().max().double_value(&[]), 0.0);
    let b = positions.len() as i64;
    assert_eq!(out.reply_logits.size(), r.mask.size());
    assert_eq!(out.future_logit.size(), vec![b]);
    // Padding slots hold the masked logit; real ones are ordinary numbers.
    let padded = out.reply_logits.masked_select(&r.mask.logical_not());
    let real = out.reply_logits.masked_select(&r.mask);
    assert!(padded.numel() > 0);
    assert!(padded.max().double_value(&[]) < -1e8);
    assert!(real.abs().max().double_value(&[]) < 1e3);
    assert!(tch::no_grad(|| plain.forward_aux_t(&x, &reply, false)).is_none());

    let dir = tmp_dir("aux");
    let path = dir.join("net.safetensors");
    net.save(&path, &CheckpointInfo::new(&tag(), net.shape(), 1))
        .unwrap();
    let (loaded, _) = Network::load(&path, &tag(), Device::Cpu).unwrap();
    assert!(loaded.shape().aux_heads);
    let (_, _, again) = tch::no_grad(|| loaded.forward_aux_t(&x, &reply, false)).unwrap();
    assert_eq!(
        (&out.future_logit - &again.future_logit)
            .abs()
            .max()
            .double_value(&[]),
        0.0
    );
    let old = dir.join("old.safetensors");
    plain
        .save(&old, &CheckpointInfo::new(&tag(), plain.shape(), 1))
        .unwrap();
    drop_shape_key(&old, "aux_heads");
    let (loaded, _) = Network::load(&old, &tag(), Device::Cpu).unwrap();
    assert!(!loaded.shape().aux_heads);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A seed's fresh network has the same weights when other threads build
/// networks at the same moment (libtorch's generator is one per process;
/// `Network::with_shape` builds one at a time).
#[test]
fn a_seeds_network_is_the_same_while_other_threads_build_networks() {
    let weights = |net: &Network| -> Vec<(String, Vec<f32>)> {
        let mut v: Vec<_> = net
            .var_store()
            .variables()
            .into_iter()
            .map(|(name, t)| {
                let t = t.flatten(0, -1).to_kind(tch::Kind::Float);
                (name, Vec::<f32>::try_from(&t).unwrap())
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    let alone = weights(&Network::new(&small_config(), enc(), 7).unwrap());
    let built: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8u64)
            .map(|i| {
                s.spawn(move || {
                    (0..4)
                        .map(|_| Network::new(&small_config(), enc(), 7 + (i % 2) * 100).unwrap())
                        .map(|n| (i % 2, weights(&n)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let seeds_7: Vec<_> = built.iter().filter(|(k, _)| *k == 0).collect();
    assert_eq!(seeds_7.len(), 16);
    for (_, w) in seeds_7 {
        assert!(
            *w == alone,
            "a seed-7 network built beside others has other weights"
        );
    }
}
