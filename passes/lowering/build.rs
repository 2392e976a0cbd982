//! Lists the lowering rule files: every `src/rules/<op>.rs` that
//! declares `pub const RULES` becomes a module and an entry of `rules::ALL`,
//! so adding a rule is adding one file (no shared list to edit). The same for
//! the decompositions of `aten-decompose` (`src/decompositions/<op>.rs`,
//! `pub const DECOMPOSITIONS`, `decompositions::ALL`).

use std::{env, fs, path::Path};

fn main() {
    // Read at run time: a build-script binary reused from another checkout
    // (same target dir) must still list THIS checkout's files.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    list(&manifest, "src/rules", "RULES", "Rule", "rules.rs");
    list(&manifest, "src/decompositions", "DECOMPOSITIONS", "Decomposition", "decompositions.rs");
}

/// Writes `OUT_DIR/<out>`: a module per file of `dir` (but `mod.rs`) and
/// `ALL`, the `<item>` list of every file declaring `pub const <item>`.
fn list(manifest: &str, dir: &str, item: &str, ty: &str, out: &str) {
    let dir = Path::new(manifest).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<String> = fs::read_dir(&dir)
        .expect("the rule or decomposition directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs") && name != "mod.rs")
        .collect();
    files.sort();
    let mut mods = String::new();
    let mut all = format!(
        "/// Every group with the file that holds it, in file order.\npub static ALL: &[(&str, &[{ty}])] = &[\n"
    );
    for file in &files {
        let module = file.trim_end_matches(".rs");
        let path = dir.join(file);
        let text = fs::read_to_string(&path).unwrap_or_default();
        mods.push_str(&format!(
            "#[allow(non_snake_case)]\n#[path = {:?}]\nmod {module};\n",
            path.display().to_string()
        ));
        if text.contains(&format!("pub const {item}")) {
            all.push_str(&format!("    ({file:?}, {module}::{item}),\n"));
        }
    }
    all.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join(out);
    fs::write(out, mods + &all).expect("write the generated module list");
}
