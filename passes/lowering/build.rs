//! Lists the lowering rule files: every `src/rules/<family>/<op>.rs` that
//! declares `pub const RULES` becomes a module and an entry of `rules::ALL`,
//! so adding a rule is adding one file (no shared list to edit). Families are
//! folders only: every file is a module of `rules` itself (file stems are
//! unique across families, a build error otherwise), so a rule reaches the
//! helper library as `super::common`, `super::softmax_common`, wherever the
//! two files sit. The same for the decompositions of `aten-decompose`
//! (`src/decompositions/<op>.rs`, `pub const DECOMPOSITIONS`,
//! `decompositions::ALL`), which have no families.

use std::{
    collections::BTreeMap,
    env, fs,
    path::{Path, PathBuf},
};

fn main() {
    // Read at run time: a build-script binary reused from another checkout
    // (same target dir) must still list THIS checkout's files.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    list(&manifest, "src/rules", "RULES", "Rule", "rules.rs");
    list(&manifest, "src/decompositions", "DECOMPOSITIONS", "Decomposition", "decompositions.rs");
}

/// The `.rs` files of `dir` and of its subfolders (one level: the families),
/// but `mod.rs`, keyed by their path relative to `dir` (`unary/abs.rs`).
fn sources(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut entries: Vec<_> =
        fs::read_dir(dir).expect("the rule or decomposition directory").filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            for sub in fs::read_dir(&path).expect("a family directory").filter_map(|e| e.ok()) {
                let file = sub.file_name().to_string_lossy().into_owned();
                if file.ends_with(".rs") {
                    found.insert(format!("{name}/{file}"), sub.path());
                }
            }
        } else if name.ends_with(".rs") && name != "mod.rs" {
            found.insert(name, path);
        }
    }
    found
}

/// Writes `OUT_DIR/<out>`: a module per source file of `dir` (but `mod.rs`)
/// and `ALL`, the `<item>` list of every file declaring `pub const <item>`.
fn list(manifest: &str, dir: &str, item: &str, ty: &str, out: &str) {
    let dir = Path::new(manifest).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut mods = String::new();
    let mut all = format!(
        "/// Every group with the file that holds it (relative to the folder), in file order.\npub static ALL: &[(&str, &[{ty}])] = &[\n"
    );
    let mut summaries = String::from(
        "/// The first sentence of each file's documentation (its `//!` lines, or the `///` lines before `{item}` or\n/// its first function), for listings.\npub static SUMMARIES: &[(&str, &str)] = &[\n",
    )
    .replace("{item}", item);
    // In file-name order, whatever the family: the order of `ALL` (the
    // lookup of a target, --list-rules, the docs) does not move with a file.
    let mut by_stem: BTreeMap<String, (String, PathBuf)> = BTreeMap::new();
    for (relative, path) in sources(&dir) {
        let file = Path::new(&relative).file_name().unwrap().to_string_lossy().into_owned();
        if let Some((other, _)) = by_stem.insert(file.clone(), (relative.clone(), path)) {
            panic!("two files define the module of `{file}`: {other} and {relative} (a file name names its op, once)");
        }
    }
    for (file, (relative, path)) in by_stem {
        let module = file.trim_end_matches(".rs");
        let text = fs::read_to_string(&path).unwrap_or_default();
        mods.push_str(&format!(
            "#[allow(non_snake_case)]\n#[path = {:?}]\nmod {module};\n",
            path.display().to_string()
        ));
        if text.contains(&format!("pub const {item}")) {
            all.push_str(&format!("    ({relative:?}, {module}::{item}),\n"));
            if let Some(summary) = summary(&text, item) {
                summaries.push_str(&format!("    ({relative:?}, {summary:?}),\n"));
            }
        }
    }
    all.push_str("];\n");
    summaries.push_str("];\n");
    let all = all + &summaries;
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join(out);
    fs::write(out, mods + &all).expect("write the generated module list");
}

/// The first sentence of a file's documentation: its `//!` block, else the
/// `///` block before `pub const <item>`, else its first `///` block.
fn summary(text: &str, item: &str) -> Option<String> {
    let block = |lines: &mut dyn Iterator<Item = &str>, prefix: &str| -> String {
        lines
            .map(str::trim_start)
            .skip_while(|l| !l.starts_with(prefix))
            .take_while(|l| l.starts_with(prefix))
            .map(|l| l.trim_start_matches(prefix).trim())
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut doc = block(&mut text.lines(), "//!");
    if doc.is_empty() {
        let before: Vec<&str> = match text.find(&format!("pub const {item}")) {
            Some(at) => text[..at].lines().rev().take_while(|l| l.trim_start().starts_with("///")).collect(),
            None => Vec::new(),
        };
        doc = block(&mut before.into_iter().rev(), "///");
    }
    if doc.is_empty() {
        doc = block(&mut text.lines(), "///");
    }
    // The first sentence: up to a period followed by a space (not `e.g.`).
    let mut end = doc.len();
    for (i, _) in doc.match_indices(". ") {
        if !doc[..i].ends_with("e.g") && !doc[..i].ends_with("i.e") {
            end = i + 1;
            break;
        }
    }
    let sentence = doc[..end].trim();
    (!sentence.is_empty()).then(|| sentence.to_string())
}
