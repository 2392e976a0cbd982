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
    let ours: BTreeSet<String> = aten::all().iter().map(|op| format!("{op:#}")).collect();
    let missing: Vec<_> = torch.difference(&ours).take(10).collect();
    let extra: Vec<_> = ours.difference(&torch).take(10).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "schemas printed by torch but not by us: {missing:#?}\nprinted by us but not by torch: {extra:#?}"
    );
    assert_eq!(ours.len(), aten::all().len());
}
