//! A mirror-equivariant network (`[model] mirror`): its answer for a
//! position's mirror image is its answer for the position, mirrored.

use connect4::{Connect4, Position};
use game::{random_positions, Game, GameState, GameTag};
use model::*;
use tch::Device;

fn config(mirror: bool) -> ModelConfig {
    ModelConfig {
        blocks: 2,
        channels: 8,
        move_embed: 8,
        policy_hidden: 16,
        value_hidden: 16,
        device: "cpu".into(),
        threads: 1,
        global_pool: true,
        aux_heads: true,
        mirror,
        ..Default::default()
    }
}

/// Positions of 0 to 30 plies, each with its mirror image.
fn positions_and_images() -> (Vec<Position>, Vec<Position>) {
    let game = Connect4::standard();
    let positions = random_positions(&game.start(), 40, 7, 30);
    let images = positions.iter().map(|p| p.transform(1)).collect();
    (positions, images)
}

/// The largest difference between each position's answer and its mirror
/// image's, the image's priors read move by mirrored move.
fn mirror_gap(net: &Network) -> f32 {
    let (positions, images) = positions_and_images();
    let a = net.evaluate(&positions.iter().map(|p| (p, 1)).collect::<Vec<_>>());
    let b = net.evaluate(&images.iter().map(|p| (p, 1)).collect::<Vec<_>>());
    let mut gap = 0.0f32;
    for ((p, ea), eb) in positions.iter().zip(&a).zip(&b) {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let image = p.transform(1);
        let mut image_moves = Vec::new();
        image.legal_moves(&mut image_moves);
        for (i, &m) in moves.iter().enumerate() {
            let j = image_moves
                .iter()
                .position(|&x| x == p.transform_move(m, 1))
                .expect("the mirrored move is legal in the mirror image");
            gap = gap.max((ea.policy[i] - eb.policy[j]).abs());
        }
        for k in 0..3 {
            gap = gap.max((ea.wdl[k] - eb.wdl[k]).abs());
        }
    }
    gap
}

#[test]
fn a_mirror_network_answers_a_mirror_image_as_the_position() {
    let enc = Connect4::standard().encoding();
    assert!(enc.mirror);
    let mirror = Network::new(&config(true), enc, 3).unwrap();
    assert!(mirror.shape().mirror);
    let gap = mirror_gap(&mirror);
    assert!(gap < 1e-5, "mirror-equivariant network: gap {gap}");
    // A plain network of the same size does not (so the check can fail).
    let plain = Network::new(&config(false), enc, 3).unwrap();
    let gap = mirror_gap(&plain);
    assert!(gap > 1e-3, "plain network: gap {gap}");
    // The same work a pass from about half the trunk's weights.
    assert!(mirror.parameter_count() < plain.parameter_count());
}

#[test]
fn a_mirror_network_saves_and_loads_as_itself() {
    let dir = std::env::temp_dir().join(format!("triad-mirror-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.safetensors");
    let game = Connect4::standard();
    let tag = GameTag::of(&game);
    let net = Network::new(&config(true), game.encoding(), 5).unwrap();
    net.save(&path, &CheckpointInfo::new(&tag, net.shape(), 1))
        .unwrap();
    let (loaded, info) = Network::load(&path, &tag, Device::Cpu).unwrap();
    assert!(info.shape.mirror);
    let (positions, _) = positions_and_images();
    let inputs: Vec<_> = positions.iter().map(|p| (p, 1)).collect();
    assert_eq!(net.evaluate(&inputs), loaded.evaluate(&inputs));
    // Into a plain network of the same size it does not load.
    let plain = Shape::of(&config(false), game.encoding());
    assert!(Network::load_expecting(&path, &tag, plain, Device::Cpu).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mirror_is_refused_where_it_cannot_hold() {
    let enc = Connect4::standard().encoding();
    let mut odd = config(true);
    odd.channels = 9;
    let e = odd.validate().unwrap_err();
    assert!(
        e.message().contains("model.mirror") && e.message().contains("even"),
        "{}",
        e.message()
    );
    let mut circular = config(true);
    circular.padding = Padding::Circular;
    let e = circular.validate().unwrap_err();
    assert!(
        e.message().contains("model.mirror") && e.message().contains("zeros"),
        "{}",
        e.message()
    );
    // A game whose mirror is not a flip of its planes.
    let other = piratechnics::Piratechnics::standard().encoding();
    assert!(!other.mirror);
    let e = Network::new(&config(true), other, 1)
        .err()
        .expect("refused");
    assert!(e.message().contains("model.mirror"), "{}", e.message());
    assert!(Network::new(&config(true), enc, 1).is_ok());
    // The key is read from a run file.
    let c = ModelConfig::from_toml_str("[model]\nmirror = true\nchannels = 16\n").unwrap();
    assert!(c.mirror);
}
