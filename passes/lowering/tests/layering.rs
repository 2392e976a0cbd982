//! Layering of the lowering rules: a rule file (`src/rules/<op>.rs`, one
//! that declares `pub const RULES`) may use the helper files (`common.rs`,
//! `*_common.rs`: no `RULES`) but not another rule file, so that a rule can
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
    let files: BTreeMap<String, String> = fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rs")?.to_string();
            (stem != "mod").then(|| (stem, fs::read_to_string(e.path()).unwrap()))
        })
        .collect();
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
