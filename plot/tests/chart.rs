use plot::{first_move_svg, ChartBar};

#[test]
fn svg_chart_has_a_bar_and_a_dot_per_move_and_escapes_labels() {
    let bars = vec![
        ChartBar {
            label: "d2-d4".into(),
            share: 0.6,
            score: 0.55,
        },
        ChartBar {
            label: "a<b&c".into(),
            share: 0.4,
            score: 0.25,
        },
    ];
    let svg = first_move_svg(&bars);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<circle").count(), 2);
    assert_eq!(svg.matches("fill=\"#2e86c1\"").count(), 2);
    assert!(svg.contains(">d2-d4</text>"));
    assert!(svg.contains("a&lt;b&amp;c") && !svg.contains("a<b"));
}

/// A chart path of another kind is refused before any work, naming the
/// flag; a chart without bars is refused; a PNG is written whole (or,
/// without a font on this machine, the error says how to get one).
#[test]
fn chart_paths_and_empty_charts_are_refused_and_png_is_written() {
    use plot::{check_chart_path, write_first_move_chart, Error};
    let e = check_chart_path(std::path::Path::new("first.jpg")).unwrap_err();
    assert!(matches!(e, Error::ChartFormat { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "--chart first.jpg: the file must end in .svg or .png"
    );
    assert!(check_chart_path(std::path::Path::new("first.png")).is_ok());
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("first.svg");
    let e = write_first_move_chart(&svg, &[]).unwrap_err();
    assert_eq!(e.to_string(), "no first moves to chart");
    let bars = [ChartBar {
        label: "d2-d4".into(),
        share: 1.0,
        score: 0.5,
    }];
    write_first_move_chart(&svg, &bars).unwrap();
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let png = tmp.path().join("first.png");
    match write_first_move_chart(&png, &bars) {
        Ok(()) => {
            let bytes = std::fs::read(&png).unwrap();
            assert_eq!(&bytes[1..4], b"PNG");
        }
        Err(e) => assert!(e.to_string().contains("TRIAD_FONT"), "{e}"),
    }
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file is left behind");
}
