//! Lists the optimizer's rule families: every `src/rules/<family>.rs` that
//! declares `pub static RULES` becomes a module of `rules` and an entry of
//! `rules::FAMILIES`, named by its file. Adding a family is adding one file;
//! a rule's family is the file it sits in, never a string to keep in sync.

use std::{env, fs, path::Path};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("src/rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("src/rules")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs") && p.file_name().is_some_and(|n| n != "mod.rs"))
        .collect();
    files.sort();
    let mut mods = String::new();
    let mut families = String::from(
        "/// Every family, by file name, with its rules: the order rules are searched in.\npub static FAMILIES: &[(&str, &[Rule])] = &[\n",
    );
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap_or_default();
        mods.push_str(&format!("#[path = {:?}]\npub mod {name};\n", path.display().to_string()));
        if text.lines().any(|l| l.starts_with("pub static RULES: ")) {
            families.push_str(&format!("    ({name:?}, {name}::RULES),\n"));
        }
    }
    families.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("families.rs");
    fs::write(out, mods + &families).expect("write the generated family list");
}
