//! How long copying an encoded batch into tensors takes next to a forward
//! pass (the reason `Encoder::to_tensors` copies instead of aliasing).
//! `cargo run --release -p model --example copy_cost`
use game::random_positions;
use model::{Encoder, ModelConfig, Network};
use std::time::Instant;

fn main() {
    let game = piratechnics::Piratechnics::standard();
    let net = Network::new(&ModelConfig::default(), game::Game::encoding(&game), 0)
        .expect("default config");
    let pool = random_positions(&piratechnics::Position::start(), 256, 1, 160);
    for b in [1usize, 64, 256] {
        let mut enc = Encoder::new();
        for p in &pool[..b] {
            enc.push(p, 1);
        }
        enc.finish();
        let n = 50;
        let t = Instant::now();
        for _ in 0..n {
            let _ = enc.to_tensors(tch::Device::Cpu);
        }
        let copy = t.elapsed().as_secs_f64() / n as f64;
        let (mut p, mut w) = (Vec::new(), Vec::new());
        net.evaluate_encoded(&enc, &mut p, &mut w);
        let t = Instant::now();
        for _ in 0..n {
            net.evaluate_encoded(&enc, &mut p, &mut w);
        }
        let eval = t.elapsed().as_secs_f64() / n as f64;
        println!(
            "batch {b}: copy {:.3} ms, evaluate {:.3} ms ({:.2}%)",
            copy * 1e3,
            eval * 1e3,
            100.0 * copy / eval
        );
    }
}
