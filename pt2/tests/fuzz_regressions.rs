//! Inputs the fuzzers (tools/fuzz, docs/fuzzing.md) found problems with:
//! each must open to `Ok` or a clean `Err` and, when it opens, every weight
//! and constant must read or be refused, without a panic.

use std::path::PathBuf;

#[test]
fn every_fuzz_finding_is_handled() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/fuzz_regressions") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        seen += 1;
        let bytes = std::fs::read(&path).unwrap();
        let result = std::panic::catch_unwind(|| {
            if let Ok(archive) = aten2onnx_pt2::Archive::from_bytes(path.clone(), bytes) {
                let names: Vec<String> =
                    archive.weight_names().chain(archive.constant_names()).map(str::to_string).collect();
                for name in &names {
                    let _ = archive.weight(name).map(|t| t.numel());
                    let _ = archive.constant(name).map(|t| t.numel());
                }
            }
        });
        assert!(result.is_ok(), "{} panics", path.display());
    }
    eprintln!("{seen} fuzz findings replayed");
}
