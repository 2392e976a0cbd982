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
    // The overloads of a newer torch (tools/gen/newer_torch_schemas.json) are not
    // in the pinned torch; they round-trip through its recorded text instead.
    // The quantization ops are not `aten::` ones (`quantized_ops_round_trip`).
    let ours: BTreeSet<String> = aten::all()
        .iter()
        .filter(|op| !aten::is_newer(op.name, op.overload) && !aten::is_quantized(op.name, op.overload))
        .map(|op| format!("{op:#}"))
        .collect();
    let missing: Vec<_> = torch.difference(&ours).take(10).collect();
    let extra: Vec<_> = ours.difference(&torch).take(10).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "schemas printed by torch but not by us: {missing:#?}\nprinted by us but not by torch: {extra:#?}"
    );
    assert_eq!(ours.len() + aten::NEWER_OVERLOADS.len() + aten::QUANTIZED_OVERLOADS.len(), aten::all().len());
}

/// The quantization ops print back as the installed torch prints them. The
/// `quantized_decomposed` library is defined by torch itself
/// (`torch.ao.quantization.fx._decomposed`, which torchao imports); the
/// `torchao::` primitives are checked only where torchao is importable.
const DUMP_QUANTIZED: &str = r#"
import sys, torch
try:
    import torchao
    print("torchao", torchao.__version__.split("+")[0])
except ImportError:
    import torch.ao.quantization.fx._decomposed
    print("torchao -")
for s in torch._C._jit_get_all_schemas():
    if s.name.startswith(("quantized_decomposed::", "torchao::")):
        print(str(s))
"#;

#[test]
fn quantized_ops_round_trip() {
    let Some(python) = common::python_or_skip("quantized_round_trip") else {
        return;
    };
    let out = Command::new(&python).args(["-c", DUMP_QUANTIZED]).output().expect("run python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines().filter(|l| l.starts_with("torchao ") || l.contains("::"));
    let torchao = lines.next().expect("torchao line").strip_prefix("torchao ").unwrap().to_string();
    let printed: BTreeSet<String> = lines.map(str::to_string).collect();
    // torch's printing of every registered quantization op whose namespace
    // this python registers (all torchao:: ops but the primitives are kernels).
    let have_torchao = torchao != "-";
    let ours: BTreeSet<String> = aten::QUANTIZED_OVERLOADS
        .iter()
        .map(|(name, overload)| aten::lookup(name, overload).expect("registered"))
        .filter(|op| have_torchao || op.namespace() == "quantized_decomposed")
        .map(|op| format!("{op:#}"))
        .collect();
    let missing: Vec<_> = ours.difference(&printed).collect();
    assert!(
        missing.is_empty(),
        "registered quantization ops that torch (torchao {torchao}) prints differently or lacks \
         (regenerate: tools/gen/gen_registries.py --capture-quantized): {missing:#?}"
    );
    // Every quantized_decomposed op torch has is registered.
    let qd: BTreeSet<&String> = printed.iter().filter(|s| s.starts_with("quantized_decomposed::")).collect();
    let extra: Vec<_> = qd.iter().filter(|s| !ours.contains(**s)).collect();
    assert!(extra.is_empty(), "quantized_decomposed ops not registered: {extra:#?}");
    if have_torchao && torchao == aten::TORCHAO_VERSION {
        assert_eq!(ours.len(), aten::QUANTIZED_OVERLOADS.len());
    }
}

/// The newer torch's overloads print back as that torch printed them.
#[test]
fn newer_torch_schemas_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tools/gen/newer_torch_schemas.json")).expect("the JSON");
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
