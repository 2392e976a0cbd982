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
        }
    }
    all.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join(out);
    fs::write(out, mods + &all).expect("write the generated module list");
}
