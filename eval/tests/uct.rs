//! Pure MCTS (`mcts:sims=N`): its spec text, and that it plays: it finds
//! every mate in one of the PiRaTeKnIcS vectors, and beats the random player.

use eval::arena::players::{build_player, PlayerSpec};
use eval::{MctsSpec, Uct};
use game::{Game, GameResult, History};
use piratechnics::{Piratechnics, Position};

#[test]
fn spec_text_round_trips_and_errors_name_the_key() {
    let s: MctsSpec = "mcts:sims=1000".parse().unwrap();
    assert_eq!(s.sims, 1000);
    assert_eq!(s.c, 2.0);
    assert_eq!(s.to_string(), "mcts:sims=1000");
    let s: MctsSpec = "mcts:sims=50,c=1.5,plies=80".parse().unwrap();
    assert_eq!(s.to_string(), "mcts:sims=50,c=1.5,plies=80");
    assert_eq!(s.to_string().parse::<MctsSpec>().unwrap(), s);
    let s: MctsSpec = "mcts:sims=50,terminal=outcome".parse().unwrap();
    assert_eq!(s.terminal, eval::Terminal::Outcome);
    assert_eq!(s.to_string(), "mcts:sims=50,terminal=outcome");
    assert_eq!(s.to_string().parse::<MctsSpec>().unwrap(), s);
    assert_eq!(
        "mcts:sims=8".parse::<PlayerSpec>().unwrap(),
        PlayerSpec::Mcts("mcts:sims=8".parse().unwrap())
    );
    for (bad, needle) in [
        ("mcts:", "needs sims"),
        ("mcts:sims=0", "sims="),
        ("mcts:sims=x", "sims="),
        ("mcts:sims=5,c=-1", "c="),
        ("mcts:sims=5,depth=3", "unknown key `depth`"),
        ("mcts:sims", "not key=value"),
        ("mcts:sims=5,terminal=solve", "terminal="),
    ] {
        let e = bad.parse::<PlayerSpec>().unwrap_err();
        assert!(e.to_string().contains(needle), "{bad}: {e}");
    }
}

#[test]
fn finds_every_mate_in_one() {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        "games/piratechnics/vectors/mate1.txt",
    );
    let mut n = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (tfen, moves) = line.split_once(';').expect("TFEN ; moves");
        let pos = Position::from_tfen(tfen.trim()).expect("valid TFEN");
        let mut uct = Uct::new("mcts:sims=400".parse().unwrap(), 1);
        let best = uct.search(&pos).expect("a move");
        let text = pos.move_to_text(best);
        assert!(
            moves.split_whitespace().any(|m| m == text),
            "{pos}: played {text}, mates are {moves}"
        );
        // Each root move was tried, and the mate's mean is exactly +1.
        let mate = uct.root_edges().find(|e| e.0 == best).unwrap();
        assert_eq!(mate.2, 1.0);
        n += 1;
    }
    assert!(n > 0);
}

/// A few games against the random player on the 8x8 variant (short
/// playouts keep it quick): pure MCTS wins most and loses none.
#[test]
fn beats_the_random_player() {
    let game = Piratechnics::named("8x8", None).unwrap();
    let mcts: PlayerSpec = "mcts:sims=200,plies=60".parse().unwrap();
    let (mut wins, mut losses) = (0, 0);
    for g in 0..4u64 {
        let mut players = [
            build_player(&game, &mcts, g, None).unwrap(),
            build_player(&game, &PlayerSpec::Random, g, None).unwrap(),
        ];
        let mcts_white = g % 2 == 0;
        if !mcts_white {
            players.swap(0, 1);
        }
        let mut h = History::new(game.start());
        while h.outcome().is_none() && h.ply() < 300 {
            let side = h.position().side().index();
            let m = players[side].choose(&h);
            h.play(m);
        }
        match h.outcome().map(|o| o.result) {
            Some(GameResult::WhiteWin) if mcts_white => wins += 1,
            Some(GameResult::BlackWin) if !mcts_white => wins += 1,
            Some(GameResult::Draw) | None => {}
            Some(_) => losses += 1,
        }
    }
    assert_eq!(losses, 0, "pure MCTS lost to random");
    assert!(wins >= 2, "pure MCTS won only {wins} of 4");
}
