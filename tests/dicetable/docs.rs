//! The docs hold together: every relative link of the README, `ARCHITECTURE.md` and `docs/`
//! points at a file that exists (and, with an anchor, at a heading that exists), every picture
//! is there, and every page of `docs/` can be reached from the README by following links.

use std::collections::{BTreeSet, VecDeque};
use std::path::{Component, Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown page of the docs, relative to the root.
fn pages() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md"), PathBuf::from("ARCHITECTURE.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(
                    p.strip_prefix(root())
                        .expect("under the root")
                        .to_path_buf(),
                );
            }
        }
    }
    out
}

/// The text of a page outside its fenced code blocks (links there are code, not links).
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of a page's Markdown links and pictures: `[text](target)`.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// `base/../x` made plain, within the repository.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// A link's file (relative to the root) and anchor, or None for a link off the site.
fn resolve(page: &Path, target: &str) -> Option<(PathBuf, Option<String>)> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, anchor) = match target.split_once('#') {
        Some((f, a)) => (f, Some(a.to_string())),
        None => (target, None),
    };
    let path = if file.is_empty() {
        page.to_path_buf()
    } else {
        normal(&page.parent().unwrap_or(Path::new("")).join(file))
    };
    Some((path, anchor))
}

#[test]
fn every_link_of_the_docs_leads_somewhere() {
    let _lane = crate::beside_real_time();
    let mut dead = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).expect("a page");
        for target in links(&text) {
            let Some((file, anchor)) = resolve(&page, &target) else {
                continue;
            };
            let full = root().join(&file);
            if file.starts_with("..") || !full.exists() {
                dead.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let there = std::fs::read_to_string(&full).unwrap_or_default();
                if !anchors(&there).contains(&anchor) {
                    dead.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(dead.is_empty(), "dead links:\n{}", dead.join("\n"));
}

#[test]
fn every_page_of_the_docs_can_be_reached_from_the_readme() {
    let _lane = crate::beside_real_time();
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([PathBuf::from("README.md")]);
    while let Some(page) = queue.pop_front() {
        if !seen.insert(page.clone()) {
            continue;
        }
        let text = std::fs::read_to_string(root().join(&page)).unwrap_or_default();
        for target in links(&text) {
            if let Some((file, _)) = resolve(&page, &target)
                && file.extension().is_some_and(|x| x == "md")
            {
                queue.push_back(file);
            }
        }
    }
    let unreached: Vec<String> = pages()
        .into_iter()
        .filter(|p| !seen.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        unreached.is_empty(),
        "pages the README cannot reach: {unreached:?}"
    );
}

#[test]
fn the_readme_is_short() {
    let _lane = crate::beside_real_time();
    let lines = std::fs::read_to_string(root().join("README.md"))
        .expect("README")
        .lines()
        .count();
    assert!(
        lines <= 200,
        "the README has {lines} lines; the rest belongs in docs/"
    );
}

#[test]
fn the_link_checker_reads_links_and_anchors_as_github_does() {
    let _lane = crate::beside_real_time();
    assert_eq!(
        links("see [a](docs/a.md#x) and ![b](b.png)\n```\n[c](nowhere.md)\n```\n"),
        vec!["docs/a.md#x".to_string(), "b.png".to_string()]
    );
    assert_eq!(
        slug(" Streaming: the overlay in OBS, the roll API, replay codes"),
        "streaming-the-overlay-in-obs-the-roll-api-replay-codes"
    );
    assert_eq!(
        slug(" The dice up close (View: close-up)"),
        "the-dice-up-close-view-close-up"
    );
    assert_eq!(
        resolve(Path::new("docs/online.md"), "../README.md#the-two-commands"),
        Some((
            PathBuf::from("README.md"),
            Some("the-two-commands".to_string())
        ))
    );
}
