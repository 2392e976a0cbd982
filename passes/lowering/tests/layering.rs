//! Layering of the lowering rules: a rule file (`src/rules/<family>/<op>.rs`,
//! one that declares `pub const RULES`) may use the helper library
//! (`src/rules/helpers/`: `common.rs`, `*_common.rs`, no `RULES`) but not
//! another rule file, so that a rule can
//! be read, moved or deleted alone and shared code has one home.
//!
//! The imports that predate this test are listed in `rule_imports_debt.txt`
//! (`importer -> imported`, one a line): the list may only shrink. A new
//! import fails here: move the shared function into a helper file of the
//! family (or `common.rs`) and import it from there. An entry that no
//! longer exists fails too, so that the list stays the truth.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

fn rule_imports() -> BTreeSet<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    // Every file of the family folders (`rules/<family>/<op>.rs`), by stem:
    // the stem is the module name rules use (`super::<stem>::`).
    let files: BTreeMap<String, String> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .flat_map(|family| fs::read_dir(family.path()).unwrap().filter_map(|e| e.ok()))
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rs")?.to_string();
            Some((stem, fs::read_to_string(e.path()).unwrap()))
        })
        .collect();
    assert!(files.len() > 600, "the rule folders were not found under {}", dir.display());
    let is_rule = |stem: &str| files.get(stem).is_some_and(|text| text.contains("pub const RULES"));
    let mut found = BTreeSet::new();
    for (stem, text) in &files {
        // `super::<module>::` anywhere, and `<module>::` inside `use super::{...}`.
        let mut referenced = Vec::new();
        for (at, _) in text.match_indices("super::") {
            let rest = &text[at + "super::".len()..];
            if let Some(list) = rest.strip_prefix('{') {
                let list = &list[..list.find('}').unwrap_or(list.len())];
                for part in list.split(',') {
                    if let Some((module, _)) = part.trim().split_once("::") {
                        referenced.push(module.trim().to_string());
                    }
                }
            } else if let Some((module, _)) = rest.split_once("::") {
                if module.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    referenced.push(module.to_string());
                }
            }
        }
        for module in referenced {
            if module != *stem && is_rule(&module) {
                found.insert((stem.clone(), module));
            }
        }
    }
    found
}

#[test]
fn rule_files_do_not_import_rule_files() {
    let debt_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rule_imports_debt.txt");
    let found = rule_imports();
    // `ATEN2ONNX_REWRITE_DEBT=1` rewrites the list from the tree (after
    // removing imports; a growing list shows in review).
    if std::env::var_os("ATEN2ONNX_REWRITE_DEBT").is_some() {
        let mut text = String::from(
            "# Rule files that import other rule files (passes/lowering/tests/layering.rs):\n\
             # debt that may only shrink. `importer -> imported`.\n",
        );
        for (a, b) in &found {
            text.push_str(&format!("{a} -> {b}\n"));
        }
        fs::write(&debt_path, text).unwrap();
    }
    let debt: BTreeSet<(String, String)> = fs::read_to_string(&debt_path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (a, b) = l.split_once("->").unwrap_or_else(|| panic!("bad line {l:?}"));
            (a.trim().to_string(), b.trim().to_string())
        })
        .collect();
    let new: Vec<_> = found.difference(&debt).map(|(a, b)| format!("{a} -> {b}")).collect();
    let gone: Vec<_> = debt.difference(&found).map(|(a, b)| format!("{a} -> {b}")).collect();
    assert!(
        new.is_empty(),
        "rule files importing other rule files (move the shared code to a helper file, \
         `common.rs` or `<family>_common.rs`): {new:?}"
    );
    assert!(gone.is_empty(), "no longer imported: remove from rule_imports_debt.txt: {gone:?}");
}

/// The family folders: a helper (a file without `pub const RULES`) lives in
/// `rules/helpers/` and nowhere else, a rule never there; no folder grows
/// past what a reader scans in one look (80 files); no stray file beside
/// the folders but `mod.rs`.
#[test]
fn rule_families_hold_rules_and_helpers_hold_the_rest() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut misplaced = Vec::new();
    for entry in fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_dir() {
            if name != "mod.rs" {
                misplaced.push(format!("{name}: put it in a family folder"));
            }
            continue;
        }
        let files: Vec<_> = fs::read_dir(entry.path()).unwrap().filter_map(|e| e.ok()).collect();
        if files.len() > 80 {
            misplaced.push(format!("{name}/ holds {} files: split the family", files.len()));
        }
        for file in files {
            let text = fs::read_to_string(file.path()).unwrap();
            let is_rule = text.contains("pub const RULES");
            let file = file.file_name().to_string_lossy().into_owned();
            if is_rule && name == "helpers" {
                misplaced.push(format!("helpers/{file} declares RULES: move it to its family"));
            } else if !is_rule && name != "helpers" {
                misplaced.push(format!("{name}/{file} has no RULES: shared code goes to helpers/"));
            }
        }
    }
    assert!(misplaced.is_empty(), "{misplaced:#?}");
}
