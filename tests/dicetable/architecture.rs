//! `ARCHITECTURE.md` is true to the code: its table of which module imports which lists every
//! top-level module of `src/`, each with exactly the modules its code names (`crate::x`, comments
//! and tests not counted), and every arrow points down the table, never up.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The table of `ARCHITECTURE.md`'s "Which module imports which": each module, in the table's
/// order, with the modules it says it imports.
fn documented() -> Vec<(String, BTreeSet<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text
        .split("## Which module imports which")
        .nth(1)
        .expect("the section");
    let ticked = |cell: &str| -> BTreeSet<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(|s| s.trim_start_matches("crate::").to_string())
            .collect()
    };
    section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            let module = ticked(cells[1]).into_iter().next().expect("a module");
            // What a cell says in brackets (a helper of the tests) is not an import.
            let imports = cells[2].split('(').next().unwrap_or_default();
            (module, ticked(imports))
        })
        .collect()
}

/// The top-level modules of the crate: each `src/<name>.rs` or `src/<name>/`, but the crate's
/// roots (`lib.rs`, `main.rs`).
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("src")).expect("src") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if path.is_dir() {
            out.insert(name, rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") && name != "lib" && name != "main" {
            out.insert(name, vec![path]);
        }
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("dir") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without its comments and its tests: line and doc comments go, block
/// comments go, and a file's `#[cfg(test)]` module at its end goes; a file of tests or a test
/// helper (`tests.rs`, `testing.rs`, a file under a `tests/` folder) counts for nothing.
fn code_of(path: &Path) -> String {
    code_of_keeping(path, false)
}

/// [`code_of`], with its strings kept when `keep_strings` (a ruleset's id in a string is a
/// place that names it).
fn code_of_keeping(path: &Path, keep_strings: bool) -> String {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let in_tests = path
        .strip_prefix(root().join("src"))
        .is_ok_and(|p| p.components().any(|c| c.as_os_str() == "tests"));
    if name == "tests.rs" || name == "testing.rs" || in_tests {
        return String::new();
    }
    let text = std::fs::read_to_string(path).expect("source");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text,
    };
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
            out.push('\n');
        } else if let Some(after) = rest.strip_prefix("r#\"") {
            let (text, after) = after.split_once("\"#").unwrap_or((after, ""));
            rest = after;
            out.push_str(&format!("\"{}\"", if keep_strings { text } else { "" }));
        } else if let Some(after) = rest.strip_prefix("'\"'") {
            rest = after;
        } else if rest.starts_with('"') {
            // A string's text is not code ("//" in a URL is not a comment).
            let mut end = 1;
            let bytes = rest.as_bytes();
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let text = if keep_strings {
                rest.get(1..end).unwrap_or("")
            } else {
                ""
            };
            out.push_str(&format!("\"{text}\""));
            rest = rest.get(end + 1..).unwrap_or("");
        } else {
            let c = rest.chars().next().expect("a char");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The modules a file's code names: each `crate::x`.
fn named(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .filter(|(at, _)| {
            // `$crate::` in a macro is the crate itself, not a module's import.
            !code[..*at].ends_with('$')
        })
        .map(|(at, _)| {
            code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn the_import_table_of_the_architecture_is_the_codes() {
    let _lane = crate::beside_real_time();
    let table = documented();
    let modules = modules();
    let listed: BTreeSet<String> = table.iter().map(|(m, _)| m.clone()).collect();
    let present: BTreeSet<String> = modules.keys().cloned().collect();
    assert_eq!(
        listed, present,
        "the table lists every module of src/, and no other"
    );
    let place: BTreeMap<&str, usize> = table
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.as_str(), i))
        .collect();
    let mut wrong = Vec::new();
    for (module, said) in &table {
        let mut found = BTreeSet::new();
        for file in &modules[module] {
            found.extend(named(&code_of(file)));
        }
        found.remove(module);
        if &found != said {
            let missing: Vec<_> = found.difference(said).collect();
            let extra: Vec<_> = said.difference(&found).collect();
            wrong.push(format!(
                "{module}: imports {missing:?} the table does not list; the table lists {extra:?} it does not import"
            ));
        }
        for import in said {
            if place
                .get(import.as_str())
                .is_none_or(|&p| p <= place[module.as_str()])
            {
                wrong.push(format!("{module} → {import} points up the table"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn comments_strings_and_tests_are_not_imports() {
    let _lane = crate::beside_real_time();
    let code = "use crate::a::X;\n// crate::b\n/* crate::c */ let s = \"crate::d\";\n\
                $crate::e; crate::f::g();\n#[cfg(test)]\nmod tests { use crate::h; }";
    let path = std::env::temp_dir().join(format!("imports-{}.rs", std::process::id()));
    std::fs::write(&path, code).expect("written");
    let found = named(&code_of(&path));
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        found,
        ["a", "f"]
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>()
    );
}

/// Rules errors are typed: no rule of `src/rules/` answers a `String` error (a refusal is a
/// `Refusal` of a kind; a parse error its own type).
#[test]
fn no_rule_answers_a_string_error() {
    let _lane = crate::beside_real_time();
    let mut found = Vec::new();
    for path in rust_files(&root().join("src/rules")) {
        let code = code_of(&path);
        for (n, line) in code.lines().enumerate() {
            let squeezed: String = line.split_whitespace().collect();
            let string_error = squeezed.contains("typeErr=String")
                || (squeezed.contains("Result<")
                    && (squeezed.contains(",String>") || squeezed.contains(",String>>")));
            if string_error {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "String errors in the rules:\n{}",
        found.join("\n")
    );
}

/// The rulesets of the one list in `src/rules/mod.rs`: each entry's line, and the names that
/// stand for it in code (its module, its variant, its id).
fn listed_rulesets() -> Vec<(String, [String; 3])> {
    let text = std::fs::read_to_string(root().join("src/rules/mod.rs")).expect("rules/mod.rs");
    let list = text
        .split("rulesets! {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("the list of rulesets");
    list.lines()
        .filter_map(|line| {
            let (path, id) = line.trim().trim_end_matches(',').split_once(" = ")?;
            let (module, variant) = path.split_once("::")?;
            let names = [
                module.to_string(),
                variant.to_string(),
                id.trim_matches('"').to_string(),
            ];
            Some((line.trim().to_string(), names))
        })
        .collect()
}

/// Whether `code` names `name` as a whole word (`open-d6` in `open-d6-fred.ron` is another).
fn names_word(code: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// A ruleset's footprint outside its folder is its one line in the list of `src/rules/mod.rs`
/// ("Adding a ruleset" in `ARCHITECTURE.md`): no other code of `src/` or `web/` names it by its
/// module, its variant or its id (comments and tests not counted; a test is about a ruleset).
#[test]
fn a_ruleset_is_named_outside_its_folder_only_by_its_line_in_the_list() {
    let _lane = crate::beside_real_time();
    let rulesets = listed_rulesets();
    assert!(
        rulesets.len() >= 5,
        "the list has every ruleset: {rulesets:?}"
    );
    let mut files = rust_files(&root().join("src"));
    files.extend(
        rust_files_of(&root().join("web"), "js")
            .into_iter()
            .filter(|p| !p.components().any(|c| c.as_os_str() == "node_modules")),
    );
    let mut places = Vec::new();
    for (entry, names) in &rulesets {
        let folder = root().join("src/rules").join(&names[0]);
        for file in files.iter().filter(|f| !f.starts_with(&folder)) {
            let code = if file.extension().is_some_and(|x| x == "rs") {
                code_of_keeping(file, true)
            } else {
                std::fs::read_to_string(file).expect("web source")
            };
            for (n, line) in code.lines().enumerate() {
                if line.trim() == entry.as_str() && file.ends_with("src/rules/mod.rs") {
                    continue;
                }
                if names.iter().any(|name| names_word(line, name)) {
                    let at = file.strip_prefix(root()).unwrap_or(file).display();
                    places.push(format!("{at}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        places.is_empty(),
        "code outside a ruleset's folder names it:\n{}",
        places.join("\n")
    );
}

fn rust_files_of(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == extension) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The modules of `src/` by file (`rules::open_d6::seat` for `src/rules/open_d6/seat.rs`), each
/// with whether it is a folder's `mod.rs`: the crate's roots and test files left out.
fn file_modules() -> BTreeMap<String, (PathBuf, bool)> {
    let src = root().join("src");
    rust_files(&src)
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(&src).ok()?.with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let folder = parts.last().is_some_and(|p| p == "mod");
            if folder {
                parts.pop();
            }
            let last = parts.last()?.as_str();
            if parts.len() == 1 && (last == "lib" || last == "main") {
                return None;
            }
            Some((parts.join("::"), (path, folder)))
        })
        .collect()
}

/// The modules of `src/` a file's code names (`crate::a::b`, `super::c`, `self::d`), each
/// resolved to the longest module path that is a file, its own ancestors left out.
fn file_imports(
    module: &str,
    code: &str,
    known: &BTreeMap<String, (PathBuf, bool)>,
) -> BTreeSet<String> {
    let here: Vec<&str> = module.split("::").collect();
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == ':')
            {
                continue;
            }
            let mut end = at;
            while end < bytes.len()
                && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
            {
                end += 1;
            }
            let mut parts: Vec<&str> = code[at..end]
                .split("::")
                .filter(|p| !p.is_empty())
                .collect();
            let mut base: Vec<&str> = match parts.first() {
                Some(&"crate") => Vec::new(),
                Some(&"self") => here.clone(),
                _ => here[..here.len() - 1].to_vec(),
            };
            parts.remove(0);
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
            let mut found = None;
            for k in 0..=parts.len() {
                let mut path = base.clone();
                path.extend(&parts[..k]);
                let name = path.join("::");
                if known.contains_key(&name) {
                    found = Some(name);
                }
            }
            if let Some(name) = found
                && name != module
                && !module.starts_with(&format!("{name}::"))
            {
                out.insert(name);
            }
        }
    }
    out
}

/// No two files of `src/` import each other, directly or round a longer circle (a folder's
/// `mod.rs` declaring its files is not an import; comments and tests not counted).
#[test]
fn no_files_import_each_other() {
    let _lane = crate::beside_real_time();
    let known = file_modules();
    let edges: BTreeMap<&str, BTreeSet<String>> = known
        .iter()
        .map(|(module, (path, _))| {
            (
                module.as_str(),
                file_imports(module, &code_of(path), &known),
            )
        })
        .collect();
    // A circle is an import that leads back to the file it starts from.
    let mut circles = Vec::new();
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut paths = vec![vec![start.to_string()]];
        while let Some(path) = paths.pop() {
            let last = path.last().expect("a path is never empty");
            for next in edges.get(last.as_str()).into_iter().flatten() {
                if next == start {
                    let mut circle = path.clone();
                    circle.push(next.clone());
                    circles.push(circle.join(" → "));
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    paths.push(longer);
                }
            }
        }
        if !circles.is_empty() {
            break;
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other:\n{}",
        circles.join("\n")
    );
}
