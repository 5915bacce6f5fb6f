//! A small blocking API over the Apache Arrow [`object_store`] crate, so that
//! a triad run can live at `s3://bucket/prefix`, `gs://bucket/prefix`,
//! `az://container/prefix`, `file:///abs/path` or a plain local path.
//!
//! Every call blocks on the store's own current-thread tokio runtime, so the
//! callers (self-play workers, the trainer) stay synchronous. Keys are
//! relative to the run's prefix (`shards/000123.parquet`, `LATEST`).
//!
//! Publishing follows the run layout of the architecture: immutable objects
//! are written whole with [`Store::put_new`] (put-if-absent, one `PUT` with
//! `If-None-Match: *` on S3, an atomic hard link on a local disk), only the
//! one-writer `LATEST` hint is overwritten ([`Store::put`]). Objects are
//! always uploaded in one request (no multipart upload): shards and
//! checkpoints are a few MB, and one request keeps put-if-absent atomic on
//! every store.
//!
//! Failures are [`StoreError`]s that say whether they are transient
//! (connection refused, timeouts, 5xx); [`Store::retry`] waits those out with
//! exponential backoff. The store's own retries are kept short (2 retries,
//! 2 s connect timeout) so that an unreachable store fails within seconds and
//! [`Store::retry`] does the waiting, with messages. See `docs/scale-out.md`.

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::TryStreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::{AzureConfigKey, MicrosoftAzure, MicrosoftAzureBuilder};
use object_store::client::{HttpError, HttpErrorKind};
use object_store::gcp::{GoogleCloudStorage, GoogleCloudStorageBuilder, GoogleConfigKey};
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::prefix::PrefixStore;
use object_store::{
    BackoffConfig, ClientConfigKey, GetOptions, ObjectStore, ObjectStoreExt, ObjectStoreScheme,
    PutMode, PutOptions, PutPayload, RetryConfig,
};

#[cfg(feature = "testing")]
pub mod testing;

/// A run's storage: an object store, the run's key prefix in it, and a
/// current-thread runtime the blocking calls run on.
pub struct Store {
    inner: Arc<dyn ObjectStore>,
    /// The run's prefix inside the bucket (empty for a local store, whose
    /// root is the run directory). Kept for messages; `inner` applies it.
    prefix: String,
    url: String,
    local: bool,
    rt: tokio::runtime::Runtime,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("url", &self.url)
            .field("prefix", &self.prefix)
            .field("local", &self.local)
            .finish()
    }
}

/// A failed store operation: the run URL, the key (if any), what failed,
/// and whether it is worth retrying.
#[derive(Debug)]
pub struct StoreError {
    url: String,
    key: Option<String>,
    message: String,
    transient: bool,
}

impl StoreError {
    fn new(url: &str, key: Option<&str>, message: impl Into<String>, transient: bool) -> Self {
        StoreError {
            url: url.to_string(),
            key: key.map(str::to_string),
            message: message.into(),
            transient,
        }
    }

    /// True for errors that may go away by themselves: connection refused
    /// or reset, timeouts, HTTP 5xx and 429. [`Store::retry`] retries these.
    pub fn is_transient(&self) -> bool {
        self.transient
    }

    /// The run URL the failed operation addressed.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The key (relative to the run), when the operation had one.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// What failed, without the URL and key.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "store {}", self.url)?;
        if let Some(key) = &self.key {
            write!(f, " key {key:?}")?;
        }
        write!(f, ": {}", self.message)?;
        if self.transient {
            write!(f, " (transient)")?;
        }
        Ok(())
    }
}

impl StdError for StoreError {}

/// What [`Store::put_new`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutOutcome {
    /// This call created the object.
    Created,
    /// The key already held an object; it was left as it was.
    AlreadyExists,
}

/// What [`Store::get_if_changed`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// The object differs from the etag given (or none was given).
    Changed {
        bytes: Vec<u8>,
        etag: Option<String>,
    },
    /// The object still has the etag given.
    NotModified,
    /// No object at the key.
    Missing,
}

/// One object from [`Store::list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The key relative to the run prefix, e.g. `shards/000001.parquet`.
    pub key: String,
    pub size: u64,
}

/// The URL schemes that name a store rather than a local path.
const URL_SCHEMES: [&str; 8] = [
    "s3://", "s3a://", "gs://", "az://", "abfs://", "file://", "https://", "http://",
];

/// Whether `arg` names a store by URL (`s3://`, `gs://`, `az://`,
/// `file://`, …) rather than a local path.
pub fn is_url(arg: &std::path::Path) -> bool {
    let s = arg.to_string_lossy();
    URL_SCHEMES.iter().any(|p| s.starts_with(p))
}

/// The store's own retry policy: a few quick retries, so that an unreachable
/// store fails within seconds; [`Store::retry`] does the long waiting.
fn quick_retry() -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(1),
            base: 2.0,
        },
        max_retries: 2,
        retry_timeout: Duration::from_secs(5),
    }
}

/// Connect timeout and whole-request timeout, unless the environment sets them.
const CONNECT_TIMEOUT: &str = "2s";
const REQUEST_TIMEOUT: &str = "60s";

/// Reads the error chain: is this worth retrying?
fn is_transient(err: &object_store::Error) -> bool {
    use object_store::Error as E;
    match err {
        E::NotFound { .. }
        | E::AlreadyExists { .. }
        | E::Precondition { .. }
        | E::NotModified { .. }
        | E::PermissionDenied { .. }
        | E::Unauthenticated { .. }
        | E::InvalidPath { .. }
        | E::NotSupported { .. }
        | E::NotImplemented { .. }
        | E::UnknownConfigurationKey { .. } => return false,
        _ => {}
    }
    let mut source: Option<&(dyn StdError + 'static)> = Some(err);
    while let Some(e) = source {
        if let Some(http) = e.downcast_ref::<HttpError>() {
            if matches!(
                http.kind(),
                HttpErrorKind::Connect
                    | HttpErrorKind::Request
                    | HttpErrorKind::Timeout
                    | HttpErrorKind::Interrupted
            ) {
                return true;
            }
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind as K;
            if matches!(
                io.kind(),
                K::ConnectionRefused
                    | K::ConnectionReset
                    | K::ConnectionAborted
                    | K::NotConnected
                    | K::TimedOut
                    | K::Interrupted
                    | K::BrokenPipe
            ) {
                return true;
            }
        }
        // object_store's RetryError (not nameable outside the crate) shows the
        // HTTP status in its text: "non-2xx status code: 503 Service ...", or
        // "Server returned error response" for S3's 200-with-InternalError.
        let text = e.to_string();
        if let Some(rest) = text.split("status code: ").nth(1) {
            let code: String = rest.chars().take(3).collect();
            if code.starts_with('5') || code == "429" {
                return true;
            }
        }
        if text.contains("Server returned error response") {
            return true;
        }
        source = e.source();
    }
    false
}

fn describe(err: &object_store::Error) -> String {
    // object_store's messages already carry their sources; keep them whole.
    err.to_string()
}

/// The S3 store of `url` (`s3://bucket/…`): the environment's settings,
/// then `options` (keys as object_store names them, any case), then our
/// defaults for what neither set: conditional puts by ETag (put-if-absent
/// needs them), the connect and request timeouts; quick retries.
fn s3(url: &str, options: &[(&str, &str)]) -> Result<AmazonS3, object_store::Error> {
    let mut b = AmazonS3Builder::from_env().with_url(url);
    for (k, v) in options {
        if let Ok(key) = k.to_ascii_lowercase().parse() {
            b = b.with_config(key, *v);
        }
    }
    let set_here = options
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("aws_conditional_put"));
    if !set_here && std::env::var_os("AWS_CONDITIONAL_PUT").is_none() {
        b = b.with_config(AmazonS3ConfigKey::ConditionalPut, "etag");
    }
    for (key, value) in [
        (ClientConfigKey::ConnectTimeout, CONNECT_TIMEOUT),
        (ClientConfigKey::Timeout, REQUEST_TIMEOUT),
    ] {
        if b.get_config_value(&AmazonS3ConfigKey::Client(key))
            .is_none()
        {
            b = b.with_config(AmazonS3ConfigKey::Client(key), value);
        }
    }
    b.with_retry(quick_retry()).build()
}

/// The Google Cloud Storage store of `url` (`gs://bucket/…`), set up as
/// [`s3`]'s (no conditional-put setting: GCS has its own).
fn gcs(url: &str, options: &[(&str, &str)]) -> Result<GoogleCloudStorage, object_store::Error> {
    let mut b = GoogleCloudStorageBuilder::from_env().with_url(url);
    for (k, v) in options {
        if let Ok(key) = k.to_ascii_lowercase().parse::<GoogleConfigKey>() {
            b = b.with_config(key, *v);
        }
    }
    for (key, value) in [
        (ClientConfigKey::ConnectTimeout, CONNECT_TIMEOUT),
        (ClientConfigKey::Timeout, REQUEST_TIMEOUT),
    ] {
        if b.get_config_value(&GoogleConfigKey::Client(key)).is_none() {
            b = b.with_config(GoogleConfigKey::Client(key), value);
        }
    }
    b.with_retry(quick_retry()).build()
}

/// The Azure Blob Storage store of `url` (`az://container/…`), set up as
/// [`gcs`]'s.
fn azure(url: &str, options: &[(&str, &str)]) -> Result<MicrosoftAzure, object_store::Error> {
    let mut b = MicrosoftAzureBuilder::from_env().with_url(url);
    for (k, v) in options {
        if let Ok(key) = k.to_ascii_lowercase().parse::<AzureConfigKey>() {
            b = b.with_config(key, *v);
        }
    }
    for (key, value) in [
        (ClientConfigKey::ConnectTimeout, CONNECT_TIMEOUT),
        (ClientConfigKey::Timeout, REQUEST_TIMEOUT),
    ] {
        if b.get_config_value(&AzureConfigKey::Client(key)).is_none() {
            b = b.with_config(AzureConfigKey::Client(key), value);
        }
    }
    b.with_retry(quick_retry()).build()
}

impl Store {
    /// Opens a run at `s3://bucket/prefix`, `gs://bucket/prefix`,
    /// `az://container/prefix` (also the other URL forms object_store
    /// knows for these stores), `file:///abs/path`, or a plain path (a
    /// local directory, created if missing).
    ///
    /// Credentials, endpoints and options come from each store's usual
    /// environment variables (`AWS_ENDPOINT`, `AWS_ALLOW_HTTP`,
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, ...,
    /// `GOOGLE_*`, `AZURE_*`), read by the builders' `from_env`. For S3,
    /// conditional put is on (`AWS_CONDITIONAL_PUT=etag`) unless the
    /// environment says otherwise, so that [`Store::put_new`] sends
    /// `If-None-Match: *`.
    pub fn open(url: &str) -> Result<Store, StoreError> {
        Self::open_with(url, &[])
    }

    /// [`Store::open`] with settings that take precedence over the
    /// environment, named like the environment variables (`AWS_ENDPOINT`,
    /// `AWS_ALLOW_HTTP`, ...) or like object_store's config keys
    /// (`aws_endpoint`, `endpoint`); keys the store does not know are
    /// ignored. Lets tests and tools address a store without changing the
    /// process environment.
    pub fn open_with(url: &str, options: &[(&str, &str)]) -> Result<Store, StoreError> {
        let bad = |msg: String| StoreError::new(url, None, msg, false);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| bad(format!("cannot start the tokio runtime: {e}")))?;
        let text = url.trim();
        if text.is_empty() {
            return Err(bad("empty store URL".into()));
        }

        let has_scheme = text.contains("://");
        if !has_scheme {
            return Self::open_local(url, std::path::PathBuf::from(text), rt);
        }
        let parsed = url::Url::parse(text).map_err(|e| bad(format!("not a valid URL: {e}")))?;
        if parsed.scheme() == "file" {
            let path = parsed
                .to_file_path()
                .map_err(|_| bad("file URL without an absolute local path".into()))?;
            return Self::open_local(url, path, rt);
        }
        let (scheme, prefix) = ObjectStoreScheme::parse(&parsed).map_err(|e| {
            bad(format!(
                "unsupported store URL (want s3://, gs://, az://, file:// or a local path): {e}"
            ))
        })?;
        let build_err =
            |e: object_store::Error| bad(format!("cannot open the store: {}", describe(&e)));
        let store: Arc<dyn ObjectStore> = match scheme {
            ObjectStoreScheme::AmazonS3 => Arc::new(s3(text, options).map_err(build_err)?),
            ObjectStoreScheme::GoogleCloudStorage => {
                Arc::new(gcs(text, options).map_err(build_err)?)
            }
            ObjectStoreScheme::MicrosoftAzure => Arc::new(azure(text, options).map_err(build_err)?),
            other => {
                return Err(bad(format!(
                "unsupported store ({other:?}): want s3://, gs://, az://, file:// or a local path"
            )))
            }
        };
        let store: Arc<dyn ObjectStore> = if prefix.as_ref().is_empty() {
            store
        } else {
            Arc::new(PrefixStore::new(store, prefix.clone()))
        };
        Ok(Store {
            inner: store,
            prefix: prefix.to_string(),
            url: url.to_string(),
            local: false,
            rt,
        })
    }

    fn open_local(
        url: &str,
        dir: std::path::PathBuf,
        rt: tokio::runtime::Runtime,
    ) -> Result<Store, StoreError> {
        let bad = |msg: String| StoreError::new(url, None, msg, false);
        std::fs::create_dir_all(&dir).map_err(|e| {
            bad(format!(
                "cannot create the directory {}: {e}",
                dir.display()
            ))
        })?;
        let abs = std::fs::canonicalize(&dir)
            .map_err(|e| bad(format!("cannot resolve {}: {e}", dir.display())))?;
        let fs = LocalFileSystem::new_with_prefix(&abs).map_err(|e| {
            bad(format!(
                "cannot open {} as a store: {}",
                abs.display(),
                describe(&e)
            ))
        })?;
        Ok(Store {
            inner: Arc::new(fs),
            prefix: String::new(),
            url: url.to_string(),
            local: true,
            rt,
        })
    }

    /// The URL (or path) the store was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// True for a local directory (plain path or `file://`).
    pub fn is_local(&self) -> bool {
        self.local
    }

    fn path(&self, key: &str) -> Result<Path, StoreError> {
        let path = Path::parse(key)
            .map_err(|e| self.err(Some(key), format!("invalid key: {e}"), false))?;
        if path.as_ref().is_empty() {
            return Err(self.err(Some(key), "empty key", false));
        }
        Ok(path)
    }

    fn err(&self, key: Option<&str>, message: impl Into<String>, transient: bool) -> StoreError {
        StoreError::new(&self.url, key, message, transient)
    }

    fn fail(&self, key: Option<&str>, what: &str, e: object_store::Error) -> StoreError {
        self.err(key, format!("{what}: {}", describe(&e)), is_transient(&e))
    }

    /// Put-if-absent of a whole object, in one request (`PutMode::Create`:
    /// `If-None-Match: *` on S3, `x-goog-if-generation-match: 0` on GCS, Azure's
    /// `If-None-Match: *`, an atomic hard link of a fully written file on a
    /// local disk). A key that already holds an object gives
    /// `Ok(PutOutcome::AlreadyExists)` and leaves the object as it was.
    pub fn put_new(&self, key: &str, bytes: Vec<u8>) -> Result<PutOutcome, StoreError> {
        let path = self.path(key)?;
        let payload = PutPayload::from(bytes);
        // S3 answers 409 Conflict (mapped by object_store to AlreadyExists)
        // when another conditional write to the key is in flight, and that
        // write may still fail: confirm that the object is there, and try
        // again (a few times) if it is not.
        for _ in 0..5 {
            let opts = PutOptions {
                mode: PutMode::Create,
                ..Default::default()
            };
            match self
                .rt
                .block_on(self.inner.put_opts(&path, payload.clone(), opts))
            {
                Ok(_) => return Ok(PutOutcome::Created),
                Err(object_store::Error::AlreadyExists { .. }) => {
                    match self.rt.block_on(self.inner.head(&path)) {
                        Ok(_) => return Ok(PutOutcome::AlreadyExists),
                        Err(object_store::Error::NotFound { .. }) => {
                            std::thread::sleep(Duration::from_millis(50));
                            continue;
                        }
                        Err(e) => {
                            return Err(self.fail(
                                Some(key),
                                "put-if-absent (checking the existing object)",
                                e,
                            ))
                        }
                    }
                }
                Err(e) => return Err(self.fail(Some(key), "put-if-absent", e)),
            }
        }
        Err(self.err(
            Some(key),
            "put-if-absent: the store kept reporting a conflicting write to this key",
            true,
        ))
    }

    /// Overwrites (or creates) the object: for the one-writer `LATEST` hint.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        let path = self.path(key)?;
        self.rt
            .block_on(self.inner.put(&path, PutPayload::from(bytes)))
            .map(|_| ())
            .map_err(|e| self.fail(Some(key), "put", e))
    }

    /// The whole object, or `None` when the key holds none.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let path = self.path(key)?;
        let result = self.rt.block_on(async {
            let r = self.inner.get(&path).await?;
            r.bytes().await
        });
        match result {
            Ok(b) => Ok(Some(b.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(self.fail(Some(key), "get", e)),
        }
    }

    /// Conditional GET: `If-None-Match` with the etag last seen. A store
    /// that ignores the condition and sends the object anyway is caught by
    /// comparing the etag it returns with the one given.
    pub fn get_if_changed(&self, key: &str, etag: Option<&str>) -> Result<Fetched, StoreError> {
        let path = self.path(key)?;
        let opts = GetOptions {
            if_none_match: etag.map(str::to_string),
            ..Default::default()
        };
        let result = self.rt.block_on(async {
            let r = self.inner.get_opts(&path, opts).await?;
            let tag = r.meta.e_tag.clone();
            let bytes = r.bytes().await?;
            Ok::<_, object_store::Error>((bytes, tag))
        });
        match result {
            Ok((_, Some(tag))) if etag == Some(tag.as_str()) => Ok(Fetched::NotModified),
            Ok((bytes, tag)) => Ok(Fetched::Changed {
                bytes: bytes.to_vec(),
                etag: tag,
            }),
            Err(object_store::Error::NotModified { .. }) => Ok(Fetched::NotModified),
            Err(object_store::Error::NotFound { .. }) => Ok(Fetched::Missing),
            Err(e) => Err(self.fail(Some(key), "conditional get", e)),
        }
    }

    /// Every object under `prefix` (relative to the run; `""` for all, a
    /// "directory" such as `shards` otherwise), sorted by key.
    pub fn list(&self, prefix: &str) -> Result<Vec<Listed>, StoreError> {
        let p = if prefix.trim_matches('/').is_empty() {
            None
        } else {
            Some(
                Path::parse(prefix)
                    .map_err(|e| self.err(Some(prefix), format!("invalid prefix: {e}"), false))?,
            )
        };
        let metas = self
            .rt
            .block_on(self.inner.list(p.as_ref()).try_collect::<Vec<_>>())
            .map_err(|e| self.fail(Some(prefix), "list", e))?;
        let mut out: Vec<Listed> = metas
            .into_iter()
            .map(|m| Listed {
                key: m.location.to_string(),
                size: m.size,
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// Deletes the object; deleting a missing key is not an error.
    pub fn delete(&self, key: &str) -> Result<(), StoreError> {
        let path = self.path(key)?;
        match self.rt.block_on(self.inner.delete(&path)) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.fail(Some(key), "delete", e)),
        }
    }

    /// Runs `f`, retrying it on transient errors with exponential backoff
    /// (0.5 s, 1 s, 2 s, ... capped at 30 s a wait) for up to `max_wait` of
    /// waiting and trying in all. Before each wait it calls
    /// `say(attempt, &error, delay)` (attempt counts from 1), so the caller
    /// can print "store unreachable, retrying in ...". A non-transient error
    /// returns at once; when the time is up, the last error returns.
    pub fn retry<T>(
        &self,
        max_wait: Duration,
        mut say: impl FnMut(u32, &StoreError, Duration),
        mut f: impl FnMut(&Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let start = Instant::now();
        let mut delay = Duration::from_millis(500);
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            match f(self) {
                Ok(v) => return Ok(v),
                Err(e) if !e.is_transient() => return Err(e),
                Err(e) => {
                    let left = max_wait.saturating_sub(start.elapsed());
                    if left.is_zero() {
                        return Err(e);
                    }
                    let wait = delay.min(left);
                    say(attempt, &e, wait);
                    std::thread::sleep(wait);
                    delay = (delay * 2).min(Duration::from_secs(30));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Store>();
        check::<StoreError>();
    }

    #[test]
    fn error_display_names_url_and_key() {
        let e = StoreError::new("s3://b/p", Some("shards/1"), "put: boom", true);
        assert_eq!(
            e.to_string(),
            "store s3://b/p key \"shards/1\": put: boom (transient)"
        );
        assert!(e.is_transient());
    }
}
