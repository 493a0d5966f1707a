//! Every crate of the workspace reads from the bottom up: no module imports a module that
//! imports it back, directly or through others.
//!
//! A module imports another when it names it or something in it: a `use`, a path that
//! starts with `crate::`, `super::` or `self::`, or a child module's name. A name reached
//! through a re-export (`pub use`, at the crate's root or in a module) counts as an import of
//! the module that defines it: `crate::Position` is an import of `position.rs`. A `mod`
//! declaration is not an import, and neither is code under `#[cfg(test)]`, comments or
//! strings.
//!
//! The modules are read as text, not compiled: the test is conservative where Rust is subtle
//! (a glob import counts for nothing, a macro's body for what it names).
#![allow(clippy::unwrap_used, missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use workspace_tests::workspace_root;

/// A module's path in its crate: `[]` for the root, `["san", "quick"]` for `san/quick.rs`.
type ModulePath = Vec<String>;

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = workspace_root();
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    sources.extend([root.join("xtask/src"), root.join("tests/src")]);
    sources.sort();
    let mut failures = Vec::new();
    let mut modules_seen = 0;
    for src in &sources {
        let graph = Graph::of_crate(src);
        modules_seen += graph.edges.len();
        for component in graph.loops() {
            let members: BTreeSet<&ModulePath> = component.iter().collect();
            let mut lines = vec![format!(
                "{}: a loop of {} modules",
                src.display(),
                component.len()
            )];
            for module in &members {
                let into: Vec<String> = graph.edges[*module]
                    .iter()
                    .filter(|target| members.contains(target))
                    .map(name)
                    .collect();
                lines.push(format!("  {} -> {}", name(module), into.join(", ")));
            }
            failures.push(lines.join("\n"));
        }
    }
    assert!(modules_seen > 100, "only {modules_seen} modules read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The loop finder finds loops, through re-exports too, and passes over what is no import.
#[test]
fn a_loop_through_a_re_export_is_found_and_a_test_module_is_not_one() {
    let dir = std::env::temp_dir().join(format!("module-loops-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("b")).unwrap();
    let files = [
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::Thing;\n"),
        // a names c; c names a's Thing through the root's re-export: a loop.
        (
            "a.rs",
            "use crate::c::helper;\npub struct Thing;\n// crate::b::nothing\n",
        ),
        ("c.rs", "pub fn helper(_: crate::Thing) {}\n"),
        // b's child names b; b names its child only in a test and in a string: no loop.
        (
            "b.rs",
            "mod inner;\nfn f() { let _ = \"crate::b::inner\"; }\n#[cfg(test)]\nmod tests {\n    use super::inner::x;\n}\n",
        ),
        ("b/inner.rs", "use super::f;\npub fn x() {}\n"),
    ];
    for (path, text) in files {
        std::fs::write(dir.join(path), text).unwrap();
    }
    let graph = Graph::of_crate(&dir);
    let loops: Vec<Vec<String>> = graph
        .loops()
        .iter()
        .map(|component| {
            let mut names: Vec<String> = component.iter().map(name).collect();
            names.sort();
            names
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loops, [["a", "c"]]);
}

fn name(module: &ModulePath) -> String {
    if module.is_empty() {
        "(root)".to_owned()
    } else {
        module.join("::")
    }
}

/// A crate's modules and which module names which.
struct Graph {
    edges: BTreeMap<ModulePath, BTreeSet<ModulePath>>,
}

/// A module read: the paths it names, and the names it re-exports (with their paths).
struct Module {
    named: Vec<Vec<String>>,
    re_exports: BTreeMap<String, Vec<String>>,
}

impl Graph {
    fn of_crate(src: &Path) -> Graph {
        let mut files = BTreeMap::new();
        collect_files(src, src, &mut files);
        let modules: BTreeMap<ModulePath, Module> = files
            .iter()
            .map(|(path, file)| {
                let text = code_only(&std::fs::read_to_string(file).unwrap());
                (path.clone(), read_module(&text))
            })
            .collect();
        let mut edges = BTreeMap::new();
        for (path, module) in &modules {
            let targets: BTreeSet<ModulePath> = module
                .named
                .iter()
                .filter_map(|segments| resolve(&modules, path, segments, 0))
                .filter(|target| target != path)
                .collect();
            edges.insert(path.clone(), targets);
        }
        Graph { edges }
    }

    /// The strongly connected components of more than one module (Tarjan's algorithm,
    /// with an explicit stack).
    fn loops(&self) -> Vec<Vec<ModulePath>> {
        let nodes: Vec<&ModulePath> = self.edges.keys().collect();
        let index_of: BTreeMap<&ModulePath, usize> =
            nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let successors: Vec<Vec<usize>> = nodes
            .iter()
            .map(|n| self.edges[*n].iter().map(|t| index_of[t]).collect())
            .collect();
        let count = nodes.len();
        let (mut index, mut low) = (vec![usize::MAX; count], vec![0; count]);
        let (mut on_stack, mut stack, mut next, mut found) =
            (vec![false; count], Vec::new(), 0, Vec::new());
        for start in 0..count {
            if index[start] != usize::MAX {
                continue;
            }
            let mut work = vec![(start, 0)];
            while let Some(&mut (v, ref mut child)) = work.last_mut() {
                if *child == 0 && index[v] == usize::MAX {
                    index[v] = next;
                    low[v] = next;
                    next += 1;
                    stack.push(v);
                    on_stack[v] = true;
                }
                if let Some(&w) = successors[v].get(*child) {
                    *child += 1;
                    if index[w] == usize::MAX {
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(nodes[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        found.push(component);
                    }
                }
            }
        }
        found
    }
}

/// The `.rs` files below `src`, by module path (`lib.rs`/`main.rs` the root, `a/mod.rs`
/// and `a.rs` both `a`).
fn collect_files(src: &Path, dir: &Path, out: &mut BTreeMap<ModulePath, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_files(src, &path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut segments: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        match segments.last().map(String::as_str) {
            Some("lib" | "main") if segments.len() == 1 => segments.clear(),
            Some("mod") => {
                segments.pop();
            }
            _ => {}
        }
        out.insert(segments, path);
    }
}

/// A module's text without comments, string and character literals, and `#[cfg(test)]`
/// modules.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if let Some(len) = raw_string(rest, i > 0 && is_ident(bytes[i - 1])) {
            out.push_str("\"\"");
            i += len;
        } else if bytes[i] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if let Some(len) = char_literal(rest) {
            out.push_str("' '");
            i += len;
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    without_test_modules(out)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of a raw string literal (`r"…"`, `r#"…"#`) at the start of `text`.
fn raw_string(text: &str, after_ident: bool) -> Option<usize> {
    let rest = text.strip_prefix('r').filter(|_| !after_ident)?;
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    let body = rest[hashes..].strip_prefix('"')?;
    let end = format!("\"{}", "#".repeat(hashes));
    let close = body.find(&end)?;
    Some(1 + hashes + 1 + close + end.len())
}

/// The length of a character literal at the start of `text` (not a lifetime).
fn char_literal(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('\'')?;
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    if first == '\\' {
        let close = rest.find('\'')?;
        // `'\''` has its quote escaped.
        let close = if close == 1 {
            2 + rest[2..].find('\'')?
        } else {
            close
        };
        return Some(close + 2);
    }
    let (after, next) = chars.next()?;
    (next == '\'').then_some(after + 2)
}

/// `text` without the modules under `#[cfg(test)]`.
fn without_test_modules(mut text: String) -> String {
    while let Some(at) = text.find("#[cfg(test)]") {
        let after = &text[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_module = trimmed.starts_with("mod ") || trimmed.starts_with("pub mod ");
        let Some(open) = after.find('{').filter(|_| is_module) else {
            // An attribute on something else: keep the code, drop the attribute.
            text.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let start = at + "#[cfg(test)]".len() + open;
        let mut depth = 0;
        let mut end = text.len();
        for (i, b) in text.bytes().enumerate().skip(start) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        text.replace_range(at..end, "");
    }
    text
}

/// The paths a module names and the names it re-exports.
fn read_module(text: &str) -> Module {
    let mut module = Module {
        named: Vec::new(),
        re_exports: BTreeMap::new(),
    };
    let mut rest = text;
    while let Some(at) = find_word(rest, "use") {
        // `pub use`, `pub(crate) use`: the words since the last item or block.
        let before = rest[..at]
            .rsplit(['\n', ';', '{', '}'])
            .next()
            .unwrap_or_default();
        let public = before.trim_start().starts_with("pub");
        let tail = &rest[at + 3..];
        let Some(end) = tail.find(';') else { break };
        for (segments, bound) in use_tree(&tail[..end]) {
            if public {
                module.re_exports.insert(bound, segments.clone());
            }
            module.named.push(segments);
        }
        rest = &tail[end..];
    }
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = text[from..].find(start) {
            let at = from + found;
            from = at + start.len();
            if at > 0 && (is_ident(text.as_bytes()[at - 1]) || text.as_bytes()[at - 1] == b':') {
                continue;
            }
            let path: String = text[at..]
                .chars()
                .take_while(|&c| c.is_alphanumeric() || c == '_' || c == ':')
                .collect();
            let segments = split_path(&path);
            // `crate::{a, b}` is a use tree's, read above.
            if segments.len() > 1 {
                module.named.push(segments);
            }
        }
    }
    module
}

/// Where the word `word` stands alone in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let end = at + word.len();
        let alone_before = at == 0 || !is_ident(bytes[at - 1]);
        let alone_after = end < bytes.len() && bytes[end].is_ascii_whitespace();
        if alone_before && alone_after {
            return Some(at);
        }
        from = end;
    }
    None
}

/// A use tree's paths and the names they bind: `a::{b, c::d as e}` gives `a::b` (`b`) and
/// `a::c::d` (`e`). Globs bind nothing.
fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    expand(&[], tree.trim(), &mut out);
    out
}

fn expand(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) {
        let mut prefix = prefix.to_vec();
        prefix.extend(split_path(tree[..open].trim_end_matches(':')));
        let inner = &tree[open + 1..tree.len() - 1];
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&prefix, &inner[start..], out);
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path, Some(alias.trim())),
        None => (tree, None),
    };
    let mut segments = prefix.to_vec();
    segments.extend(split_path(path));
    if segments.last().is_some_and(|s| s == "self") {
        segments.pop();
    }
    let Some(last) = segments.last().cloned() else {
        return;
    };
    if last == "*" {
        return;
    }
    out.push((segments, alias.map_or(last, str::to_owned)));
}

fn split_path(path: &str) -> Vec<String> {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The module that defines what `segments`, as written in `module`, names; `None` for
/// what is outside the crate (another crate, a local name).
fn resolve(
    modules: &BTreeMap<ModulePath, Module>,
    module: &ModulePath,
    segments: &[String],
    depth: usize,
) -> Option<ModulePath> {
    if depth > 16 {
        return None;
    }
    let (mut current, mut rest) = match segments.first()?.as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" => (module.clone(), &segments[1..]),
        "super" => {
            let mut base = module.clone();
            let mut rest = segments;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        first => {
            let mut child = module.clone();
            child.push(first.to_owned());
            if !modules.contains_key(&child) {
                return None;
            }
            (module.clone(), segments)
        }
    };
    while let Some(first) = rest.first() {
        let mut child = current.clone();
        child.push(first.clone());
        if modules.contains_key(&child) {
            current = child;
            rest = &rest[1..];
            continue;
        }
        if let Some(target) = modules.get(&current).and_then(|m| m.re_exports.get(first)) {
            return resolve(modules, &current, target, depth + 1);
        }
        break;
    }
    Some(current)
}
