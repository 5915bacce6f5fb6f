use plot::{render, Panel};

/// A grid of panels renders to SVG (or, without a font on this machine,
/// says how to get one); a file name of another kind is refused.
#[test]
fn curves_render_to_svg_and_other_names_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let loss: Vec<(f64, f64)> = (1..=20)
        .map(|s| (s as f64 * 10.0, 5.0 / s as f64))
        .collect();
    let panels = vec![
        Panel::new("Loss", "step")
            .y_label("cross-entropy + MSE (nats)")
            .with("total", loss.clone())
            .with("policy", loss.iter().map(|&(x, y)| (x, 0.8 * y)).collect()),
        Panel::new("Elo", "generation").with("elo", vec![(0.0, 0.0), (1.0, 35.0)]),
    ];
    let bad = render(&panels, &tmp.path().join("curves.jpg")).unwrap_err();
    assert!(bad.to_string().contains(".svg or .png"), "{bad}");
    assert_eq!(
        render(&[], &tmp.path().join("none.svg"))
            .unwrap_err()
            .to_string(),
        "nothing to plot"
    );
    let out = tmp.path().join("curves.svg");
    match render(&panels, &out) {
        Ok(()) => {
            let svg = std::fs::read_to_string(&out).unwrap();
            assert!(
                svg.contains("<svg") && svg.contains("Elo"),
                "{}",
                &svg[..200.min(svg.len())]
            );
        }
        // No TrueType font on this machine: the error says how to get one.
        Err(e) => assert!(e.to_string().contains("TRIAD_FONT"), "{e}"),
    }
}
