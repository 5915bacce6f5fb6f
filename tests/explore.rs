//! `triad explore` and `triad openings --html` end to end: the JSON API
//! against `triad openings --format json` on the same shards, bad requests
//! and bad shards, and the page in a real browser (headless Chromium through
//! chromedriver): a click on a move changes the board and the move table to
//! the expected position and counts, on the server's page and on the static
//! file. Screenshots for the docs: `TRIAD_SCREENSHOTS=DIR`.

use crate::common::{json, succeeds, triad};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Two generations of random Connect Four games (synthetic shards of
/// `triad bench data`) in a run directory's layout.
fn run_dir(root: &Path) -> PathBuf {
    let run = root.join("run");
    for (generation, seed) in [(0, "1"), (1, "2")] {
        let dir = run.join(format!("games/gen-{generation:04}"));
        succeeds(&[
            "bench",
            "data",
            "--game",
            "connect4",
            "--positions",
            "3000",
            "--shard-rows",
            "1500",
            "--seed",
            seed,
            "--dir",
            dir.to_str().unwrap(),
            "--json",
        ]);
    }
    run
}

/// A running `triad explore`, killed when dropped.
struct Server {
    child: Child,
    base: String,
    log: Vec<String>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_triad"))
            .arg("explore")
            .args(args)
            .args(["--port", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("triad explore starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let mut log = Vec::new();
        let base = loop {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("explore ended before listening: {log:?}"))
                .expect("stderr line");
            if let Some(rest) = line.strip_prefix("listening on ") {
                break rest
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .trim_end_matches('/')
                    .to_string();
            }
            log.push(line);
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server { child, base, log }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        match ureq::get(&format!("{}{path}", self.base)).call() {
            Ok(r) => (r.status(), r.into_json().expect("JSON")),
            Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
            Err(e) => panic!("GET {path}: {e}"),
        }
    }

    fn status(&self, path: &str) -> u16 {
        match ureq::get(&format!("{}{path}", self.base)).call() {
            Ok(r) => r.status(),
            Err(ureq::Error::Status(code, _)) => code,
            Err(e) => panic!("GET {path}: {e}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The explorer's count of each move from a line (by line or by position).
fn move_counts(server: &Server, line: &[u64], by: &str, extra: &str) -> Vec<(String, u64)> {
    let codes: Vec<String> = line.iter().map(|c| c.to_string()).collect();
    let (status, v) = server.get(&format!(
        "/api/position?start=0&line={}&by={by}{extra}",
        codes.join(",")
    ));
    assert_eq!(status, 200, "{v}");
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["text"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Connect Four moves are columns 1..=7; their codes are the column - 1.
fn codes_of(line: &str) -> Vec<u64> {
    line.split_whitespace()
        .map(|m| m.parse::<u64>().unwrap() - 1)
        .collect()
}

#[test]
fn the_api_counts_what_openings_counts() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_dir(dir.path());
    let r = run.to_str().unwrap();
    let tree = json(&triad(&["openings", r, "--plies", "3", "--format", "json"]));
    let server = Server::start(&[r]);
    assert!(
        server.log.iter().any(|l| l.starts_with("indexed ")),
        "{:?}",
        server.log
    );
    let (_, info) = server.get("/api/info");
    assert_eq!(info["game"], "connect4");
    assert_eq!(info["groups"], serde_json::json!(["gen 0000", "gen 0001"]));
    assert_eq!(info["warnings"], serde_json::json!([]));

    // Every line of the tree: its games equal the explorer's count of its
    // last move from its parent line (by line), and to depth 2, where no
    // two lines transpose, by position as well.
    let lines = tree["lines"].as_array().unwrap();
    assert!(lines.len() > 40, "{} lines", lines.len());
    for l in lines {
        let text = l["line"].as_str().unwrap();
        let codes = codes_of(text);
        let (parent, last) = codes.split_at(codes.len() - 1);
        let want = l["games"].as_u64().unwrap();
        let last_text = (last[0] + 1).to_string();
        let mut bys = vec!["line"];
        if codes.len() <= 2 {
            bys.push("position");
        }
        for by in bys {
            let counts = move_counts(&server, parent, by, "");
            let got = counts.iter().find(|(t, _)| *t == last_text).map(|c| c.1);
            assert_eq!(got, Some(want), "line {text} by {by}: {counts:?}");
        }
    }
    // The root total is every game of the shards.
    let (_, root) = server.get("/api/position?start=0&line=");
    assert_eq!(root["games"], tree["games"]);
    assert_eq!(root["game_count"], tree["games"]);

    // By position, a transposed position counts the games of both orders.
    let via = |a: &str| {
        let counts = move_counts(&server, &codes_of(a), "position", "");
        counts.iter().map(|c| c.1).sum::<u64>()
    };
    let by_line = |a: &str| {
        let counts = move_counts(&server, &codes_of(a), "line", "");
        counts.iter().map(|c| c.1).sum::<u64>()
    };
    let (x, y) = ("1 2 3", "3 2 1");
    assert_eq!(via(x), via(y));
    assert_eq!(via(x), by_line(x) + by_line(y));

    // One generation: the same as openings --generations.
    let gen1 = json(&triad(&[
        "openings",
        r,
        "--plies",
        "1",
        "--format",
        "json",
        "--generations",
        "1",
    ]));
    let counts = move_counts(&server, &[], "line", "&from=1&to=1");
    for l in gen1["lines"].as_array().unwrap() {
        let t = l["line"].as_str().unwrap();
        let got = counts.iter().find(|(m, _)| m == t).map(|c| c.1);
        assert_eq!(got, l["games"].as_u64(), "generation 1, move {t}");
    }
    // Per-group counts of every move add up to the filtered total.
    let (_, root) = server.get("/api/position?start=0&line=&from=1&to=1");
    assert_eq!(root["games"], gen1["games"]);
    let totals = root["group_totals"].as_array().unwrap();
    assert_eq!(totals[1], gen1["games"]);

    // A game through the root, replayed: one drawing per ply and the end.
    let first = &root["game_list"][0];
    let index = first["index"].as_u64().unwrap();
    let (status, g) = server.get(&format!("/api/game?index={index}"));
    assert_eq!(status, 200, "{g}");
    let plies = g["plies"].as_array().unwrap();
    assert_eq!(plies.len() as u64, g["length"].as_u64().unwrap() + 1);
    assert!(plies
        .iter()
        .all(|p| p["svg"].as_str().unwrap().starts_with("<svg")));
    assert!(plies[0]["visits"].as_array().unwrap().len() > 1);

    // Bad requests: 400 with a message; nothing but the API and the page.
    for (path, words) in [
        ("/api/position?start=0&line=9", "not legal"),
        ("/api/position?start=0&line=x", "not a move code"),
        ("/api/position?start=7", "no start position"),
        ("/api/position?by=diagonal", "by"),
        ("/api/game?index=99999999", "no game"),
    ] {
        let (status, v) = server.get(path);
        assert_eq!(status, 400, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{path}: {v}");
    }
    for path in ["/../Cargo.toml", "/run/games", "/api", "/etc/passwd"] {
        assert_eq!(server.status(path), 404, "{path}");
    }
    assert_eq!(server.status("/"), 200);
}

#[test]
fn a_corrupt_shard_is_skipped_with_a_warning_and_bad_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = run_dir(dir.path());
    let bad = run.join("games/gen-0001/zz-broken.parquet");
    std::fs::write(&bad, b"PAR1 this is not parquet").unwrap();
    let server = Server::start(&[run.to_str().unwrap()]);
    assert!(
        server.log.iter().any(|l| l.contains("zz-broken.parquet")),
        "{:?}",
        server.log
    );
    let (_, info) = server.get("/api/info");
    let warnings = info["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].as_str().unwrap().contains("zz-broken.parquet"));
    assert_eq!(info["shards"], 4);
    drop(server);

    let r = run.to_str().unwrap();
    let out = triad(&["explore", r, "--net", "no-such.safetensors", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--net"));
    let out = triad(&["explore", "no-such-dir", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let indexed = json(&triad(&["explore", r, "--index-only"]));
    assert_eq!(indexed["warnings"], 1);
    assert!(indexed["rows"].as_u64().unwrap() >= 6000);
}

/// A GET with extra headers: the status, the JSON body (or null) and the
/// `Set-Cookie` header.
fn get_with(url: &str, headers: &[(&str, &str)]) -> (u16, Value, Option<String>) {
    let mut req = ureq::get(url);
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let read = |r: ureq::Response| {
        let cookie = r.header("set-cookie").map(str::to_string);
        let text = r.into_string().unwrap_or_default();
        (serde_json::from_str(&text).unwrap_or(Value::Null), cookie)
    };
    match req.call() {
        Ok(r) => {
            let code = r.status();
            let (v, c) = read(r);
            (code, v, c)
        }
        Err(ureq::Error::Status(code, r)) => {
            let (v, c) = read(r);
            (code, v, c)
        }
        Err(e) => panic!("GET {url}: {e}"),
    }
}

/// Serving a team: with a token every route asks for it (401 and a JSON
/// error without it or with a wrong one; served with it in the URL, which
/// sets the page's cookie, in the cookie, or as a bearer header); `net:`
/// takes the names of the --models checkpoints, never a path; searches
/// past the bound are answered 429, and a search gives its slot back when
/// it ends.
#[test]
fn a_shared_explorer_asks_for_its_token_names_its_networks_and_bounds_searches() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(models.join("alpha.safetensors"), b"not a checkpoint").unwrap();
    let token = "team-secret-1";
    let server = Server::start(&[
        "--game",
        "connect4",
        "--token",
        token,
        "--models",
        models.to_str().unwrap(),
        "--max-searches-per-client",
        "1",
    ]);
    let base = &server.base;
    for path in [
        "/",
        "/api/info",
        "/api/info?token=team-secret-2",
        "/favicon.ico",
    ] {
        let (status, v, _) = get_with(&format!("{base}{path}"), &[]);
        assert_eq!(status, 401, "{path}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("token"),
            "{path}: {v}"
        );
    }
    let (status, _, _) = get_with(
        &format!("{base}/api/info"),
        &[("Authorization", "Bearer team-secret-2")],
    );
    assert_eq!(status, 401);
    let (status, v, _) = get_with(
        &format!("{base}/api/info"),
        &[("Authorization", "Bearer team-secret-1")],
    );
    assert_eq!((status, v["game"].as_str()), (200, Some("connect4")));
    let (status, _, cookie) = get_with(&format!("{base}/?token={token}"), &[]);
    assert_eq!(status, 200);
    let cookie = cookie.expect("the page sets its cookie");
    let pair = cookie.split(';').next().unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let (status, _, _) = get_with(&format!("{base}/api/info"), &[("Cookie", pair)]);
    assert_eq!(status, 200, "{pair}");

    // net: by name only.
    let analyse = |player: &str| {
        get_with(
            &format!("{base}/api/analyse?token={token}&player={player}&visits=16000000"),
            &[],
        )
    };
    for player in [
        "net:/etc/passwd,sims=8",
        "net:alpha.safetensors",
        "net:../models/alpha",
        "net:beta",
    ] {
        let (status, v, _) = analyse(player);
        assert_eq!(status, 400, "{player}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains("not a network offered") && e.contains("alpha"),
            "{player}: {e}"
        );
    }
    let reply = |player: &str| match ureq::post(&format!("{base}/api/play/reply"))
        .set("Authorization", &format!("Bearer {token}"))
        .send_json(serde_json::json!({"moves": [], "player": player}))
    {
        Ok(r) => (r.status(), r.into_json::<Value>().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
        Err(e) => panic!("POST reply: {e}"),
    };
    let (status, v) = reply(models.join("alpha.safetensors").to_str().unwrap());
    assert_eq!(status, 400, "{v}");
    let (status, v) = reply(&format!("net:{}", models.join("alpha").display()));
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not a network offered"),
        "{v}"
    );
    // A name offered is found (this file is no checkpoint: it fails to load).
    let (status, v) = reply("net:alpha,sims=8");
    assert_eq!(status, 400, "{v}");
    assert!(
        !v["error"]
            .as_str()
            .unwrap()
            .contains("not a network offered"),
        "{v}"
    );

    // One search per client: a second is 429 while the first runs (3
    // million playouts: seconds).
    let url = format!("{base}/api/analyse?token={token}&player=mcts:sims=1000&visits=3000000");
    let first = ureq::get(&url).call().expect("the first analysis");
    assert_eq!(first.status(), 200);
    let (status, v, _) = get_with(&url, &[]);
    assert_eq!(status, 429, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("too many searches"),
        "{v}"
    );
    let (status, v) = reply("random");
    assert_eq!(status, 429, "{v}");
    // Closed, the analysis stops and its slot comes back.
    drop(first);
    let deadline = Instant::now() + Duration::from_secs(20);
    while reply("random").0 == 429 {
        assert!(
            Instant::now() < deadline,
            "the closed analysis kept its slot"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);

    // Beyond loopback without --token: a token is made and printed.
    let server = Server::start(&["--game", "connect4", "--bind", "0.0.0.0"]);
    let line = server
        .log
        .iter()
        .find(|l| l.contains("?token="))
        .expect("the URL with the token");
    let made = line
        .split("?token=")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(made.len(), 64, "{line}");
    assert!(made.chars().all(|c| c.is_ascii_hexdigit()), "{line}");
    assert_eq!(server.status("/api/info"), 401);
    assert_eq!(server.status(&format!("/api/info?token={made}")), 200);
    let (status, v) = {
        let (s, v, _) = get_with(
            &format!(
                "{}/api/analyse?token={made}&player=net:/etc/passwd",
                server.base
            ),
            &[],
        );
        (s, v)
    };
    assert_eq!(status, 400, "{v}");
}

// ---- The browser ----------------------------------------------------------

/// chromedriver on a free port, with one headless Chromium session.
struct Browser {
    driver: Child,
    url: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// `None` (having said why) when chromium or chromedriver is missing
    /// and TRIAD_REQUIRE_BROWSER is not set.
    fn start() -> Option<Browser> {
        let found = |name: &str| {
            Command::new(name)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !(found("chromedriver") && found("chromium")) {
            let msg = "chromium and chromedriver are not installed (make setup installs them: apt-get install chromium chromium-driver)";
            if std::env::var_os("TRIAD_REQUIRE_BROWSER").is_some() {
                panic!("{msg}");
            }
            eprintln!("skipping the browser test: {msg}");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{url}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,1000"]
        }}}});
        let mut b = Browser {
            driver,
            url,
            session: String::new(),
        };
        let v = b.post("/session", caps);
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        Some(b)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let url = if self.session.is_empty() {
            format!("{}{path}", self.url)
        } else {
            format!("{}/session/{}{path}", self.url, self.session)
        };
        let r = match ureq::post(&url).send_json(body) {
            Ok(r) => r,
            Err(ureq::Error::Status(code, r)) => {
                panic!(
                    "webdriver {path}: {code} {}",
                    r.into_string().unwrap_or_default()
                )
            }
            Err(e) => panic!("webdriver {path}: {e}"),
        };
        let v: Value = r.into_json().unwrap();
        v["value"].clone()
    }

    fn go(&self, url: &str) {
        self.post("/url", serde_json::json!({ "url": url }));
    }

    fn script(&self, code: &str) -> Value {
        self.post(
            "/execute/sync",
            serde_json::json!({ "script": code, "args": [] }),
        )
    }

    /// Waits until `code` returns something other than `null`/`false`.
    fn wait_for(&self, code: &str, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self.script(code);
            if !v.is_null() && v != Value::Bool(false) {
                return v;
            }
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        let e = self.post(
            "/element",
            serde_json::json!({"using": "css selector", "value": css}),
        );
        let id = e[ELEMENT].as_str().expect("the element").to_string();
        self.post(&format!("/element/{id}/click"), serde_json::json!({}));
    }

    fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("TRIAD_SCREENSHOTS") else {
            return;
        };
        let r = ureq::get(&format!("{}/session/{}/screenshot", self.url, self.session))
            .call()
            .unwrap();
        let v: Value = r.into_json().unwrap();
        let png = base64_decode(v["value"].as_str().unwrap());
        std::fs::write(Path::new(&dir).join(name), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = ureq::delete(&format!("{}/session/{}", self.url, self.session)).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| val(c) as u32).collect();
        let n = v.iter().fold(0u32, |a, &x| a << 6 | x) << (6 * (4 - v.len()));
        out.extend_from_slice(&n.to_be_bytes()[1..v.len()]);
    }
    out
}

/// The move table as the page shows it: (move, games) per row.
const TABLE: &str = "const rows = [...document.querySelectorAll('#moves tbody tr[data-code]')];
  return rows.length ? rows.map(r => [r.dataset.text, +r.dataset.games]) : null;";

/// Loads `url`, checks the first table against `root`, clicks the most
/// played move and checks the board and the table against `after`.
fn click_through(b: &Browser, url: &str, root: &[(String, u64)], after: &Value, shot: &str) {
    b.go(url);
    let table = b.wait_for(TABLE, "the move table");
    let shown: Vec<(String, u64)> = serde_json::from_value(table).unwrap();
    assert_eq!(shown, root, "the first page's move table");
    let before = b.script("return document.body.dataset.position");
    assert_ne!(
        before.as_str(),
        after["position"].as_str(),
        "the start first"
    );
    assert!(b
        .script("return document.querySelector('#board svg') !== null")
        .as_bool()
        .unwrap());
    b.screenshot(&format!("{shot}-start.png"));
    let code = after["line"][0].as_u64().unwrap();
    b.click(&format!("#moves tbody tr[data-code='{code}']"));
    let want_position = after["position"].as_str().unwrap();
    b.wait_for(
        &format!("return document.body.dataset.position === {want_position:?}"),
        "the position after the click",
    );
    let table: Vec<(String, u64)> =
        serde_json::from_value(b.wait_for(TABLE, "the new table")).unwrap();
    let want: Vec<(String, u64)> = after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["text"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(table, want, "the move table after the click");
    // The board drew the new position: one more stone than before.
    let discs = b.script(
        "return [...document.querySelectorAll('#board svg circle')].filter(c => ['#e8c31a', '#d3302f'].includes(c.getAttribute('fill'))).length",
    );
    assert_eq!(discs, 1, "one stone on the board after one move");
    let crumbs = b.script("return document.getElementById('crumbs').textContent");
    assert!(
        crumbs.as_str().unwrap().contains(&(code + 1).to_string()),
        "{crumbs}"
    );
    b.screenshot(&format!("{shot}-after.png"));
}

#[test]
fn a_browser_clicks_a_move_and_the_board_and_table_follow() {
    let Some(b) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = run_dir(dir.path());
    let r = run.to_str().unwrap();
    let server = Server::start(&[r]);

    let root = move_counts(&server, &[], "position", "");
    let best = {
        let (_, v) = server.get("/api/position?start=0&line=");
        v["moves"][0]["code"].as_u64().unwrap()
    };
    let (_, after) = server.get(&format!("/api/position?start=0&line={best}"));
    click_through(&b, &format!("{}/", server.base), &root, &after, "explore");

    // The game list opens a game in the viewer, which steps forward.
    b.click("#games tbody tr");
    b.wait_for(
        "return document.getElementById('viewer').style.display === 'flex' && document.querySelector('#viewer-board svg') !== null",
        "the game viewer",
    );
    b.click("#v-next");
    b.wait_for(
        "return document.querySelector('#viewer-moves span.now') !== null",
        "the viewer's next ply",
    );
    b.screenshot("explore-viewer.png");
    drop(server);

    // The static page: the same tree by line, no server.
    let html = dir.path().join("tree.html");
    succeeds(&[
        "openings",
        r,
        "--plies",
        "2",
        "--html",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(!page.contains("/*TRIAD_STATIC*/null"));
    let server = Server::start(&[r]);
    let root = move_counts(&server, &[], "line", "");
    let (_, after) = server.get(&format!("/api/position?start=0&line={best}&by=line"));
    drop(server);
    click_through(
        &b,
        &format!("file://{}", html.display()),
        &root,
        &after,
        "static",
    );
}

// ---- Play and analysis in the browser ---------------------------------------

/// Sets the value of the input `id` as a person typing would.
fn set_input(b: &Browser, id: &str, value: &str) {
    b.script(&format!(
        "const e = document.getElementById({id:?}); e.value = {value:?}; e.dispatchEvent(new Event('change')); return true;"
    ));
}

/// Waits (up to `secs`) until `code` returns something other than
/// `null`/`false`.
fn wait_long(b: &Browser, code: &str, what: &str, secs: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = b.script(code);
        if !v.is_null() && v != Value::Bool(false) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited in vain for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The person's turn (legal moves shown) or the game's end: `"move"` or
/// `"over"`.
const TURN: &str = "const over = document.getElementById('play-status').dataset.over === '1';
  if (over) return 'over';
  const status = document.getElementById('play-status').textContent;
  if (status.startsWith('the opponent:')) return 'error: ' + status;
  return document.querySelectorAll('#legal button').length > 0 ? 'move' : null;";

/// Plays the person's side in the page until the game ends: at each turn
/// the legal move `pick(number of legal moves)` of the buttons shown.
/// Answers the moves of the game as the page holds them.
fn play_to_the_end(
    b: &Browser,
    mut pick: impl FnMut(usize) -> usize,
    max_plies: usize,
) -> Vec<String> {
    for _ in 0..max_plies {
        let turn = wait_long(b, TURN, "the person's turn or the end", 120);
        let turn = turn.as_str().unwrap().to_string();
        assert!(!turn.starts_with("error"), "{turn}");
        if turn == "over" {
            let moves = b.script("return document.body.dataset.playMoves");
            return serde_json::from_str(moves.as_str().unwrap()).unwrap();
        }
        let n = b
            .script("return document.querySelectorAll('#legal button').length")
            .as_u64()
            .unwrap() as usize;
        let i = pick(n);
        let before = b
            .script("return JSON.parse(document.body.dataset.playMoves || '[]').length")
            .as_u64()
            .unwrap();
        b.click(&format!("#legal button:nth-child({})", i + 1));
        wait_long(
            b,
            &format!(
                "return JSON.parse(document.body.dataset.playMoves || '[]').length > {before}"
            ),
            "the move to be played",
            60,
        );
    }
    panic!("the game did not end in {max_plies} plies");
}

/// A Connect Four game from a position text against the solver, the person
/// playing the first legal move shown each turn: every reply of the solver
/// is a best move by the solver's own scores (`triad analysis --player
/// solver` on each position it replied in). Take back returns to the
/// person's last turn.
#[test]
fn a_browser_plays_connect_four_against_the_solver_from_a_position() {
    let Some(b) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = run_dir(dir.path());
    let games = dir.path().join("played");
    let server = Server::start(&[
        run.to_str().unwrap(),
        "--games-dir",
        games.to_str().unwrap(),
    ]);
    b.go(&format!("{}/", server.base));
    b.wait_for(TABLE, "the explorer");
    let start = "4435443353";
    set_input(&b, "play-text", start);
    set_input(&b, "opponent", "solver");
    set_input(&b, "human", "white");
    b.click("#play-from-text");
    b.wait_for(
        &format!("return document.body.dataset.playPosition === {start:?}"),
        "the board of the position text",
    );
    // Take back: the person's move and the solver's reply go.
    b.click("#legal button:nth-child(1)");
    wait_long(
        &b,
        "return JSON.parse(document.body.dataset.playMoves || '[]').length === 2 && document.querySelectorAll('#legal button').length > 0",
        "the solver's reply",
        120,
    );
    b.click("#takeback");
    wait_long(
        &b,
        "return document.body.dataset.playMoves === '[]' && document.querySelectorAll('#legal button').length > 0",
        "the take-back",
        30,
    );
    let moves = play_to_the_end(&b, |_| 0, 40);
    b.screenshot("play-c4.png");
    assert!(moves.len() >= 2, "{moves:?}");
    // The solver moved at the odd plies (the person is White, to move).
    let turns: Vec<usize> = (1..moves.len()).step_by(2).collect();
    let query = serde_json::json!({
        "id": "g", "initialPosition": start, "moves": moves, "analyzeTurns": turns,
    });
    let out = crate::common::triad_with_input(
        &["analysis", "--game", "connect4", "--player", "solver"],
        &format!("{query}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), turns.len(), "{answers:?}");
    for a in &answers {
        let turn = a["turnNumber"].as_u64().unwrap() as usize;
        let infos = a["moveInfos"].as_array().unwrap();
        let best = infos.iter().map(|m| m["score"].as_i64().unwrap()).max();
        let played = infos
            .iter()
            .find(|m| m["move"] == moves[turn].as_str())
            .unwrap_or_else(|| panic!("turn {turn}: {} not among {infos:?}", moves[turn]));
        assert_eq!(
            played["score"].as_i64(),
            best,
            "turn {turn}: the solver played {} but a better move exists: {a}",
            moves[turn]
        );
    }
}

/// A PiRaTeKnIcS game from the start against `ab:depth=1` to its end, the
/// person's moves drawn by a seeded generator from the legal moves shown;
/// saved; the record replays (`triad replay`) to the same moves, result
/// and final position, and the shard holds one row per move. Bad requests
/// to the play endpoints are answered with JSON errors naming what was
/// wrong, and the server goes on.
#[test]
fn a_browser_plays_piratechnics_against_alpha_beta_to_the_end_and_saves_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("prun");
    succeeds(&[
        "bench",
        "data",
        "--game",
        "piratechnics",
        "--positions",
        "400",
        "--shard-rows",
        "400",
        "--seed",
        "1",
        "--dir",
        run.join("games/gen-0000").to_str().unwrap(),
        "--json",
    ]);
    let games = dir.path().join("played");
    let server = Server::start(&[
        run.to_str().unwrap(),
        "--games-dir",
        games.to_str().unwrap(),
    ]);
    // Bad input: a JSON error naming it, never a crash.
    let post = |path: &str, body: &str| -> (u16, Value) {
        match ureq::post(&format!("{}{path}", server.base))
            .set("Content-Type", "application/json")
            .send_string(body)
        {
            Ok(r) => (r.status(), r.into_json().unwrap()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap_or(Value::Null)),
            Err(e) => panic!("POST {path}: {e}"),
        }
    };
    for (path, body, words) in [
        ("/api/play/board", r#"{"moves":["z9-z9"]}"#, "moves: move 1"),
        (
            "/api/play/board",
            r#"{"position":"not a position"}"#,
            "position:",
        ),
        ("/api/play/board", r#"{"moves":"#, "request body"),
        (
            "/api/play/reply",
            r#"{"moves":[],"player":"chess:deep"}"#,
            "player:",
        ),
        (
            "/api/play/reply",
            r#"{"moves":[],"player":"solver"}"#,
            "solver",
        ),
        (
            "/api/play/reply",
            r#"{"moves":[],"player":"net:/no/such.safetensors,sims=8"}"#,
            "player:",
        ),
        (
            "/api/play/save",
            r#"{"moves":[],"white":"a","black":"b"}"#,
            "nothing to save",
        ),
    ] {
        let (status, v) = post(path, body);
        assert_eq!(status, 400, "{path} {body}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains(words),
            "{path} {body}: {v}"
        );
    }
    for (query, words) in [
        ("moves=%5B%22z9-z9%22%5D&player=random", "moves:"),
        ("moves=x&player=random", "moves:"),
        ("player=mcts:sims=x", "player:"),
        ("player=random&visits=0", "visits"),
        ("player=random&every=0", "every"),
        ("moves=%5B%5D", "query"),
        ("player=net:/no/such.safetensors,sims=8", "player"),
    ] {
        let (status, v) = server.get(&format!("/api/analyse?{query}"));
        assert_eq!(status, 400, "{query}: {v}");
        assert!(v["error"].as_str().unwrap().contains(words), "{query}: {v}");
    }
    let Some(b) = Browser::start() else {
        return;
    };
    b.go(&format!("{}/", server.base));
    b.wait_for(TABLE, "the explorer");
    set_input(&b, "opponent", "ab:depth=1");
    set_input(&b, "human", "white");
    b.click("#play-start");
    b.wait_for(
        "return document.querySelectorAll('#legal button').length > 0",
        "the legal moves",
    );
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let moves = play_to_the_end(
        &b,
        |n| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        },
        2000,
    );
    let position = b.script("return document.body.dataset.playPosition");
    let status = b.script("return document.getElementById('play-status').textContent");
    b.click("#save");
    let record = b.wait_for(
        "const e = document.getElementById('saved-record'); return e ? e.textContent : null",
        "the saved game",
    );
    let shard = b.script("return document.getElementById('saved-shard').textContent");
    b.screenshot("play-pirate.png");
    let replayed = json(&succeeds(&["replay", record.as_str().unwrap(), "--json"]));
    assert_eq!(replayed["plies"], moves.len(), "{replayed}");
    // The record's moves are the page's, with the game's marks (`#`, `+`).
    let marked: Vec<String> = replayed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().trim_end_matches(['+', '#']).to_string())
        .collect();
    assert_eq!(marked, moves);
    assert_eq!(replayed["final_tfen"], position);
    let result = replayed["result"].as_str().unwrap();
    assert_ne!(result, "*", "the game ended: {status}");
    assert!(
        status.as_str().unwrap().contains(result),
        "the page's end {status} is the record's {result}"
    );
    // Take back from the end: the person's last move and the reply go; an
    // analysis of the position with MCTS marks its moves on the board.
    b.click("#takeback");
    wait_long(
        &b,
        &format!(
            "return JSON.parse(document.body.dataset.playMoves).length === {} && document.querySelectorAll('#legal button').length > 0",
            moves.len() - 2 + moves.len() % 2
        ),
        "the take-back",
        30,
    );
    set_input(&b, "analyst", "mcts:sims=400");
    set_input(&b, "visits", "400");
    b.click("#analyse");
    wait_long(
        &b,
        "return document.getElementById('analysis-status').dataset.done === '1'",
        "the analysis",
        120,
    );
    let shown: u64 = serde_json::from_value::<Vec<u64>>(b.script(
        "return [...document.querySelectorAll('#analysis tbody tr')].map(r => +r.dataset.visits)",
    ))
    .unwrap()
    .iter()
    .sum();
    assert!(shown > 300, "the table shows the search's visits: {shown}");
    b.screenshot("analysis-pirate.png");
    let summary = json(&succeeds(&[
        "data",
        "info",
        shard.as_str().unwrap(),
        "--json",
    ]));
    succeeds(&["data", "verify", shard.as_str().unwrap()]);
    assert_eq!(summary["positions"], moves.len(), "{summary}");
}

/// An analysis with a network in the page: the table updates during the
/// search (at least twice, its visits growing), and its final visits are
/// `triad analysis`'s answer for the same position, player and visits;
/// the network's raw view and the solver's values stand beside it.
#[test]
fn a_browser_analyses_with_a_network_and_the_table_grows_to_the_engines_answer() {
    let Some(b) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = run_dir(dir.path());
    let train = dir.path().join("train");
    succeeds(&[
        "train",
        "--config",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/configs/connect4-quickstart.toml"
        ),
        "--data",
        run.to_str().unwrap(),
        "--out",
        train.to_str().unwrap(),
        "--generations",
        "0",
        "--steps",
        "1",
        "--json",
    ]);
    let ckpt = train.join("checkpoints/step-00000001.safetensors");
    assert!(ckpt.exists());
    let player = format!("net:{},sims=300", ckpt.display());
    let (start, visits) = ("4435443353", 4000);
    let server = Server::start(&[run.to_str().unwrap()]);
    b.go(&format!("{}/", server.base));
    b.wait_for(TABLE, "the explorer");
    set_input(&b, "play-text", start);
    set_input(&b, "human", "both");
    b.click("#play-from-text");
    b.wait_for(
        &format!("return document.body.dataset.playPosition === {start:?}"),
        "the board of the position text",
    );
    b.click("#legal button:nth-child(4)");
    let moves = wait_long(
        &b,
        "const m = JSON.parse(document.body.dataset.playMoves || '[]'); return m.length === 1 ? m : null",
        "the move",
        30,
    );
    set_input(&b, "analyst", &player);
    set_input(&b, "visits", &visits.to_string());
    set_input(&b, "every", "0.02");
    b.click("#analyse");
    wait_long(
        &b,
        "const a = document.getElementById('analysis-status'); return a.dataset.done === '1' && !document.getElementById('analysis-root').textContent.includes('solving')",
        "the end of the analysis and the solver",
        300,
    );
    b.screenshot("analysis-c4.png");
    let log: Vec<Value> = serde_json::from_str(
        b.script("return document.getElementById('analysis').dataset.log")
            .as_str()
            .unwrap(),
    )
    .unwrap();
    let during: Vec<u64> = log
        .iter()
        .filter(|e| e["during"] == true)
        .map(|e| e["table"].as_u64().unwrap())
        .collect();
    assert!(
        during.len() >= 2,
        "the table updated during the search: {log:?}"
    );
    assert!(
        during.windows(2).all(|w| w[0] < w[1]),
        "its visits grow: {log:?}"
    );
    let last = log.last().unwrap();
    assert_eq!(last["during"], false, "{log:?}");
    // A report during the search may already hold every visit (the
    // search can end between the interval's tick and the final answer),
    // so the final table holds at least the last report's visits.
    assert!(
        during.last().unwrap() <= &last["table"].as_u64().unwrap(),
        "the final table holds at least the visits of the last report: {log:?}"
    );
    let table: Vec<(String, u64)> = serde_json::from_value(b.script(
        "return [...document.querySelectorAll('#analysis tbody tr')].filter(r => +r.dataset.visits > 0).map(r => [r.dataset.move, +r.dataset.visits])",
    ))
    .unwrap();
    // The same query to the analysis engine.
    let query = serde_json::json!({
        "id": "a", "initialPosition": start, "moves": moves, "maxVisits": visits,
    });
    let out = crate::common::triad_with_input(
        &["analysis", "--game", "connect4", "--player", &player],
        &format!("{query}\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want: Vec<(String, u64)> = answer["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["visits"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(table, want, "the page's final table is the engine's answer");
    // The network's raw view and the solver beside the search: a prior and
    // a solver value on every legal move's row.
    let filled = b.script(
        "return [...document.querySelectorAll('#analysis tbody tr')].map(r => [r.children[5].textContent !== '', r.children[6].textContent !== ''])",
    );
    let filled: Vec<(bool, bool)> = serde_json::from_value(filled).unwrap();
    assert_eq!(filled.len(), 7, "every column of the rack: {filled:?}");
    assert!(filled.iter().all(|&(p, s)| p && s), "{filled:?}");
    let root = b.script("return document.getElementById('analysis-root').textContent");
    assert!(root.as_str().unwrap().contains("network ("), "{root}");
    assert!(root.as_str().unwrap().contains("solver: a "), "{root}");
}

/// `triad explore --game` without data: the page opens at the game's start,
/// and the play routes alone play a whole game (both sides by players, the
/// second `random`, the first the solver), save it, and the record replays
/// to the same game.
#[test]
fn without_shards_the_play_routes_play_and_save_a_game_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("played");
    let server = Server::start(&["--game", "connect4", "--games-dir", games.to_str().unwrap()]);
    let (_, info) = server.get("/api/info");
    assert_eq!(info["games"], 0);
    assert_eq!(info["starts"], serde_json::json!([""]), "{info}");
    let post = |path: &str, body: Value| -> Value {
        match ureq::post(&format!("{}{path}", server.base)).send_json(body) {
            Ok(r) => r.into_json().unwrap(),
            Err(e) => panic!("POST {path}: {e}"),
        }
    };
    let mut moves: Vec<String> = Vec::new();
    let board = loop {
        let board = post("/api/play/board", serde_json::json!({ "moves": moves }));
        if !board["outcome"].is_null() {
            break board;
        }
        // The solver from ply 12 on (fast), random before.
        let player = if moves.len() < 12 { "random" } else { "solver" };
        let r = post(
            "/api/play/reply",
            serde_json::json!({ "moves": moves, "player": player }),
        );
        assert_eq!(r["board"]["moves"][moves.len()], r["move"], "{r}");
        moves.push(r["move"].as_str().unwrap().to_string());
        assert!(moves.len() <= 42);
    };
    let saved = post(
        "/api/play/save",
        serde_json::json!({ "moves": moves, "white": "random", "black": "random" }),
    );
    let replayed = json(&succeeds(&[
        "replay",
        saved["record"].as_str().unwrap(),
        "--json",
    ]));
    assert_eq!(replayed["moves"], serde_json::json!(moves));
    assert_eq!(replayed["final_tfen"], board["position"]);
    assert_eq!(replayed["result"], board["result"]);
}
