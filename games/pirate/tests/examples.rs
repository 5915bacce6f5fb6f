//! The rule book's worked examples: the hand-checked counts of RULES.md §12,
//! the worked opening of §10.3 and the notation examples of §10.2.

use game::GameState;
use pirate::Position;

fn legal_texts(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
    texts.sort();
    texts
}

/// §12: every hand-checked count, by listing and by the §9 formula.
#[test]
fn hand_checked_counts_of_section_12() {
    let table = [
        ("8/8/8/8/8/8/8/F7 b fpdjbsgc 00/00 8/0 0 0", 55),
        ("8/8/8/8/8/8/8/F@7 b fpdjbsgc 00/00 8/0 0 0", 28),
        ("10/10/10/10/10/10/10/10/10/F9 b fpdjbsgc 00/00 8/0 0 0", 65),
        ("8/8/8/8/8/8/8/P7 b fpdjbsgc 00/00 8/0 0 0", 8),
        ("8/8/8/8/8/8/8/B7 b fpdjbsgc 00/00 8/0 0 0", 25),
        ("8/8/8/8/8/8/8/JP6 b fpdjbsgc 00/00 8/0 0 0", 23),
        ("8/8/8/8/3D4/3d@4/8/8 r fpjbsgc 00/00 8/1 0 0", 1244),
        ("8/8/8/8/3J4/3D4/8/8 b FPBSGCfpdjbsgc 00/00 2/0 0 0", 1460),
        ("8/8/8/8/8/2f@1b3/4Ds@2/1P6 b FJBSGpdjgc 00/00 3/3 0 9", 913),
        ("6/6/6/2J@3/2Db2/2f@3 b pdjsg 00/00 8/3 0 20", 17),
    ];
    for (text, want) in table {
        let p = Position::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), want, "listed turns of {text}");
        assert_eq!(p.count_legal(), want as u64, "counted turns of {text}");
        let mut sorted = moves.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len(), "no turn twice in {text}");
    }
}

/// §12's last line lists every turn of its position.
#[test]
fn the_seventeen_turns_of_the_6x6_example() {
    let p = Position::parse("6/6/6/2J@3/2Db2/2f@3 b pdjsg 00/00 8/3 0 20").unwrap();
    let mut want: Vec<String> = "+c2 -c3 -c3,c3-a3 -c3,c3-c5 -c3,c3-e3 c2-b2 c2-b2,+b2 c2-b2,-c3 c2-c3=F c2-c3=F,+c3 c2-c3=P c2xd2 c2xd2,+d2 c2xd2,-c3 c2xd2= c2xd2=,+d2 c2xd2=,-c3"
        .split(' ')
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(legal_texts(&p), want);
}

/// §12's 913: the PIRATE sinks or captures an anchored FRIGATE, the DHOW
/// cannot attack an anchored SCHOONER.
#[test]
fn pirate_attacks_anchored_ships_and_others_do_not() {
    let p = Position::parse("8/8/8/8/8/2f@1b3/4Ds@2/1P6 b FJBSGpdjgc 00/00 3/3 0 9").unwrap();
    let texts = legal_texts(&p);
    for t in [
        "b1xc3",
        "b1xc3=",
        "b1xc3=,+c3",
        "b1xc3,+e2",
        "e2xe3=,+e3",
        "e2xe3",
    ] {
        assert!(texts.contains(&t.to_string()), "{t} is legal");
    }
    for t in ["e2xf2", "b1xc3=,+b1", "e2-e3"] {
        assert!(!texts.contains(&t.to_string()), "{t} is not listed");
        assert!(p.parse_move(t).is_err(), "{t} is refused");
    }
}

/// §10.3: every turn of the worked opening is legal, reads and writes back
/// in its canonical text, and leads to the position given.
#[test]
fn worked_opening_of_section_10_3() {
    let lines = [
        (
            "F@d4,+d4",
            "8/8/8/8/3F@4/8/8/8 r PDJBSGCfpdjbsgc 00/00 1/0 0 1",
        ),
        (
            "P@c6",
            "8/8/2p5/8/3F@4/8/8/8 b PDJBSGCfdjbsgc 00/00 1/1 0 2",
        ),
        (
            "D@d3",
            "8/8/2p5/8/3F@4/3D4/8/8 r PJBSGCfdjbsgc 00/00 2/1 0 3",
        ),
        (
            "B@f6,+f6",
            "8/8/2p2b@2/8/3F@4/3D4/8/8 b PJBSGCfdjsgc 00/00 2/2 0 4",
        ),
        (
            "d3-d4=F,+d4",
            "8/8/2p2b@2/8/3F@4/8/8/8 r PJBSGCfdjsgc 10/00 2/2 0 5",
        ),
        (
            "J@e2",
            "8/8/2p2b@2/8/3F@4/8/4j3/8 b PJBSGCfdsgc 10/00 2/3 0 6",
        ),
        (
            "B@b2",
            "8/8/2p2b@2/8/3F@4/8/1B2j3/8 r PJSGCfdsgc 10/00 3/3 0 7",
        ),
        (
            "c6xd4=",
            "8/8/5b@2/8/3f4/8/1B2j3/8 b PJSGCfdsgc 10/00 3/3 0 8",
        ),
        (
            "b2xd4=,+d4",
            "8/8/5b@2/8/3F@4/8/4j3/8 r PJSGCfdsgc 10/00 3/3 0 9",
        ),
        (
            "-f6,f6-f2",
            "8/8/8/8/3F@4/8/4jb2/8 b PJSGCfdsgc 10/00 3/3 1 10",
        ),
        ("-d4", "8/8/8/8/3F4/8/4jb2/8 r PJSGCfdsgc 10/00 3/3 2 11"),
        ("e2-e4", "8/8/8/8/3Fj3/8/5b2/8 b PJSGCfdsgc 10/00 3/3 3 12"),
        ("d4xe4", "8/8/8/8/4F3/8/5b2/8 r PJSGCfdsgc 10/00 3/3 0 13"),
    ];
    let mut p = Position::start(pirate::Size::DEFAULT);
    assert_eq!(
        p.to_text(),
        "8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0"
    );
    for (text, after) in lines {
        let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.move_text(m), text);
        p.apply(m);
        assert_eq!(p.to_text(), after, "after {text}");
        assert_eq!(p.hash(), p.compute_hash(), "hash after {text}");
    }
    // Ply 13 was not an elimination: Red still has a ship.
    assert_eq!(p.terminal(p.has_legal_move(), 1), None);
}

/// §10.2: readers accept a toggle on either side where the order written is
/// legal and give the canonical move; they refuse wrong signs, a toggle
/// that spoils the main action, and malformed text.
#[test]
fn move_text_readers_follow_section_10_2() {
    let p = Position::parse("8/8/8/8/3J@4/3D4/1B@6/7C b FPSGfpdjbsgc 00/00 4/0 0 7").unwrap();
    // A toggle before an unrelated main action is the same move as after.
    let before = p.parse_move("+h1,d3-d2").unwrap();
    let after = p.parse_move("d3-d2,+h1").unwrap();
    assert_eq!(before, after);
    assert_eq!(p.move_text(before), "d3-d2,+h1");
    // Un-anchor then sail; anchor-then-upgrade is not needed (d4 anchored).
    assert_eq!(p.move_text(p.parse_move("-b2,b2-b6").unwrap()), "-b2,b2-b6");
    assert_eq!(p.move_text(p.parse_move("d3-d4=P").unwrap()), "d3-d4=P");
    assert_eq!(
        p.move_text(p.parse_move("S@d4=F,+d4").unwrap()),
        "S@d4=F,+d4"
    );
    // Written after, the un-anchor comes too late for the sail.
    assert!(p.parse_move("b2-b6,-b2").is_err());
    // Wrong signs, and a toggle that spoils the upgrade.
    assert!(p.parse_move("-h1").is_err());
    assert!(p.parse_move("+b2").is_err());
    assert!(p.parse_move("-d4,d3-d4=F").is_err());
    assert!(p.parse_move("d3-d2,-h1").is_err());
    // A toggle of the ship that has just arrived names its new square.
    assert_eq!(p.move_text(p.parse_move("d3-d2,+d2").unwrap()), "d3-d2,+d2");
    // Malformed.
    for bad in [
        "",
        "d3",
        "d3-",
        "X@a1",
        "F@a0",
        "d3-d2,+h1,+d2",
        "+h1,+d2",
        "d3xd2=F",
        "f@a1",
        "d3-d2=Q",
    ] {
        assert!(p.parse_move(bad).is_err(), "{bad:?} is refused");
    }
    // An attack before both sides have deployed three ships is illegal.
    assert!(p.parse_move("c1xc1").is_err());
}

/// §10.1: readers refuse every other form of a position.
#[test]
fn position_strings_are_checked() {
    let good = "8/8/2p2b@2/8/3F@4/8/8/8 r PJBSGCfdjsgc 10/00 2/2 0 5";
    assert_eq!(Position::parse(good).unwrap().to_text(), good);
    for bad in [
        "8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 00/00 0/0 0",
        "8/8/8/8/8/8/8/8  b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/7 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "7/7/7/7/7/7/7/7 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 w FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 b PFDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 b fpdjbsgcFPDJBSGC 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 00/00 1/0 0 0",
        "8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 30/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 00/00 0/0 01 0",
        "8/8/8/8/8/8/8/P@7 b PDJBSGCfpdjbsgc 00/00 1/0 0 0",
        "8/8/8/8/8/8/8/08 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/X7 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
        "8/8/8/8/8/8/8/8 b  00/00 8/8 0 0",
        "18/18/18/18/18/18 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0",
    ] {
        assert!(Position::parse(bad).is_err(), "{bad:?} is refused");
    }
}

/// §8: elimination wins at once, a side with no legal turn loses, and the
/// draws come in the order of §8.4.
#[test]
fn outcomes_of_section_8() {
    use game::{GameResult, Termination};
    // Seed 133 of perft.txt: Blue has been eliminated.
    let p = Position::parse("8/6f@1/8/8/8/8/8/8 b - 00/11 8/8 0 72").unwrap();
    assert!(!p.has_legal_move());
    let o = p.terminal(false, 1).unwrap();
    assert_eq!(o.result, GameResult::BlackWin);
    // An empty board in the opening is no loss (fewer than 3 deployments).
    let start = Position::start(pirate::Size::DEFAULT);
    assert_eq!(start.terminal(true, 1), None);
    // Repetition, quiet plies, length, in that order.
    let q = Position::parse("8/8/8/8/3F4/8/8/4f3 b - 00/00 8/8 100 400").unwrap();
    assert_eq!(
        q.terminal(true, 3).unwrap().termination,
        Termination::Repetition
    );
    assert_eq!(
        q.terminal(true, 1).unwrap().termination,
        Termination::NoCapture
    );
    let l = Position::parse("8/8/8/8/3F4/8/8/4f3 b - 00/00 8/8 99 400").unwrap();
    assert_eq!(
        l.terminal(true, 1).unwrap().termination,
        Termination::MaxLength
    );
    // No legal turn (§8.2, a hand-made position): Blue's only ship is a
    // PIRATE whose eight leaps land on Red ships while attacks are not yet
    // allowed (Red has deployed 2), and Blue's reserve is empty.
    let stuck =
        Position::parse("8/8/2d1d3/1d3d2/3P4/1d3d2/2d1d3/8 b fpjbsg 00/00 8/2 0 30").unwrap();
    assert!(!stuck.has_legal_move());
    assert_eq!(stuck.count_legal(), 0);
    let o = stuck.terminal(false, 1).unwrap();
    assert_eq!(
        (o.result, o.termination),
        (GameResult::BlackWin, Termination::NoMoves)
    );
    let alone = Position::parse("8/8/8/8/8/8/8/P6f b - 00/00 8/8 0 30").unwrap();
    assert!(alone.has_legal_move());
    // Winning by elimination: seed 125 of perft.txt, the BRIG un-anchors and sinks Red's
    // last ship.
    let w = Position::parse("6f1/1P6/8/8/2G@5/8/8/8 b - 00/00 8/8 0 66").unwrap();
    let m = w.parse_move("-c4,c4xg8").unwrap();
    assert!(w.is_winning_move(m));
    let after = w.play(m);
    let o = after.terminal(after.has_legal_move(), 1).unwrap();
    assert_eq!(
        (o.result, o.termination),
        (GameResult::WhiteWin, Termination::Elimination)
    );
}

/// Readers never panic: seeded random mutations of valid position strings
/// and move texts are either read or refused with a message.
#[test]
fn readers_refuse_mutations_without_panicking() {
    let mut rng = game::SplitMix::new(99);
    let alphabet: Vec<char> = "0123456789/@+-x=,. bFPDJBSGCfpdjbsgcahr".chars().collect();
    let positions = [
        "8/8/2p2b@2/8/3F@4/8/1B2j3/8 r PJSGCfdsgc 10/00 3/3 0 7",
        "6/1C4/3P2/6/3b@1f/2d3 r JBpc 00/11 6/6 0 21",
        "16/16/2G13/16/2d@13/16/5j@7s2/16/3S3p6P1/B15/f15/16/16/16/16/5C10 b - 00/00 8/8 6 58",
    ];
    let turns = ["-f6,f6-f2", "c6xd4=,+e2", "J@d4=F", "+d4,d3-d4=P", "e2-e4"];
    let mutate = |rng: &mut game::SplitMix, s: &str| {
        let mut chars: Vec<char> = s.chars().collect();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(chars.len() as u64 + 1) as usize;
            let c = alphabet[rng.below(alphabet.len() as u64) as usize];
            match rng.below(3) {
                0 if i < chars.len() => chars[i] = c,
                1 if i < chars.len() => {
                    chars.remove(i);
                }
                _ => chars.insert(i, c),
            }
        }
        chars.into_iter().collect::<String>()
    };
    let mut read = 0;
    for _ in 0..3000 {
        let base = positions[rng.below(3) as usize];
        let text = mutate(&mut rng, base);
        if let Ok(p) = Position::parse(&text) {
            read += 1;
            // What is read writes back exactly (one string per position).
            assert_eq!(p.to_text(), text);
            assert_eq!(p.count_legal_moves(), {
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                v.len() as u64
            });
        }
    }
    let p = Position::parse(positions[0]).unwrap();
    for _ in 0..3000 {
        let base = turns[rng.below(turns.len() as u64) as usize];
        let text = mutate(&mut rng, base);
        if let Ok(m) = p.parse_move(&text) {
            assert!(p.is_legal(m), "{text}");
        }
    }
    assert!(read > 0, "some mutations are valid positions");
}
