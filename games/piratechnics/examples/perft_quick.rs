fn main() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/perft.txt")).unwrap();
    let maxd: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(3);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(';');
        let tfen = parts.next().unwrap().trim();
        let pos = piratechnics::Position::from_tfen(tfen).unwrap();
        for p in parts {
            let mut w = p.split_whitespace();
            let d: usize = w.next().unwrap()[1..].parse().unwrap();
            let n: u64 = w.next().unwrap().parse().unwrap();
            if d > maxd {
                continue;
            }
            let t = std::time::Instant::now();
            let got = piratechnics::perft(&pos, d as u32);
            println!(
                "{} d{} want {} got {} {:?}",
                if got == n { "ok  " } else { "FAIL" },
                d,
                n,
                got,
                t.elapsed()
            );
        }
    }
}
