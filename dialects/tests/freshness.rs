//! The checked-in registries must match what `tools/gen/gen_registries.py` would
//! generate from the pinned torch / onnx (skipped when that Python is absent).

mod common;

use std::process::Command;

#[test]
fn generated_registries_are_fresh() {
    let Some(python) = common::python_or_skip("freshness") else {
        return;
    };
    let root = common::workspace_root();
    let out = Command::new(&python)
        .arg(root.join("tools/gen/gen_registries.py"))
        .arg("--check")
        .current_dir(&root)
        .output()
        .expect("run tools/gen/gen_registries.py --check");
    assert!(
        out.status.success(),
        "tools/gen/gen_registries.py --check failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
