//! Checks of the workspace's shape that cargo itself does not make.

use std::path::Path;

/// Every crate that uses `tch` links libtorch into its test binaries, and
/// those run only with an rpath to the wheel's `lib/` folder: the crate
/// needs `build.rs` calling `build-support/link_libtorch.rs`, and a direct
/// `torch-sys` dependency (only direct dependents see
/// `DEP_TCH_LIBTORCH_LIB`). A crate without them builds, and its tests
/// fail on a clean clone with "libtorch_cpu.so: cannot open shared object
/// file" (CI's failure of 2026-11-27).
#[test]
fn every_crate_using_tch_sets_up_the_libtorch_link() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("root Cargo.toml");
    let members: Vec<String> = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|m| m.trim().trim_matches('"').to_string())
                .filter(|m| !m.is_empty())
                .collect()
        })
        .expect("a members list in the root Cargo.toml");
    assert!(members.len() > 10, "read only {members:?}");
    let mut crates: Vec<&str> = members.iter().map(String::as_str).collect();
    crates.push(".");
    let mut using_tch = 0;
    for member in crates {
        let dir = root.join(member);
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("member Cargo.toml");
        let deps = toml
            .split_once("[dependencies]")
            .map(|(_, d)| d.split("\n[").next().unwrap_or(""))
            .unwrap_or("");
        let has = |name: &str| deps.lines().any(|l| l.trim_start().starts_with(name));
        if !has("tch ") && !has("tch=") {
            continue;
        }
        using_tch += 1;
        assert!(
            has("torch-sys"),
            "{member}/Cargo.toml uses tch without a direct torch-sys dependency"
        );
        assert!(
            !toml.contains("build = false"),
            "{member}/Cargo.toml uses tch with its build script turned off"
        );
        let build = std::fs::read_to_string(dir.join("build.rs"))
            .unwrap_or_else(|e| panic!("{member}/build.rs: {e}"));
        assert!(
            build.contains("link_libtorch"),
            "{member}/build.rs does not call build-support/link_libtorch.rs"
        );
    }
    assert!(using_tch >= 7, "found only {using_tch} crates using tch");
}

/// The workspace's members, from the root Cargo.toml, and the root itself
/// (".").
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("root Cargo.toml");
    let mut members: Vec<String> = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|m| m.trim().trim_matches('"').to_string())
                .filter(|m| !m.is_empty())
                .collect()
        })
        .expect("a members list in the root Cargo.toml");
    assert!(members.len() > 10, "read only {members:?}");
    members.push(".".to_string());
    members
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A source file's code: its unit-test module (`#[cfg(test)] mod tests`,
/// the file's tail by the project's convention) and its comment lines
/// left out.
fn code_of(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers a `crate::` path names first, in `code`: `crate::a::b`
/// gives `a`; `crate::{a, b::c}` gives `a` and `b`.
fn crate_paths(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        if i > 0 {
            let before = code.as_bytes()[i - 1];
            if before.is_ascii_alphanumeric() || before == b'_' || before == b':' {
                continue;
            }
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for item in group.split(',') {
                let name = ident(item.trim().trim_start_matches('{'));
                if !name.is_empty() && name != "self" {
                    out.push(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The top-level modules of the crate whose sources are `src` that reach
/// themselves through `crate::` paths, each with what it uses.
fn module_circles(src: &Path) -> Vec<String> {
    let files = rust_files(src);
    let mut circles = Vec::new();
    // Root re-exports: `pub use module::{name, …}` / `pub use module::name`.
    let mut reexport: std::collections::HashMap<String, String> = Default::default();
    for root_file in ["lib.rs", "main.rs"] {
        let Ok(text) = std::fs::read_to_string(src.join(root_file)) else {
            continue;
        };
        for stmt in code_of(&text).split(';') {
            let Some(path) = stmt.trim().strip_prefix("pub use ") else {
                continue;
            };
            let path = path
                .trim_start_matches("crate::")
                .trim_start_matches("self::");
            let Some((module, names)) = path.split_once("::") else {
                continue;
            };
            let names = names.trim().trim_start_matches('{').trim_end_matches('}');
            for n in names.split(',') {
                let n = n.trim().split(" as ").last().unwrap_or("").trim();
                if !n.is_empty() && n != "*" && n != "self" {
                    reexport.insert(n.to_string(), module.to_string());
                }
            }
        }
    }
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for file in &files {
        let rel = file.strip_prefix(src).expect("under src");
        let top = rel
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .expect("a file name");
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        for name in crate_paths(&code_of(&text)) {
            let module = reexport.get(&name).cloned().unwrap_or(name);
            if module != top {
                edges.entry(top.clone()).or_default().insert(module);
            }
        }
    }
    // A module in a circle reaches itself.
    for start in edges.keys() {
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<&String> = edges[start].iter().collect();
        let mut found = false;
        while let Some(m) = todo.pop() {
            if m == start {
                found = true;
                break;
            }
            if seen.insert(m.clone()) {
                if let Some(next) = edges.get(m) {
                    todo.extend(next.iter());
                }
            }
        }
        if found {
            circles.push(format!("{start} -> {:?}", edges[start]));
        }
    }
    circles
}

/// The top-level modules of each crate must form no circle through
/// `crate::` paths (issue: "no `use crate::` circle inside any crate"): a
/// module uses the ones below it, never one that uses it back. Names that
/// the crate root re-exports (`pub use run::gen_name`) count as the module
/// they come from. Unit-test modules may reach anything.
#[test]
fn no_module_circle_inside_any_crate() {
    // The check itself finds a circle, and one made through a root
    // re-export, in a crate made up for it.
    let fake = tempfile::tempdir().expect("a temporary folder");
    let src = fake.path().join("src");
    std::fs::create_dir_all(src.join("b")).expect("src/b");
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).expect("write");
    write("lib.rs", "mod a;\nmod b;\nmod c;\npub use c::Thing;\n");
    write("a.rs", "use crate::b::X;\n// crate::c is only a comment\n");
    write("b/mod.rs", "use crate::{Thing, a::Y};\n");
    write(
        "c.rs",
        "pub struct Thing;\n#[cfg(test)]\nmod tests {\n    use crate::a::Z;\n}\n",
    );
    let found = module_circles(&src);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with("a -> ") && found[1].starts_with("b -> "),
        "{found:?}"
    );
    write("c.rs", "pub struct Thing;\nuse crate::b::W;\n");
    assert_eq!(module_circles(&src).len(), 3);

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut circles = Vec::new();
    let mut crates_seen = 0;
    for member in members(root) {
        let src = root.join(&member).join("src");
        if rust_files(&src).is_empty() {
            continue;
        }
        crates_seen += 1;
        for c in module_circles(&src) {
            circles.push(format!("{member}: {c}"));
        }
    }
    assert!(crates_seen > 15, "read only {crates_seen} crates");
    assert!(
        circles.is_empty(),
        "modules in a `crate::` circle (each with what it uses):\n{}",
        circles.join("\n")
    );
}

/// The places in `code` where a `Result`'s error type is `String`
/// (`Result<T, String>`, across lines and nested generics), as line
/// numbers.
fn string_results(code: &str) -> Vec<usize> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("Result<") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let start = at + "Result<".len();
        let (mut depth, mut arg_start, mut args) = (1, start, Vec::new());
        let mut end = start;
        for (i, c) in code[start..].char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 1 => {
                    args.push(&code[arg_start..start + i]);
                    arg_start = start + i + 1;
                }
                _ => {}
            }
            if depth == 0 {
                end = start + i;
                break;
            }
        }
        args.push(&code[arg_start..end]);
        if args.len() == 2 && args[1].trim() == "String" {
            out.push(code[..at].matches('\n').count() + 1);
        }
    }
    out
}

/// Library code reports errors as typed values, never as `String`
/// (docs/architecture.md): no `Result<_, String>` in any library crate's
/// `src/` outside unit tests. The binary (`src/`, where clap's value
/// parsers take text) is not library code.
#[test]
fn no_string_errors_in_library_code() {
    assert_eq!(
        string_results("fn f() -> Result<Vec<(u8, String)>, String> {"),
        [1]
    );
    assert!(string_results("fn f() -> Result<String, Error> {").is_empty());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut files_read = 0;
    for member in members(root) {
        if member == "." {
            continue;
        }
        for file in rust_files(&root.join(&member).join("src")) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            files_read += 1;
            for line in string_results(&code_of(&text)) {
                let rel = file.strip_prefix(root).unwrap_or(&file);
                found.push(format!("{}:{line}", rel.display()));
            }
        }
    }
    assert!(files_read > 100, "read only {files_read} files");
    assert!(
        found.is_empty(),
        "Result<_, String> in library code (give it a typed error):\n{}",
        found.join("\n")
    );
}

/// The `[dependencies]` of a manifest: each dependency's name.
fn dependencies(manifest: &str) -> Vec<String> {
    let section = manifest
        .split_once("\n[dependencies]")
        .map(|(_, d)| d.split("\n[").next().unwrap_or(""))
        .unwrap_or("");
    section
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(['=', ' ', '.']).next().map(str::to_string))
        .collect()
}

/// Only the registry, the binary and the Python module name a game crate
/// among their dependencies (tests may use games as dev-dependencies): the
/// layers are generic over the game, and the binary and the Python module
/// pick it.
#[test]
fn only_the_registry_the_binary_and_python_depend_on_a_game() {
    assert_eq!(
        dependencies("[package]\nname = \"x\"\n\n[dependencies]\n# a note\ngame = { path = \"../game\" }\nserde.workspace = true\n\n[dev-dependencies]\nconnect4 = \"1\"\n"),
        ["game", "serde"]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = ["piratechnics", "connect4", "pirate", "influence"];
    let allowed = [".", "registry", "python"];
    let mut found = Vec::new();
    for member in members(root) {
        let manifest = std::fs::read_to_string(root.join(&member).join("Cargo.toml"))
            .expect("member Cargo.toml");
        let deps = dependencies(&manifest);
        assert!(
            !deps.is_empty() || member == "fsio",
            "{member}: no dependencies read"
        );
        for game in games {
            if deps.iter().any(|d| d == game) && !allowed.contains(&member.as_str()) {
                found.push(format!("{member} depends on {game}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The package names of the workspace's member crates (not the root).
fn crate_names(root: &Path) -> Vec<String> {
    members(root)
        .iter()
        .filter(|m| *m != ".")
        .filter_map(|m| {
            let manifest = std::fs::read_to_string(root.join(m).join("Cargo.toml")).ok()?;
            let name = manifest.split_once("name = \"")?.1.split('"').next()?;
            Some(name.to_string())
        })
        .collect()
}

/// `cli` is a leaf, as ripgrep's `grep-cli` is: it depends on no crate of
/// the workspace but, at most, `game` (what `cargo tree -p cli --depth 1`
/// would list).
#[test]
fn cli_depends_on_no_workspace_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = crate_names(root);
    assert!(workspace.len() > 15, "{workspace:?}");
    let manifest = std::fs::read_to_string(root.join("cli/Cargo.toml")).expect("cli/Cargo.toml");
    let deps = dependencies(&manifest);
    assert!(deps.contains(&"libc".to_string()), "{deps:?}");
    let inner: Vec<&String> = deps
        .iter()
        .filter(|d| workspace.contains(d) && *d != "game")
        .collect();
    assert!(
        inner.is_empty(),
        "cli depends on workspace crates {inner:?}"
    );
    assert!(!manifest.contains("path ="), "cli has a path dependency");
}

/// The flags (the `cli` crate) hold plain values and repeat the few
/// library constants they show as defaults: each must equal its library's,
/// and a flag's vocabulary the names its library reads.
#[test]
fn the_flags_defaults_and_names_are_the_libraries() {
    use cli::flags;
    assert_eq!(flags::DEFAULT_GAME, registry::DEFAULT_GAME);
    assert_eq!(flags::DEFAULT_HASH_MB, eval::search::DEFAULT_HASH_MB);
    assert_eq!(
        flags::data::DEFAULT_FIRST_ID,
        data::import::DEFAULT_FIRST_ID
    );
    let names: Vec<&str> = model::Precision::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(flags::bench::model::PRECISIONS.to_vec(), names);
    // A name the flag refuses reads as the library's refusal.
    let library = "fp8".parse::<model::Precision>().unwrap_err().to_string();
    let flag = flags::bench::model::PrecisionError { text: "fp8".into() };
    assert_eq!(flag.to_string(), library);
    for (flag, name) in [
        (flags::data::ImportFormat::Record, "record"),
        (flags::data::ImportFormat::Lines, "lines"),
    ] {
        let format = data::import::ImportFormat::parse(name).expect("a format of data::import");
        assert_eq!(format.as_str(), name, "{flag:?}");
    }
}

/// `plot` draws and nothing else: of the workspace it uses only `fsio`
/// (whole-file writes), so that any layer can draw without pulling in
/// training, data or a game.
#[test]
fn plot_depends_on_fsio_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = crate_names(root);
    assert!(workspace.contains(&"plot".to_string()), "{workspace:?}");
    let manifest = std::fs::read_to_string(root.join("plot/Cargo.toml")).expect("plot/Cargo.toml");
    let deps = dependencies(&manifest);
    assert!(deps.contains(&"plotters".to_string()), "{deps:?}");
    let inner: Vec<&String> = deps.iter().filter(|d| workspace.contains(d)).collect();
    assert_eq!(inner, ["fsio"], "plot's workspace dependencies");
}
