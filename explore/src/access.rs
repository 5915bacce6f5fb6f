//! Who may use the explorer and how much: the access token, the bound on
//! searches, and the networks offered by name.
//!
//! - With a token (`triad explore --token`, or one made at start when the
//!   server listens beyond loopback), every request must carry it: as
//!   `?token=TOKEN` in the URL (the answer then sets a cookie, so the
//!   page's own requests carry it), as `Authorization: Bearer TOKEN`, or as
//!   that cookie. Anything else is answered 401 with `{"error": …}`.
//! - A search (an analysis or a player's reply) takes a slot while it runs:
//!   at most [`Limits::per_client`] per client (its IP address) and
//!   [`Limits::total`] in all; past either, 429 with `{"error": …}`.
//! - The networks a request may name (`net:NAME`) are the checkpoints of
//!   some folders, by file stem ([`models_in`]).

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// The networks a request may name: file stem to checkpoint.
pub type Models = BTreeMap<String, PathBuf>;

/// Random bytes in a made token (written as twice as many hex digits).
pub const TOKEN_BYTES: usize = 32;

/// A setting of access that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AccessError {
    /// A token with characters a URL or a cookie would mangle.
    #[error("--token: use 8 or more of the characters A-Z a-z 0-9 - . _ ~ (got {len} characters, or others)")]
    BadToken { len: usize },
    /// The system's random source failed.
    #[error("cannot make a token: the system's random source failed ({reason})")]
    Random { reason: String },
    /// A `--models` folder that cannot be listed.
    #[error("--models {}: {source}", dir.display())]
    Models {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Two checkpoints with the same name.
    #[error("two networks are named {name:?}: {} and {}", first.display(), second.display())]
    SameName {
        name: String,
        first: PathBuf,
        second: PathBuf,
    },
}

/// A request refused before it is served.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Denied {
    /// No token, or not the server's.
    #[error("this explorer needs its access token: open the URL with ?token=… that the server printed at start, or send `Authorization: Bearer TOKEN`")]
    Token,
    /// The client runs as many searches as it may.
    #[error("too many searches: {limit} at a time per client; wait for one to end (close an analysis to end it)")]
    ClientBusy { limit: usize },
    /// The server runs as many searches as it may.
    #[error("too many searches: the server runs {limit} at a time; try again shortly")]
    ServerBusy { limit: usize },
}

impl IntoResponse for Denied {
    fn into_response(self) -> Response {
        let status = match self {
            Denied::Token => StatusCode::UNAUTHORIZED,
            _ => StatusCode::TOO_MANY_REQUESTS,
        };
        (status, Json(json!({ "error": self.to_string() }))).into_response()
    }
}

/// How many searches may run at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Per client (remote IP address).
    pub per_client: usize,
    /// In all.
    pub total: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_client: 2,
            total: 8,
        }
    }
}

/// The searches running now.
#[derive(Debug, Default)]
struct Running {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// The token (if any), its cookie's name, and the searches running.
#[derive(Debug)]
pub struct Access {
    token: Option<String>,
    cookie: String,
    limits: Limits,
    running: Arc<Mutex<Running>>,
}

/// A search's slot; given back when dropped.
#[derive(Debug)]
pub struct Slot {
    client: IpAddr,
    running: Arc<Mutex<Running>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut r = self.running.lock().unwrap_or_else(|p| p.into_inner());
        r.total = r.total.saturating_sub(1);
        if let Some(n) = r.by_client.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                r.by_client.remove(&self.client);
            }
        }
    }
}

impl Access {
    /// Access with `token` (none: open to whoever reaches the server) and
    /// `limits`; the cookie is named after `port`, so that explorers on
    /// other ports of the same host keep their own.
    pub fn new(token: Option<String>, limits: Limits, port: u16) -> Access {
        Access {
            token,
            cookie: format!("triad_explore_{port}"),
            limits,
            running: Arc::default(),
        }
    }

    /// The token requests must carry, if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// A slot for one more search of `client`, or why not.
    pub fn slot(&self, client: IpAddr) -> Result<Slot, Denied> {
        let mut r = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let mine = r.by_client.get(&client).copied().unwrap_or(0);
        if mine >= self.limits.per_client {
            return Err(Denied::ClientBusy {
                limit: self.limits.per_client,
            });
        }
        if r.total >= self.limits.total {
            return Err(Denied::ServerBusy {
                limit: self.limits.total,
            });
        }
        r.total += 1;
        *r.by_client.entry(client).or_insert(0) += 1;
        Ok(Slot {
            client,
            running: self.running.clone(),
        })
    }

    /// Whether the request's headers or query carry the token (always, when
    /// there is none), and whether it came in the query.
    fn admits(&self, headers: &HeaderMap, query: Option<&str>) -> (bool, bool) {
        let Some(token) = &self.token else {
            return (true, false);
        };
        let matches = |given: Option<&str>| given.is_some_and(|g| same_bytes(g, token));
        let in_query = matches(query.and_then(query_token));
        let ok = in_query
            || matches(bearer(headers))
            || headers
                .get_all(header::COOKIE)
                .iter()
                .any(|v| matches(v.to_str().ok().and_then(|c| cookie(c, &self.cookie))));
        (ok, in_query)
    }
}

/// The middleware of every route: 401 without the token; a token given in
/// the URL is set as a cookie on the answer.
pub async fn check(State(access): State<Arc<Access>>, req: Request, next: Next) -> Response {
    let (ok, in_query) = access.admits(req.headers(), req.uri().query());
    if !ok {
        return Denied::Token.into_response();
    }
    let mut response = next.run(req).await;
    if let (true, Some(token)) = (in_query, &access.token) {
        let value = format!(
            "{}={token}; Path=/; HttpOnly; SameSite=Strict",
            access.cookie
        );
        if let Ok(v) = HeaderValue::from_str(&value) {
            response.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    response
}

/// Whether `a` and `b` are equal, in a time that does not depend on where
/// they first differ (only on their lengths).
pub fn same_bytes(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// `token=` of a query string.
fn query_token(query: &str) -> Option<&str> {
    query.split('&').find_map(|kv| kv.strip_prefix("token="))
}

/// The token of `Authorization: Bearer TOKEN`.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    v.strip_prefix("Bearer ").map(str::trim)
}

/// The value of cookie `name` in a `Cookie:` header.
fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

/// Checks a token given on the command line: 8 or more characters that
/// need no escaping in a URL or a cookie.
pub fn check_token(token: &str) -> Result<(), AccessError> {
    let fine = |c: char| c.is_ascii_alphanumeric() || "-._~".contains(c);
    if token.len() >= 8 && token.chars().all(fine) {
        Ok(())
    } else {
        Err(AccessError::BadToken { len: token.len() })
    }
}

/// A new token: [`TOKEN_BYTES`] bytes of the system's random source, in hex.
pub fn new_token() -> Result<String, AccessError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AccessError::Random {
        reason: e.to_string(),
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The checkpoints (`*.safetensors`) directly in each of `dirs`, by file
/// stem. The same file listed twice counts once; two files of one stem are
/// an error.
pub fn models_in(dirs: &[PathBuf]) -> Result<Models, AccessError> {
    let mut models = Models::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|source| AccessError::Models {
            dir: dir.clone(),
            source,
        })?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("safetensors") {
                continue;
            }
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            add_model(&mut models, stem, &path)?;
        }
    }
    Ok(models)
}

/// Adds `path` as `name`; the same file again is no change.
fn add_model(models: &mut Models, name: &str, path: &Path) -> Result<(), AccessError> {
    match models.get(name) {
        Some(first) if same_file(first, path) => Ok(()),
        Some(first) => Err(AccessError::SameName {
            name: name.to_string(),
            first: first.clone(),
            second: path.to_path_buf(),
        }),
        None => {
            models.insert(name.to_string(), path.to_path_buf());
            Ok(())
        }
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same_bytes("abc", "abc"));
        assert!(!same_bytes("abc", "abd"));
        assert!(!same_bytes("abc", "abcd"));
        assert!(!same_bytes("", "a"));
        let t = new_token().unwrap();
        assert_eq!(t.len(), 2 * TOKEN_BYTES);
        assert!(t.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(t, new_token().unwrap());
        assert!(check_token(&t).is_ok());
        assert!(check_token("short").is_err());
        assert!(check_token("has space in it").is_err());
    }

    #[test]
    fn a_token_is_read_from_the_query_the_header_or_the_cookie() {
        let access = Access::new(Some("secret-token".into()), Limits::default(), 9);
        let mut h = HeaderMap::new();
        assert_eq!(access.admits(&h, None), (false, false));
        assert_eq!(
            access.admits(&h, Some("a=1&token=secret-token")),
            (true, true)
        );
        assert_eq!(access.admits(&h, Some("token=secret-toke")), (false, false));
        h.insert(
            header::AUTHORIZATION,
            "Bearer secret-token".parse().unwrap(),
        );
        assert_eq!(access.admits(&h, None), (true, false));
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            "x=1; triad_explore_9=secret-token".parse().unwrap(),
        );
        assert_eq!(access.admits(&h, None), (true, false));
        let open = Access::new(None, Limits::default(), 9);
        assert_eq!(open.admits(&HeaderMap::new(), None), (true, false));
    }

    #[test]
    fn slots_are_bounded_per_client_and_in_all_and_come_back() {
        let access = Access::new(
            None,
            Limits {
                per_client: 2,
                total: 3,
            },
            9,
        );
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let a1 = access.slot(a).unwrap();
        let _a2 = access.slot(a).unwrap();
        assert_eq!(access.slot(a).unwrap_err(), Denied::ClientBusy { limit: 2 });
        let _b1 = access.slot(b).unwrap();
        assert_eq!(access.slot(b).unwrap_err(), Denied::ServerBusy { limit: 3 });
        drop(a1);
        assert!(access.slot(b).is_ok());
    }

    #[test]
    fn models_are_the_checkpoints_of_the_folders_by_stem() {
        let dir = tempfile::tempdir().unwrap();
        let (one, two) = (dir.path().join("one"), dir.path().join("two"));
        std::fs::create_dir_all(&one).unwrap();
        std::fs::create_dir_all(&two).unwrap();
        std::fs::write(one.join("gen-0001.safetensors"), b"").unwrap();
        std::fs::write(one.join("gen-0001.json"), b"").unwrap();
        std::fs::write(two.join("best.safetensors"), b"").unwrap();
        let m = models_in(&[one.clone(), two.clone(), one.clone()]).unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["best", "gen-0001"]);
        std::fs::write(two.join("gen-0001.safetensors"), b"").unwrap();
        assert!(matches!(
            models_in(&[one, two]),
            Err(AccessError::SameName { .. })
        ));
        assert!(models_in(&[dir.path().join("none")]).is_err());
    }
}
