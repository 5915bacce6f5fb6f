//! The store API against a local directory and a real S3 server (SeaweedFS,
//! started per test by `store::testing`; the S3 half is skipped, saying so,
//! when `weed` is not installed, and fails under TRIAD_REQUIRE_S3=1).

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use store::testing::SeaweedFs;
use store::{Fetched, PutOutcome, Store};

/// Where a test's runs live: `open(prefix)` gives the run `prefix`.
enum Backend {
    Local(tempfile::TempDir),
    S3(SeaweedFs),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Local(_) => "local",
            Backend::S3(_) => "s3",
        }
    }

    fn open(&self, prefix: &str) -> Store {
        match self {
            Backend::Local(dir) => Store::open(dir.path().join(prefix).to_str().unwrap()).unwrap(),
            Backend::S3(s3) => s3.open(prefix).unwrap(),
        }
    }
}

/// Runs `test` against a local directory, then against SeaweedFS.
fn each_backend(test: impl Fn(&Backend)) {
    let local = Backend::Local(tempfile::tempdir().unwrap());
    test(&local);
    if let Some(s3) = SeaweedFs::start() {
        let s3 = Backend::S3(s3);
        test(&s3);
    }
}

#[test]
fn put_if_absent_race_has_one_winner() {
    each_backend(|backend| {
        let n = 8;
        let barrier = Arc::new(Barrier::new(n));
        let stores: Vec<Store> = (0..n).map(|_| backend.open("race")).collect();
        let outcomes: Vec<(usize, PutOutcome)> = std::thread::scope(|s| {
            let handles: Vec<_> = stores
                .iter()
                .enumerate()
                .map(|(i, store)| {
                    let barrier = barrier.clone();
                    s.spawn(move || {
                        let bytes = format!("writer {i} ").repeat(1000).into_bytes();
                        barrier.wait();
                        (i, store.put_new("shards/000001.parquet", bytes).unwrap())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let winners: Vec<usize> = outcomes
            .iter()
            .filter(|(_, o)| *o == PutOutcome::Created)
            .map(|(i, _)| *i)
            .collect();
        let losers = outcomes
            .iter()
            .filter(|(_, o)| *o == PutOutcome::AlreadyExists)
            .count();
        assert_eq!(
            winners.len(),
            1,
            "{}: outcomes {outcomes:?}",
            backend.name()
        );
        assert_eq!(losers, n - 1, "{}", backend.name());
        let got = stores[0].get("shards/000001.parquet").unwrap().unwrap();
        assert_eq!(
            got,
            format!("writer {} ", winners[0]).repeat(1000).into_bytes(),
            "{}",
            backend.name()
        );
        // A later put-if-absent still finds it there.
        assert_eq!(
            stores[3]
                .put_new("shards/000001.parquet", b"late".to_vec())
                .unwrap(),
            PutOutcome::AlreadyExists
        );
    });
}

#[test]
fn put_get_list_delete_and_prefix_isolation() {
    each_backend(|backend| {
        let name = backend.name();
        let a = backend.open("runs/a");
        let b = backend.open("runs/b");
        assert_eq!(a.get("shards/000001.parquet").unwrap(), None, "{name}");
        assert!(a.list("").unwrap().is_empty(), "{name}");
        assert!(a.list("shards").unwrap().is_empty(), "{name}");

        for (key, len) in [
            ("shards/000002.parquet", 20),
            ("shards/000001.parquet", 10),
            ("ckpt/000001/model", 5),
        ] {
            assert_eq!(
                a.put_new(key, vec![7; len]).unwrap(),
                PutOutcome::Created,
                "{name} {key}"
            );
        }
        a.put("LATEST", b"000001".to_vec()).unwrap();
        b.put_new("shards/000009.parquet", vec![1; 3]).unwrap();

        let keys = |s: &Store, p: &str| -> Vec<(String, u64)> {
            s.list(p)
                .unwrap()
                .into_iter()
                .map(|l| (l.key, l.size))
                .collect()
        };
        let own = |v: &[(&str, u64)]| {
            v.iter()
                .map(|(k, n)| (k.to_string(), *n))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            keys(&a, ""),
            own(&[
                ("LATEST", 6),
                ("ckpt/000001/model", 5),
                ("shards/000001.parquet", 10),
                ("shards/000002.parquet", 20)
            ]),
            "{name}"
        );
        assert_eq!(
            keys(&a, "shards"),
            own(&[("shards/000001.parquet", 10), ("shards/000002.parquet", 20)]),
            "{name}"
        );
        assert_eq!(keys(&a, "shards/"), keys(&a, "shards"), "{name}");
        assert_eq!(keys(&b, ""), own(&[("shards/000009.parquet", 3)]), "{name}");

        assert_eq!(
            a.get("shards/000002.parquet").unwrap(),
            Some(vec![7; 20]),
            "{name}"
        );
        assert_eq!(a.get("LATEST").unwrap(), Some(b"000001".to_vec()), "{name}");
        a.put("LATEST", b"000002".to_vec()).unwrap();
        assert_eq!(a.get("LATEST").unwrap(), Some(b"000002".to_vec()), "{name}");
        assert_eq!(b.get("LATEST").unwrap(), None, "{name}");

        a.delete("shards/000001.parquet").unwrap();
        a.delete("shards/000001.parquet").unwrap(); // missing: not an error
        assert_eq!(a.get("shards/000001.parquet").unwrap(), None, "{name}");
        assert_eq!(
            keys(&a, "shards"),
            own(&[("shards/000002.parquet", 20)]),
            "{name}"
        );
        assert_eq!(keys(&b, ""), own(&[("shards/000009.parquet", 3)]), "{name}");

        let bad = a.get("../escape").unwrap_err();
        assert!(!bad.is_transient(), "{name}: {bad}");
    });
}

#[test]
fn get_if_changed_follows_the_etag() {
    each_backend(|backend| {
        let name = backend.name();
        let s = backend.open("etag");
        assert_eq!(
            s.get_if_changed("LATEST", None).unwrap(),
            Fetched::Missing,
            "{name}"
        );
        assert_eq!(
            s.get_if_changed("LATEST", Some("\"nope\"")).unwrap(),
            Fetched::Missing,
            "{name}"
        );
        s.put("LATEST", b"000001".to_vec()).unwrap();
        let Fetched::Changed {
            bytes,
            etag: Some(etag),
        } = s.get_if_changed("LATEST", None).unwrap()
        else {
            panic!("{name}: want Changed with an etag")
        };
        assert_eq!(bytes, b"000001", "{name}");
        assert_eq!(
            s.get_if_changed("LATEST", Some(&etag)).unwrap(),
            Fetched::NotModified,
            "{name}"
        );
        s.put("LATEST", b"0000002".to_vec()).unwrap();
        let Fetched::Changed {
            bytes,
            etag: Some(etag2),
        } = s.get_if_changed("LATEST", Some(&etag)).unwrap()
        else {
            panic!("{name}: want Changed after a put")
        };
        assert_eq!(bytes, b"0000002", "{name}");
        assert_ne!(etag, etag2, "{name}");
        assert_eq!(
            s.get_if_changed("LATEST", Some(&etag2)).unwrap(),
            Fetched::NotModified,
            "{name}"
        );
    });
}

fn unreachable() -> Store {
    Store::open_with(
        "s3://b/p",
        &[
            ("AWS_ENDPOINT", "http://127.0.0.1:1"),
            ("AWS_ALLOW_HTTP", "true"),
            ("AWS_ACCESS_KEY_ID", "k"),
            ("AWS_SECRET_ACCESS_KEY", "s"),
            ("AWS_REGION", "us-east-1"),
        ],
    )
    .unwrap()
}

#[test]
fn unreachable_store_is_transient_and_retry_backs_off() {
    let s = unreachable();
    let start = Instant::now();
    let e = s.get("LATEST").unwrap_err();
    assert!(e.is_transient(), "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        e.to_string().contains("s3://b/p") && e.to_string().contains("LATEST"),
        "{e}"
    );
    let e = s.put_new("shards/1", vec![1]).unwrap_err();
    assert!(e.is_transient(), "{e}");
    let e = s.list("").unwrap_err();
    assert!(e.is_transient(), "{e}");

    let max_wait = Duration::from_secs(4);
    let mut said: Vec<(u32, Duration)> = Vec::new();
    let mut calls = 0;
    let start = Instant::now();
    let e = s
        .retry(
            max_wait,
            |attempt, err, delay| {
                assert!(err.is_transient());
                eprintln!("store unreachable, retrying in {delay:?} (attempt {attempt}): {err}");
                said.push((attempt, delay));
            },
            |s| {
                calls += 1;
                s.get("LATEST")
            },
        )
        .unwrap_err();
    let took = start.elapsed();
    assert!(e.is_transient(), "{e}");
    assert!(said.len() >= 2, "{said:?}");
    assert_eq!(calls as usize, said.len() + 1);
    assert_eq!(said[0], (1, Duration::from_millis(500)));
    assert_eq!(said[1], (2, Duration::from_secs(1)));
    for w in said.windows(2) {
        assert_eq!(w[1].0, w[0].0 + 1);
    }
    let waited: Duration = said.iter().map(|(_, d)| *d).sum();
    assert!(waited <= max_wait, "{said:?}");
    assert!(
        took >= max_wait && took < max_wait + Duration::from_secs(8),
        "took {took:?}"
    );

    // Non-transient errors return at once.
    let mut calls = 0;
    let e = s
        .retry(
            max_wait,
            |_, _, _| panic!("no wait for a non-transient error"),
            |s| {
                calls += 1;
                s.get("")
            },
        )
        .unwrap_err();
    assert!(!e.is_transient(), "{e}");
    assert_eq!(calls, 1);

    // Success after transient failures.
    let mut calls = 0;
    let v = s
        .retry(
            max_wait,
            |_, _, _| {},
            |s| {
                calls += 1;
                if calls < 3 {
                    s.get("LATEST").map(|_| 0)
                } else {
                    Ok(42)
                }
            },
        )
        .unwrap();
    assert_eq!((v, calls), (42, 3));
}

#[test]
fn bad_urls_are_errors_naming_them() {
    for url in ["ftp://x", "s3://", "s3:///p", "http//x://", "gs://"] {
        match Store::open(url) {
            Ok(s) => panic!("{url} opened as {s:?}"),
            Err(e) => {
                assert!(e.to_string().contains(url), "{url}: {e}");
                assert!(!e.is_transient(), "{url}: {e}");
            }
        }
    }
}

#[test]
fn local_paths_and_file_urls() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("new/run");
    let s = Store::open(plain.to_str().unwrap()).unwrap();
    assert!(s.is_local() && plain.is_dir());
    assert_eq!(s.url(), plain.to_str().unwrap());
    s.put_new("shards/000001.parquet", b"x".to_vec()).unwrap();
    assert!(plain.join("shards/000001.parquet").is_file());

    let url = format!("file://{}", plain.display());
    let f = Store::open(&url).unwrap();
    assert!(f.is_local());
    assert_eq!(f.url(), url);
    assert_eq!(f.get("shards/000001.parquet").unwrap(), Some(b"x".to_vec()));
    assert_eq!(f.list("").unwrap().len(), 1);
}
