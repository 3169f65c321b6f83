//! `docs/rules.md` maps each decision ID to the code that implements it. This test keeps
//! that map true: every file or folder a row names exists, every item it names (a function,
//! type, constant, field or variant in backticks) is defined in one of the row's files, and
//! at least one of those files cites the row's decision ID, so `grep` finds the rule in one
//! hop from the ID.
//!
//! How a row's code column is read:
//! - `` `src/x/y.rs` `` is a path from the project root; `` `y.rs` `` or `` `dir/y.rs` ``
//!   (or a folder `` `dir/` ``) is any file under `src/` whose path ends that way;
//!   `` `y.rs::item` `` names an item of that file.
//! - `` `name` `` or `` `Type::method` `` must be defined in the row's files (every file,
//!   when the row names none); `` `module::name` `` (a lowercase first segment) may be
//!   defined anywhere under `src/`.
//! - Anything else in backticks (options, flags, table names, code excerpts) is text.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Every `.rs` file under `src/`, path (with `/`) -> text.
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let key = p.to_string_lossy().replace('\\', "/");
                out.insert(key, fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new("src"), &mut out);
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(is_ident_char)
}

/// Strips a leading `pub`, `pub(crate)`, `pub(super)`, `pub(in path)`.
fn strip_vis(line: &str) -> &str {
    let l = line.trim_start();
    if let Some(rest) = l.strip_prefix("pub") {
        if let Some(r) = rest.strip_prefix('(') {
            if let Some(end) = r.find(')') {
                return r[end + 1..].trim_start();
            }
        }
        if rest.starts_with(char::is_whitespace) {
            return rest.trim_start();
        }
    }
    l
}

/// Whether `name` is defined in `text`: `fn`/`struct`/`enum`/`const`/`static`/`type`/
/// `trait`/`mod` followed by the name, or a line that starts with the name followed by
/// `:` (a field), `,`, `(` or `{` (a variant or field).
fn defines(text: &str, name: &str) -> bool {
    const KEYWORDS: [&str; 8] = [
        "fn", "struct", "enum", "const", "static", "type", "trait", "mod",
    ];
    for line in text.lines() {
        // A keyword then the name, anywhere on the line.
        let words: Vec<&str> = line
            .split(|c: char| !is_ident_char(c))
            .filter(|w| !w.is_empty())
            .collect();
        if words
            .windows(2)
            .any(|w| KEYWORDS.contains(&w[0]) && w[1] == name)
        {
            // Only when the name follows the keyword directly (not `fn f(name: ..)`).
            for kw in KEYWORDS {
                let pat = format!("{kw} {name}");
                if let Some(i) = line.find(&pat) {
                    let before_ok = i == 0 || !line[..i].ends_with(is_ident_char);
                    let after = &line[i + pat.len()..];
                    let after_ok = !after.starts_with(is_ident_char);
                    if before_ok && after_ok {
                        return true;
                    }
                }
            }
        }
        let l = strip_vis(line);
        if let Some(rest) = l.strip_prefix(name) {
            let rest = rest.trim_start();
            let field = rest.starts_with(':') && !rest.starts_with("::");
            if field || rest.starts_with(',') || rest.starts_with('(') || rest.starts_with('{') {
                return true;
            }
        }
    }
    false
}

/// A decision reference: `C-TURN` and the numbers it covers (empty: the whole family).
#[derive(Debug)]
struct Id {
    family: String,
    numbers: Vec<u32>,
}

/// Every ID written in `s`: `C-TEST-1`, `C-TEST-1..4`, `C-CREATE-2/3`, `F-TEST`, and the
/// house rules' `H-PERIODIC`.
fn ids_in(s: &str) -> Vec<Id> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i + 2 < b.len() {
        let starts = matches!(b[i], b'C' | b'F' | b'H' | b'N' | b'T')
            && b[i + 1] == b'-'
            && b[i + 2].is_ascii_uppercase()
            && (i == 0 || !is_ident_char(b[i - 1] as char));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < b.len() && b[j].is_ascii_uppercase() {
            j += 1;
        }
        let family = s[i..j].to_string();
        let mut numbers = Vec::new();
        if j + 1 < b.len() && b[j] == b'-' && b[j + 1].is_ascii_digit() {
            let num = |k: &mut usize| {
                let st = *k;
                while *k < b.len() && b[*k].is_ascii_digit() {
                    *k += 1;
                }
                s[st..*k].parse::<u32>().unwrap()
            };
            let mut k = j + 1;
            let first = num(&mut k);
            numbers.push(first);
            if s[k..].starts_with("..") && s[k + 2..].starts_with(|c: char| c.is_ascii_digit()) {
                k += 2;
                let last = num(&mut k);
                numbers.extend(first + 1..=last);
            }
            while s[k..].starts_with('/') && s[k + 1..].starts_with(|c: char| c.is_ascii_digit()) {
                k += 1;
                numbers.push(num(&mut k));
            }
            j = k;
        }
        out.push(Id { family, numbers });
        i = j;
    }
    out
}

/// Whether `text` cites `id` (a range `C-TURN-1..3` cites C-TURN-2).
fn cites(text: &str, id: &Id) -> bool {
    ids_in(text).iter().any(|t| {
        t.family == id.family
            && (id.numbers.is_empty()
                || t.numbers.is_empty()
                || id.numbers.iter().any(|n| t.numbers.contains(n)))
    })
}

/// One table row of the map: its line, its decision column and its code column.
struct Row {
    line: usize,
    decision: String,
    code: String,
}

fn rows(doc: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let mut code_col: Option<usize> = None;
    for (n, line) in doc.lines().enumerate() {
        if line.starts_with('#') {
            code_col = None;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        if cells.first() == Some(&"decision") {
            code_col = cells
                .iter()
                .position(|c| matches!(*c, "code" | "where" | "where in code"));
            continue;
        }
        if line.starts_with("|---") {
            continue;
        }
        if let Some(c) = code_col {
            assert!(
                cells.len() > c,
                "docs/rules.md:{}: fewer cells than the header",
                n + 1
            );
            out.push(Row {
                line: n + 1,
                decision: cells[0].to_string(),
                code: cells[c].to_string(),
            });
        }
    }
    out
}

fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

/// The files a path token names: exact from `src/`, else every file whose path ends with
/// `/token` (a folder token names every file under it).
fn resolve(token: &str, src: &BTreeMap<String, String>) -> Vec<String> {
    let folder = token.ends_with('/');
    src.keys()
        .filter(|p| {
            if token.starts_with("src/") {
                if folder {
                    p.starts_with(token)
                } else {
                    p.as_str() == token
                }
            } else if folder {
                p.contains(&format!("/{token}"))
            } else {
                p.ends_with(&format!("/{token}"))
            }
        })
        .cloned()
        .collect()
}

#[test]
fn every_code_pointer_in_the_rules_guide_resolves_and_cites_its_decision() {
    let src = sources();
    let doc = fs::read_to_string("docs/rules.md").unwrap();
    let rows = rows(&doc);
    assert!(rows.len() > 60, "the map has {} rows", rows.len());
    let mut problems = Vec::new();
    let mut checked_items = 0;
    for row in &rows {
        let mut files: Vec<String> = Vec::new();
        // (item path, the files it must be defined in; empty: the row's files)
        let mut items: Vec<(String, Vec<String>)> = Vec::new();
        for tok in backticked(&row.code) {
            let (path, item) = match tok.split_once(".rs::") {
                Some((p, i)) => (format!("{p}.rs"), Some(i)),
                None => (tok.to_string(), None),
            };
            let is_path = !path.contains(' ')
                && (path.ends_with(".rs") || (path.ends_with('/') && path.len() > 1));
            if is_path {
                let found = resolve(&path, &src);
                if found.is_empty() {
                    problems.push(format!("docs/rules.md:{}: no file `{path}`", row.line));
                }
                if let Some(i) = item {
                    items.push((i.to_string(), found.clone()));
                }
                files.extend(found);
                continue;
            }
            let bare = tok.trim_end_matches("()");
            if bare.split("::").all(is_ident) {
                items.push((bare.to_string(), Vec::new()));
            }
        }
        for (item, own) in items {
            let segs: Vec<&str> = item.split("::").collect();
            let module_path = segs.len() > 1 && segs[0].starts_with(|c: char| c.is_lowercase());
            let (segs, scope): (Vec<&str>, Vec<&String>) = if !own.is_empty() {
                (segs, own.iter().collect())
            } else if module_path {
                (vec![*segs.last().unwrap()], src.keys().collect())
            } else if files.is_empty() {
                (segs, src.keys().collect())
            } else {
                (segs, files.iter().collect())
            };
            for (k, seg) in segs.iter().enumerate() {
                // A leading type of `Type::method` may live anywhere; the last segment
                // is what the row points at.
                let last = k + 1 == segs.len();
                let ok = if last {
                    scope.iter().any(|f| defines(&src[*f], seg))
                } else {
                    src.values().any(|t| defines(t, seg))
                };
                checked_items += 1;
                if !ok {
                    problems.push(format!(
                        "docs/rules.md:{}: `{item}` is not defined in {}",
                        row.line,
                        if scope.len() > 3 {
                            "src/".to_string()
                        } else {
                            scope
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    ));
                    break;
                }
            }
        }
        let ids = ids_in(&row.decision);
        if !files.is_empty() && !ids.is_empty() {
            let cited = ids
                .iter()
                .any(|id| files.iter().any(|f| cites(&src[f], id)));
            if !cited {
                problems.push(format!(
                    "docs/rules.md:{}: none of {} cites {}",
                    row.line,
                    files.join(", "),
                    row.decision
                ));
            }
        }
    }
    assert!(checked_items > 150, "only {checked_items} items checked");
    assert!(
        problems.is_empty(),
        "{} stale pointers in docs/rules.md:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_checker_itself_catches_what_it_should() {
    let text = "pub(super) fn resolve(&mut self) {}\nstruct Slot {\n    class: u8,\n}\nenum E {\n    Apocalypse,\n}\n// fn ghost()\nlet x = call(ghost2);";
    assert!(defines(text, "resolve"));
    assert!(defines(text, "Slot"));
    assert!(defines(text, "class"));
    assert!(defines(text, "Apocalypse"));
    assert!(!defines(text, "ghost2"));
    assert!(!defines(text, "call"));
    assert!(!defines(text, "self"));
    let ids = ids_in("C-TURN-1..3 and C-CREATE-2/3, F-TEST");
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[0].numbers, vec![1, 2, 3]);
    assert_eq!(ids[1].numbers, vec![2, 3]);
    assert!(ids[2].numbers.is_empty());
    let t3 = &ids_in("C-TURN-3")[0];
    assert!(cites("order (C-TURN-1..3): class", t3));
    assert!(!cites("order (C-TURN-1..2): class", t3));
    assert!(!cites("XC-TURN-3", t3));
}
