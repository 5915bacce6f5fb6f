use data::chart::{first_move_svg, ChartBar};

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
