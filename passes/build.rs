//! Lists the passes: every `src/<pass>.rs` that declares `pub const INFO:
//! PassInfo` becomes a module of the crate and an entry of `REGISTRY`, in
//! file-name order. Adding a pass is adding one file (plus its tests).

use std::{env, fs, path::Path};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("src");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("src")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let mut mods = String::new();
    let mut registry = String::from(
        "/// Every project pass, in file-name order (`--list-passes`).\npub static REGISTRY: &[PassInfo] = &[\n",
    );
    for path in files {
        let text = fs::read_to_string(&path).unwrap_or_default();
        if !text.lines().any(|l| l.starts_with("pub const INFO: PassInfo = ")) {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        mods.push_str(&format!("#[path = {:?}]\npub mod {name};\n", path.display().to_string()));
        registry.push_str(&format!("    {name}::INFO,\n"));
    }
    registry.push_str("];\n");
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("registry.rs");
    fs::write(out, mods + &registry).expect("write the generated pass registry");
}
