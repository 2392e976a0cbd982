//! Every generated ATen schema prints back exactly as torch prints it:
//! `format!("{op:#}") == str(schema)` for all `aten::` schemas of the pinned
//! torch (skipped when that Python is absent; the literal cases in `aten.rs`
//! always run).

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use aten2onnx_dialects::aten;

const DUMP: &str = r#"
import sys, torch
for s in torch._C._jit_get_all_schemas():
    if s.name.startswith("aten::"):
        sys.stdout.write(str(s) + "\n")
"#;

#[test]
fn display_round_trips_every_torch_schema() {
    let Some(python) = common::python_or_skip("torch_roundtrip") else {
        return;
    };
    let out = Command::new(&python).args(["-c", DUMP]).output().expect("run python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let torch: BTreeSet<String> = String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect();
    // The overloads of a newer torch (tools/newer_torch_schemas.json) are not
    // in the pinned torch; they round-trip through its recorded text instead.
    let ours: BTreeSet<String> =
        aten::all().iter().filter(|op| !aten::is_newer(op.name, op.overload)).map(|op| format!("{op:#}")).collect();
    let missing: Vec<_> = torch.difference(&ours).take(10).collect();
    let extra: Vec<_> = ours.difference(&torch).take(10).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "schemas printed by torch but not by us: {missing:#?}\nprinted by us but not by torch: {extra:#?}"
    );
    assert_eq!(ours.len() + aten::NEWER_OVERLOADS.len(), aten::all().len());
}

/// The newer torch's overloads print back as that torch printed them.
#[test]
fn newer_torch_schemas_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tools/newer_torch_schemas.json")).expect("the JSON");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let recorded: BTreeSet<String> =
        doc["overloads"].as_array().unwrap().iter().map(|e| e["schema"].as_str().unwrap().to_string()).collect();
    let ours: BTreeSet<String> = aten::NEWER_OVERLOADS
        .iter()
        .map(|(name, overload)| format!("{:#}", aten::lookup(name, overload).expect("registered")))
        .collect();
    assert_eq!(doc["torch"].as_str(), Some(aten::NEWER_TORCH_VERSION));
    assert_eq!(ours, recorded);
}
