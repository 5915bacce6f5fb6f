//! The inventor's records as he wrote them (RULES.md §9.2): analysis lines
//! that put `if` after the move number are skipped, and words after a move
//! that are not suffixes are a comment, kept with a warning, never an error.

use piratechnics::{parse_record, replay, Position, RecordItem, Replay, Termination};

/// A data file of the repository (panics naming it when missing).
fn repo_file(rel: &str) -> String {
    game::read_repo_file(env!("CARGO_MANIFEST_DIR"), rel)
}

fn replays(text: &str) -> Replay {
    replay(Position::start(), text).unwrap_or_else(|e| panic!("{e}\n--- record:\n{text}"))
}

/// The move texts of a record.
fn moves(text: &str) -> Vec<String> {
    parse_record(text)
        .into_iter()
        .filter_map(|item| match item {
            RecordItem::Move { text, .. } => Some(text),
            RecordItem::Resigns { .. } => None,
        })
        .collect()
}

/// The sample game with, after move 30, an analysis line of Black's
/// alternative that puts `if` after the move number (with its `then` and
/// `and` lines), and `forced` after White's 31st move (in check, with
/// two legal replies). Returns the text and the line of `forced`.
fn annotated_sample(text: &str) -> (String, usize) {
    let mut out = Vec::new();
    let (mut analysis, mut forced) = (false, None);
    for line in text.lines() {
        if line.trim_start().starts_with("31)") {
            let with = line.replacen("c1<KN>-b1,", "c1<KN>-b1 forced,", 1);
            assert_ne!(with, line, "move 31 of the sample game is not c1<KN>-b1");
            out.push(with);
            forced = Some(out.len());
            continue;
        }
        out.push(line.to_string());
        if line.trim_start().starts_with("30)") {
            out.push("30)\t\t\tif\td4R-d1 *;".to_string());
            out.push("then\t31)\tc1K x d1R,\t\tf2<QBN>-e2 *;".to_string());
            out.push("and\t32)\td1K-c1 forced,\te2<QBN>-c3;".to_string());
            analysis = true;
        }
    }
    assert!(analysis, "the sample game has no line for move 30");
    (
        out.join("\n"),
        forced.expect("the sample game has a line for move 31"),
    )
}

#[test]
fn annotated_sample_game_replays_like_the_sample_game() {
    let text = repo_file("games/piratechnics/vectors/sample-game-1.txt");
    let (annotated, forced_line) = annotated_sample(&text);
    let plain = replays(&text);
    let r = replays(&annotated);
    assert_eq!(
        r.game.position().to_tfen(),
        plain.game.position().to_tfen(),
        "final position"
    );
    assert_eq!(r.result_str(), plain.result_str());
    assert_eq!(r.result_str(), "0-1");
    assert_eq!(r.termination(), plain.termination());
    assert_eq!(r.termination(), Termination::Resignation);
    let canonical =
        |r: &Replay| -> Vec<String> { r.plies.iter().map(|p| p.canonical.clone()).collect() };
    assert_eq!(canonical(&r), canonical(&plain), "the same moves");
    assert_eq!(plain.warnings, Vec::<String>::new());
    // The only warning is the comment, naming its line.
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    let w = &r.warnings[0];
    assert!(w.contains(&format!("line {forced_line})")), "{w}");
    assert!(w.contains("\"forced\""), "{w}");
    let ply = &r.plies[60];
    assert_eq!(ply.text, "c1<KN>-b1 forced");
    assert_eq!(ply.marks.comment.as_deref(), Some("forced"));
}

#[test]
fn analysis_line_with_if_after_the_move_number_is_skipped() {
    let record = "1)\td2<PPP>-d4,\t\td7<PPP>-d5;\n\
                  1)\t\t\tif\td7K x c7P;\n\
                  then 2) c2<PPP>-c4,\td8K x c8Q;\n\
                  and 3) zz-top\n\
                  or 3) b1N-c3;\n\
                  2)  If  e2<PPP>-e4;\n\
                  2)\tc2<PPP>-c4,\t\td5P x c4P;\n";
    assert_eq!(
        moves(record),
        ["d2<PPP>-d4", "d7<PPP>-d5", "c2<PPP>-c4", "d5P x c4P"]
    );
    let r = replays(record);
    assert_eq!(r.plies.len(), 4);
    assert_eq!(r.warnings, Vec::<String>::new());
}

#[test]
fn a_word_after_a_move_is_a_comment() {
    let pos = Position::start();
    let plain = pos.parse_move("d2-d4").unwrap();
    for (text, comment, check) in [
        ("d2<PPP>-d4 forced", "forced", false),
        ("d2<PPP>-d4 * forced", "forced", true),
        ("d2<PPP>-d4 forced *", "forced", true),
        (
            "d2<PPP>-d4! n.b. the usual start.",
            "n.b. the usual start.",
            false,
        ),
        (
            "d2<PPP>-d4 illegal move because ...",
            "illegal move because ...",
            false,
        ),
    ] {
        let (m, marks) = pos
            .parse_inventor(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m, plain, "{text}");
        assert_eq!(marks.comment.as_deref(), Some(comment), "{text}");
        assert_eq!(marks.check, check, "{text}");
        assert!(!marks.mate, "{text}");
    }
    // Captures with `own`, a spaced captured kind and a comment.
    let own = pos.parse_move("b1Rxb2P").unwrap();
    for text in [
        "b1R x b2 own P forced",
        "b1R x b2 P forced",
        "b1R x b2P forced",
    ] {
        let (m, marks) = pos.parse_inventor(text).unwrap();
        assert_eq!(m, own, "{text}");
        assert_eq!(marks.comment.as_deref(), Some("forced"), "{text}");
    }
    // Suffixes alone are no comment.
    for text in [
        "d2<PPP>-d4",
        "d2<PPP>-d4 *",
        "d2<PPP>-d4 [**] ?",
        "d2-d4+",
        "d2-d4.",
    ] {
        let (_, marks) = pos.parse_inventor(text).unwrap();
        assert_eq!(marks.comment, None, "{text}");
    }
    // Glued to the move, it is a malformed move; a lone move takes no comment.
    assert!(pos.parse_inventor("d2<PPP>-d4forced").is_err());
    let e = pos.parse_move("d2-d4 forced").unwrap_err();
    assert!(e.to_string().contains("unexpected \"forced\""), "{e}");
}

#[test]
fn a_comment_is_a_warning_naming_its_line() {
    let record = "Justt Ogive\tYouso Meidea\n\
                  1)\td2<PPP>-d4,\t\td7<PPP>-d5 forced;\n\
                  2)\tc2<PPP>-c4, n.b. the usual gambit, d5P x c4P;\n";
    let r = replays(record);
    assert_eq!(r.plies.len(), 4);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("line 2)"), "{}", r.warnings[0]);
    assert!(r.warnings[0].contains("Black"), "{}", r.warnings[0]);
    assert!(r.warnings[0].contains("\"forced\""), "{}", r.warnings[0]);
    assert!(r.warnings[1].contains("line 3)"), "{}", r.warnings[1]);
    assert!(
        r.warnings[1].contains("\"n.b. the usual gambit\""),
        "{}",
        r.warnings[1]
    );
    assert_eq!(r.plies[1].marks.comment.as_deref(), Some("forced"));
    assert_eq!(r.plies[2].text, "c2<PPP>-c4, n.b. the usual gambit");
    assert_eq!(r.plies[3].text, "d5P x c4P");
}

#[test]
fn the_sample_games_own_variations_read_as_moves_with_comments() {
    let text = repo_file("games/piratechnics/vectors/sample-game-1.txt");
    // Its last lines, numbered as moves: the comment runs past a comma.
    let variation = "33)\td2K-d1,\t\te3P(N) x f2N ** n.b capture must be of knight, not bishop;";
    let illegal =
        "33)\td2<KN>-b1, illegal move because it immediately reverses black's previous move.";
    assert_eq!(
        moves(variation),
        [
            "d2K-d1",
            "e3P(N) x f2N ** n.b capture must be of knight, not bishop"
        ]
    );
    assert_eq!(
        moves(illegal),
        ["d2<KN>-b1, illegal move because it immediately reverses black's previous move."]
    );
    // Played instead of the resignation, the first ends in mate.
    let mut lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim_start().starts_with("33)"))
        .collect();
    lines.push(variation);
    let r = replays(&lines.join("\n"));
    assert_eq!(r.plies.len(), 66);
    assert_eq!(r.result_str(), "0-1");
    assert_eq!(r.termination(), Termination::Checkmate);
    let last = r.plies.last().unwrap();
    assert!(last.mate && last.marks.mate);
    assert_eq!(
        last.marks.comment.as_deref(),
        Some("n.b capture must be of knight, not bishop")
    );
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.warnings[0].contains(&format!("line {})", lines.len())),
        "{}",
        r.warnings[0]
    );
}
