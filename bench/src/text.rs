//! The text form of each harness's figures, as `triad bench …` prints it
//! without `--json` (the JSON form is their serde form). Each `text()` is
//! the whole of stdout, lines ended by `\n`.

use std::fmt::Write;

use crate::data::DataFigures;
use crate::learn::LearnFigures;
use crate::model::ModelFigures;
use crate::pons::PonsFigures;
use crate::search::SearchFigures;
use crate::selfplay::SelfplayFigures;
use crate::train::TrainFigures;

// `writeln!` into a String cannot fail: its results are ignored below.

impl DataFigures {
    /// `triad bench data`'s table.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let f = self;
        let _ = writeln!(
            s,
            "positions          {} in {} games, {} shards",
            f.positions, f.games, f.shards
        );
        let _ = writeln!(
            s,
            "write              {:.0} rows/s ({:.2} s)",
            f.rows_written_per_s, f.write_s
        );
        let _ = writeln!(
            s,
            "read (all columns) {:.0} rows/s ({:.2} s)",
            f.rows_read_per_s, f.read_s
        );
        let _ = writeln!(
            s,
            "on disk            {} bytes, {:.1} bytes/position",
            f.bytes_on_disk, f.bytes_per_position
        );
        let _ = writeln!(
            s,
            "openings           {:.2} s for {} plies ({} tree nodes)",
            f.openings_s, f.openings_plies, f.openings_nodes
        );
        s
    }
}

impl LearnFigures {
    /// `triad bench learn`'s curves, a point a line, and the plot's path.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for r in &self.runs {
            let _ = writeln!(s, "{} ({}):", r.name, r.config);
            for p in &r.curve {
                let _ = writeln!(
                    s,
                    "  {}",
                    serde_json::to_value(p).expect("points serialize to JSON")
                );
            }
        }
        let _ = writeln!(s, "{}", self.plot);
        s
    }
}

impl ModelFigures {
    /// `triad bench model`'s table, a batch size a line.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let f = self;
        let _ = writeln!(
            s,
            "network: {} ({} parameters) on {}, {} threads",
            f.shape, f.parameters, f.device, f.threads
        );
        let _ = writeln!(
            s,
            "{:>6} {:>9} {:>12} {:>18} {:>14}",
            "batch", "precision", "evals/s", "evals/s no-encode", "encode share"
        );
        for r in &f.batches {
            let _ = writeln!(
                s,
                "{:>6} {:>9} {:>12.1} {:>18.1} {:>13.1}%",
                r.batch,
                r.precision.name(),
                r.evals_per_s,
                r.evals_per_s_no_encode,
                r.encode_share * 100.0
            );
        }
        for a in &f.accuracy {
            let _ = writeln!(
                s,
                "{} against fp32 on {} positions: policy total variation mean {:.5} (max {:.5}), expected score difference mean {:.5} (max {:.5}), same top move {:.1}%",
                a.precision.name(),
                a.positions,
                a.policy_tv_mean,
                a.policy_tv_max,
                a.value_diff_mean,
                a.value_diff_max,
                a.top_move_agreement * 100.0
            );
        }
        s
    }
}

impl PonsFigures {
    /// `triad bench pons`'s Markdown table, a file a line.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "player {}", self.player);
        let _ = writeln!(s, "| file | stage | positions | errors | error rate |");
        let _ = writeln!(s, "| --- | --- | ---: | ---: | ---: |");
        for r in &self.files {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.1}% |",
                r.file,
                r.stage,
                r.positions,
                r.errors,
                100.0 * r.error_rate
            );
        }
        for r in &self.files {
            for m in &r.missed {
                let _ = writeln!(
                    s,
                    "{} #{}: {} played {}, right {}",
                    r.file,
                    m.number,
                    m.position,
                    m.played,
                    m.right.join(" ")
                );
            }
        }
        s
    }
}

impl SearchFigures {
    /// `triad bench search`'s lines: each position, then the totals.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let f = self;
        // `{:>9}` and the like pad nothing on a JSON value (its Display
        // ignores the width): the numbers stand unpadded, as they always have.
        for p in &f.positions {
            let _ = writeln!(
                s,
                "{} nodes {} nps depth {}  {}",
                p.nodes, p.nps, p.depth, p.position
            );
        }
        let _ = writeln!(
            s,
            "middle-game: {} nodes in {:.2} s = {} nodes/s",
            f.nodes, f.seconds, f.nps
        );
        let _ = writeln!(
            s,
            "start position: depth {} completed in {} ms ({} nodes)",
            f.start_depth, f.start_movetime_ms, f.start_nodes
        );
        s
    }
}

impl SelfplayFigures {
    /// `triad bench selfplay`'s lines.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let f = self;
        let _ = writeln!(
            s,
            "batch {} (half the games in flight) on {}, libtorch threads {}",
            f.batch, f.device, f.threads
        );
        let _ = writeln!(
            s,
            "raw forward:      {:>10.0} evals/s (inputs ready; {:.0} encoding on the same thread)",
            f.raw_evals_per_s, f.raw_with_encoding_evals_per_s
        );
        let _ = writeln!(
            s,
            "self-play:        {:>10.0} evals/s, mean batch {:.1}, network busy {:.1}% of the time",
            f.selfplay_evals_per_s,
            f.mean_batch,
            100.0 * f.network_busy
        );
        let _ = writeln!(
            s,
            "ratio:            {:>10.3}  (self-play / raw forward)",
            f.ratio
        );
        let _ = writeln!(
            s,
            "padded moves:     {:>10.1} a batch in self-play, {:.1} in the raw phases (the policy head's width)",
            f.padded_moves.selfplay, f.padded_moves.raw
        );
        if let Some(p) = &f.owner_encoding {
            let _ = writeln!(
                s,
                "owner encoding:   {:>10.0} evals/s, ratio {:.3}, network busy {:.1}% (--compare: encoding on the network's thread)",
                p.selfplay_evals_per_s,
                p.ratio,
                100.0 * p.network_busy
            );
        }
        let _ = writeln!(
            s,
            "positions/hour:   {:>10.0}; games/hour: {}",
            f.positions_per_hour,
            f.games_per_hour
                .map(|g| format!(
                    "{g:.0} (at {:.0} plies per game)",
                    f.plies_per_game.unwrap_or(0.0)
                ))
                .unwrap_or_else(|| "no game finished yet".into())
        );
        s
    }
}

impl TrainFigures {
    /// `triad bench train`'s lines, for `slices` slices of `seconds` in all
    /// per phase.
    pub fn text(&self, slices: usize, seconds: f64) -> String {
        let mut s = String::new();
        let f = self;
        let [raw_min, raw_max] = f.raw_samples_per_s_range;
        let [real_min, real_max] = f.train_samples_per_s_range;
        let [ratio_min, ratio_max] = f.ratio_range;
        let _ = writeln!(
            s,
            "batch {}, device {}, {} threads, {} rows, {} slices of {:.1} s per phase",
            f.batch_size,
            f.device,
            f.threads,
            f.window_rows,
            slices,
            seconds / slices as f64
        );
        let _ = writeln!(
            s,
            "raw step (batch in memory): {:>9.0} samples/s  [{raw_min:.0}, {raw_max:.0}]",
            f.raw_samples_per_s
        );
        let _ = writeln!(
            s,
            "training loop (window):     {:>9.0} samples/s  [{real_min:.0}, {real_max:.0}]",
            f.train_samples_per_s
        );
        let _ = writeln!(
            s,
            "ratio (pair by pair):       {:>9.3}  [{ratio_min:.3}, {ratio_max:.3}]",
            f.ratio
        );
        let _ = writeln!(
            s,
            "encoding alone (one thread): {:>8.0} samples/s",
            f.encode_samples_per_s
        );
        s
    }
}
