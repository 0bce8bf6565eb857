//! The digest contract holds by construction (`src/rules/digest.rs`): every ruleset writes the
//! state its room logs hash in a `digest.rs` of its own, field by field, so renaming a field of
//! a table changes no stored digest, and adding one does not compile until its digest decides
//! about it. The compiler enforces that only where each struct is destructured whole and each
//! enum matched without a wildcard, and where no table can reach its digest through serde: this
//! reads every `digest.rs` (with `syn`, as the compiler would) and checks exactly that.

use std::path::Path;

use syn::visit::Visit;

fn rules_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules")
}

fn parse(path: &Path) -> syn::File {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The last segment of a type's path (`Table` of `super::Table`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// What one impl's body does with the value it writes.
#[derive(Default)]
struct Body {
    /// Struct patterns naming the impl's own type, and whether each has a `..`.
    destructured: Vec<bool>,
    /// `match` arms that are a wildcard `_`.
    wildcards: usize,
    /// Matches.
    matches: usize,
}

impl<'ast> Visit<'ast> for Body {
    fn visit_pat_struct(&mut self, p: &'ast syn::PatStruct) {
        self.destructured.push(p.rest.is_some());
        syn::visit::visit_pat_struct(self, p);
    }
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.matches += 1;
        self.wildcards += m
            .arms
            .iter()
            .filter(|a| matches!(a.pat, syn::Pat::Wild(_)))
            .count();
        syn::visit::visit_expr_match(self, m);
    }
}

/// The names a file's code calls or paths it names (to find serde's way in).
#[derive(Default)]
struct Names(Vec<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_ident(&mut self, i: &'ast syn::Ident) {
        self.0.push(i.to_string());
    }
}

#[test]
fn every_rulesets_digest_names_every_field_and_uses_no_serde() {
    let _lane = crate::beside_real_time();
    let mut rulesets = Vec::new();
    for entry in std::fs::read_dir(rules_dir()).expect("src/rules") {
        let dir = entry.expect("an entry").path();
        if !dir.is_dir() || !dir.join("mod.rs").exists() || dir.ends_with("scene") {
            continue;
        }
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let digest = dir.join("digest.rs");
        assert!(digest.exists(), "{name} has no digest.rs");
        let file = parse(&digest);
        let mut impls = Vec::new();
        for item in &file.items {
            let syn::Item::Impl(imp) = item else { continue };
            let Some((_, trait_path, _)) = &imp.trait_ else {
                continue;
            };
            if trait_path.segments.last().map(|s| s.ident.to_string()) != Some("Digest".into()) {
                continue;
            }
            let ty = type_name(&imp.self_ty).expect("a named type");
            let mut body = Body::default();
            body.visit_item_impl(imp);
            if body.matches > 0 && body.destructured.is_empty() {
                // An enum: every variant named.
                assert_eq!(
                    body.wildcards, 0,
                    "{name}: `impl Digest for {ty}` matches `_`"
                );
            } else {
                assert!(
                    !body.destructured.is_empty(),
                    "{name}: `impl Digest for {ty}` neither destructures nor matches it"
                );
                assert!(
                    body.destructured.iter().all(|rest| !rest),
                    "{name}: `impl Digest for {ty}` destructures with `..`: a new field would \
                     compile without its digest deciding about it"
                );
            }
            impls.push(ty);
        }
        assert!(
            impls.iter().any(|t| t == "Table"),
            "{name}: no `impl Digest for Table`"
        );
        let mut names = Names::default();
        names.visit_file(&file);
        for serde_way in ["serde", "to_value", "Serialize", "json"] {
            assert!(
                !names.0.iter().any(|n| n == serde_way),
                "{name}/digest.rs names `{serde_way}`: the state is written by hand, never \
                 through serde"
            );
        }
        rulesets.push((name, impls));
    }
    rulesets.sort();
    let names: Vec<&str> = rulesets.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "action_dice",
            "d20_check",
            "d4_pool",
            "open_d6",
            "step_dice",
            "system_file"
        ]
    );
}

/// No table (nor anything the digests write) derives `Serialize`: a field's Rust name can
/// reach no hashed byte but through its `digest.rs`.
#[test]
fn no_table_derives_serialize() {
    let _lane = crate::beside_real_time();
    let mut written = Vec::new();
    for entry in std::fs::read_dir(rules_dir()).expect("src/rules") {
        let dir = entry.expect("an entry").path();
        let digest = dir.join("digest.rs");
        if !digest.exists() {
            continue;
        }
        for item in parse(&digest).items {
            if let syn::Item::Impl(imp) = item
                && let Some(ty) = type_name(&imp.self_ty)
            {
                written.push(ty);
            }
        }
    }
    // Types the digests write that are also what a person writes (moves, scenes, rule files)
    // keep serde for that: their digests still name every field.
    let read_from_files = [
        "Action",
        "Category",
        "Effect",
        "FocusCondition",
        "RollKind",
        "Side",
    ];
    let mut derived = Vec::new();
    for path in rust_files(&rules_dir()) {
        for item in parse(&path).items {
            let (ident, attrs) = match &item {
                syn::Item::Struct(s) => (s.ident.to_string(), &s.attrs),
                syn::Item::Enum(e) => (e.ident.to_string(), &e.attrs),
                _ => continue,
            };
            if !written.contains(&ident) || read_from_files.contains(&ident.as_str()) {
                continue;
            }
            let derives_serialize = attrs.iter().any(|a| {
                a.path().is_ident("derive")
                    && a.meta
                        .require_list()
                        .is_ok_and(|l| l.tokens.to_string().contains("Serialize"))
            });
            if derives_serialize {
                derived.push(format!("{} in {}", ident, path.display()));
            }
        }
    }
    assert!(derived.is_empty(), "derive Serialize: {derived:?}");
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}
