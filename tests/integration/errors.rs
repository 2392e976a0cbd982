//! The `aten-opt` and `aten-translate` binaries: on bad input they exit 1,
//! print a clear message on stderr and write no output file; on good input
//! they exit 0. Messages are snapshotted (paths in them are relative: the
//! commands run in the crate root or in a scratch directory).

use crate::{fixture, import, scratch_dir};
use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

pub(crate) const ATEN_OPT: &str = env!("CARGO_BIN_EXE_aten-opt");
pub(crate) const ATEN_TRANSLATE: &str = env!("CARGO_BIN_EXE_aten-translate");

/// A small valid aten module with one dead op.
const VALID_MLIR: &str = r#"func.func @forward(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "aten.relu.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.neg.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"#;

/// Runs `program` with `args` in `dir`.
pub(crate) fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(program).args(args).current_dir(dir).output().unwrap_or_else(|e| panic!("running {program}: {e}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The crate root: fixtures are named relative to it.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts a failure: exit code 1, nothing on stdout, a message on stderr
/// (returned), and no file in `scratch` (no output, no partial file).
pub(crate) fn assert_fails(output: &Output, scratch: &Path) -> String {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(1), "exit code; stderr:\n{message}");
    assert_eq!(stdout(output), "", "nothing on stdout on failure");
    assert!(!message.trim().is_empty(), "a message on stderr");
    let left: Vec<_> = std::fs::read_dir(scratch).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(
        left.iter().all(|name| name.to_string_lossy().starts_with("input")),
        "no output (or partial output) file may be written, found {left:?}"
    );
    message
}

/// A scratch dir holding `input.mlir` with `source`.
fn with_input(test: &str, source: &str) -> PathBuf {
    let dir = scratch_dir(test);
    std::fs::write(dir.join("input.mlir"), source).unwrap();
    dir
}

/// `aten-opt input.mlir --pass-pipeline=PIPELINE -o out.mlir` in a scratch dir.
fn aten_opt_pipeline(test: &str, pipeline: &str) -> String {
    let dir = with_input(test, VALID_MLIR);
    let output = run(ATEN_OPT, &dir, &["input.mlir", &format!("--pass-pipeline={pipeline}"), "-o", "out.mlir"]);
    assert_fails(&output, &dir)
}

// ------------------------------------------------------------------ aten-opt

#[test]
fn unknown_pass() {
    let message = aten_opt_pipeline("unknown_pass", "builtin.module(func.func(frobnicate))");
    assert!(message.contains("unknown pass 'frobnicate'"), "{message}");
    let names: Vec<_> = aten2onnx_passes::REGISTRY.iter().map(|info| info.name).collect();
    let list = format!("({})", names.join(", "));
    assert!(message.contains(&list), "lists the project passes {list}: {message}");
    // The snapshot does not depend on which passes exist.
    let message = message.replace(&list, "(<the project passes>)");
    insta::assert_snapshot!("unknown_pass", message);
}

#[test]
fn unbalanced_parentheses() {
    let message = aten_opt_pipeline("unbalanced_parentheses", "builtin.module(func.func(dce)");
    assert!(message.contains("expected ',' or ')' at column 30"), "{message}");
    insta::assert_snapshot!("unbalanced_parentheses", message);
}

#[test]
fn unterminated_options() {
    let message = aten_opt_pipeline("unterminated_options", "builtin.module(canonicalize{max-iterations=3)");
    assert!(message.contains("unterminated '{'"), "{message}");
}

#[test]
fn missing_anchor() {
    let message = aten_opt_pipeline("missing_anchor", "func.func(dce)");
    assert!(message.contains("must be anchored on 'builtin.module'"), "{message}");
    insta::assert_snapshot!("missing_anchor", message);
    let message = aten_opt_pipeline("missing_anchor_bare", "dce");
    assert!(message.contains("expected '(' after 'dce'"), "{message}");
    insta::assert_snapshot!("missing_anchor_bare", message);
}

#[test]
fn unknown_pass_option() {
    let message = aten_opt_pipeline("unknown_pass_option", "builtin.module(func.func(dce{aggressive=true}))");
    assert!(message.contains("has no option 'aggressive'"), "{message}");
    insta::assert_snapshot!("unknown_pass_option", message);
    // Options of upstream passes are checked by MLIR.
    let message = aten_opt_pipeline("unknown_mlir_pass_option", "builtin.module(canonicalize{bogus=1})");
    assert!(message.contains("pass 'canonicalize'") && message.contains("bogus"), "{message}");
}

#[test]
fn nonexistent_mlir_input() {
    let dir = scratch_dir("nonexistent_mlir_input");
    let output = run(ATEN_OPT, &dir, &["missing.mlir", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("missing.mlir") && message.contains("No such file"), "{message}");
    insta::assert_snapshot!("nonexistent_mlir_input", message);
}

#[test]
fn malformed_mlir() {
    let source = "func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"aten.relu.default\"(%y) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    let dir = with_input("malformed_mlir", source);
    let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("input.mlir:2:28: error: use of undeclared SSA value name"), "file:line:col: {message}");
    insta::assert_snapshot!("malformed_mlir", message);
}

/// A file of bare top-level ops gets an implicit module (like mlir-opt); the
/// error position on the first op's line must still be the file's column.
#[test]
fn malformed_mlir_on_the_first_line_keeps_its_column() {
    // `%y` is at column 59 of line 1 (and of line 2 with a comment before it).
    let line = "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> { return %y : tensor<2xf32> }\n";
    for (source, position) in [
        (line.to_string(), "input.mlir:1:59:"),
        (format!("// a comment\n{line}"), "input.mlir:2:59:"),
        (format!("module {{\n{line}}}\n"), "input.mlir:2:59:"),
    ] {
        let dir = with_input("malformed_mlir_first_line", &source);
        let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
        let message = assert_fails(&output, &dir);
        assert!(
            message.contains(&format!("{position} error: use of undeclared SSA value name")),
            "want {position} for\n{source}got: {message}"
        );
    }
}

#[test]
fn malformed_mlir_in_a_later_chunk_keeps_file_lines() {
    let source = format!("{VALID_MLIR}// -----\nfunc.func @g() {{\n  return %nope : tensor<2xf32>\n}}\n");
    let dir = with_input("malformed_mlir_split", &source);
    let output = run(ATEN_OPT, &dir, &["input.mlir", "--split-input-file", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("input.mlir:8:10: error:"), "line of the whole file: {message}");
}

#[test]
fn aten_op_missing_from_the_registry() {
    let source = VALID_MLIR.replace("aten.neg.default", "aten.frobnicate.default");
    let dir = with_input("aten_op_missing_from_the_registry", &source);
    let output =
        run(ATEN_OPT, &dir, &["input.mlir", "--pass-pipeline=builtin.module(func.func(dce))", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(
        message.contains("input.mlir:3:8: error: 'aten.frobnicate.default' op is not in the aten registry"),
        "{message}"
    );
    insta::assert_snapshot!("aten_op_missing_from_the_registry", message);
    // Without a pipeline the input is still verified.
    let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
    assert!(assert_fails(&output, &dir).contains("'aten.frobnicate.default' op is not in the aten registry"));
    // --verify-each=false skips the registry verifiers.
    let output = run(ATEN_OPT, &dir, &["input.mlir", "--verify-each=false"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// A pass that fails mid-pipeline: exit 1, its diagnostics, and an existing
/// output file is left as it was (outputs are written atomically at the end).
#[test]
fn a_failing_pass_writes_no_output() {
    let source = VALID_MLIR.replace("aten.neg.default", "aten.frobnicate.default");
    let dir = with_input("a_failing_pass_writes_no_output", &source);
    let args = [
        "input.mlir",
        "--verify-each=false",
        "--pass-pipeline=builtin.module(func.func(dce), aten-verify)",
        "-o",
        "out.mlir",
    ];
    let output = run(ATEN_OPT, &dir, &args);
    let message = assert_fails(&output, &dir);
    assert!(
        message.contains("input.mlir:3:8: error: 'aten.frobnicate.default' op is not in the aten registry"),
        "{message}"
    );
    std::fs::write(dir.join("out.mlir"), "previous contents\n").unwrap();
    let output = run(ATEN_OPT, &dir, &args);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(dir.join("out.mlir")).unwrap(), "previous contents\n");
}

#[test]
fn aten_opt_succeeds() {
    let dir = with_input("aten_opt_succeeds", VALID_MLIR);
    let output = run(ATEN_OPT, &dir, &["input.mlir", "--pass-pipeline=builtin.module(func.func(dce))"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("aten.relu.default") && !text.contains("aten.neg.default"), "{text}");
    // -o writes the same text to the file.
    let output =
        run(ATEN_OPT, &dir, &["input.mlir", "--pass-pipeline=builtin.module(func.func(dce))", "-o", "out.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(dir.join("out.mlir")).unwrap(), text);
    // Stdin input.
    let mut child = Command::new(ATEN_OPT)
        .args(["--pass-pipeline=builtin.module(func.func(dce))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(VALID_MLIR.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), text);
}

#[test]
fn list_passes() {
    let output = run(ATEN_OPT, &root(), &["--list-passes"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    // Every project pass with its summary and options (no snapshot: the list
    // grows with every pass).
    for info in aten2onnx_passes::REGISTRY {
        let line = text.lines().find(|l| l.trim_start().starts_with(&format!("{} ", info.name)));
        assert!(line.is_some_and(|l| l.contains(info.summary)), "{} not listed with its summary:\n{text}", info.name);
        for option in info.options {
            assert!(
                text.contains(&format!("{{{}=...}}", option.name)),
                "option {} of {}:\n{text}",
                option.name,
                info.name
            );
        }
    }
    for name in ["aten-verify", "onnx-verify", "dce"] {
        assert!(text.contains(name), "{name} not listed:\n{text}");
    }
    assert!(text.contains("canonicalize"), "points at MLIR's own passes:\n{text}");
    assert_eq!(text, aten2onnx::opt::list_passes());
}

// ------------------------------------------------------------- aten-translate

/// `aten-translate --from-pt2 tests/fixtures/NAME.pt2 -o SCRATCH/out.mlir`,
/// run in the crate root so the message names the fixture relatively.
fn from_pt2_fails(name: &str) -> String {
    let dir = scratch_dir(&format!("from_pt2_{name}"));
    let out = dir.join("out.mlir");
    let output = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture(name), "-o", out.to_str().unwrap()]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains(&format!("tests/fixtures/{name}.pt2")), "names the file: {message}");
    message
}

#[test]
fn truncated_pt2() {
    let message = from_pt2_fails("truncated");
    assert!(message.contains("truncated"), "{message}");
    insta::assert_snapshot!("truncated_pt2", message);
}

#[test]
fn not_a_zip_pt2() {
    let message = from_pt2_fails("not_a_zip");
    assert!(message.contains("not a ZIP archive"), "{message}");
    insta::assert_snapshot!("not_a_zip_pt2", message);
}

#[test]
fn bad_schema_pt2() {
    let message = from_pt2_fails("bad_schema");
    assert!(message.contains("unsupported export schema version 99"), "{message}");
    insta::assert_snapshot!("bad_schema_pt2", message);
}

#[test]
fn corrupt_json_pt2() {
    let message = from_pt2_fails("corrupt_json");
    assert!(message.contains("model.json:1:41"), "the JSON error position: {message}");
    insta::assert_snapshot!("corrupt_json_pt2", message);
}

#[test]
fn custom_op_pt2() {
    let message = from_pt2_fails("custom_op");
    assert!(message.contains("torch.ops.aten2onnx_test.scale.default"), "names the op: {message}");
    assert!(message.contains("node 'scale'"), "names the node: {message}");
    let line = message
        .split("tools/capture_fixtures.py:")
        .nth(1)
        .map(|rest| rest.chars().take_while(char::is_ascii_digit).collect::<String>())
        .unwrap_or_default();
    assert!(!line.is_empty(), "gives the Python source line tools/capture_fixtures.py:<line>: {message}");
    insta::assert_snapshot!("custom_op_pt2", message);
}

#[test]
fn nonexistent_pt2() {
    let dir = scratch_dir("nonexistent_pt2");
    let output = run(ATEN_TRANSLATE, &dir, &["--from-pt2", "missing.pt2", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("missing.pt2") && message.contains("No such file"), "{message}");
    insta::assert_snapshot!("nonexistent_pt2", message);
}

/// `--to-onnx` on a bad `.pt2`: exit 1, the file named, and no model (nor
/// external-data file) written.
#[test]
fn to_onnx_fails_cleanly_on_bad_input() {
    for name in ["truncated", "not_a_zip", "bad_schema", "corrupt_json", "custom_op"] {
        let dir = scratch_dir(&format!("to_onnx_{name}"));
        let out = dir.join("model.onnx");
        let output = run(ATEN_TRANSLATE, &root(), &["--to-onnx", &fixture(name), "-o", out.to_str().unwrap()]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(&format!("tests/fixtures/{name}.pt2")), "names the file: {message}");
    }
    // A nonexistent input.
    let dir = scratch_dir("to_onnx_missing");
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "missing.pt2", "-o", "model.onnx"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("missing.pt2") && message.contains("No such file"), "{message}");
    // Without -o: a usage error, still exit 1.
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", &root().join(fixture("mlp")).to_string_lossy()]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("-o"), "{message}");
}

/// `--to-onnx` on a good `.pt2` writes a model (its contents are tested
/// elsewhere, against onnxruntime).
#[test]
fn to_onnx_writes_a_model() {
    let dir = scratch_dir("to_onnx_writes_a_model");
    let out = dir.join("mlp.onnx");
    let output = run(ATEN_TRANSLATE, &root(), &["--to-onnx", &fixture("mlp"), "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(std::fs::metadata(&out).map(|m| m.len() > 0).unwrap_or(false), "no model written");
    let partial: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(partial.is_empty(), "temporary files left behind: {partial:?}");
}

#[test]
fn from_pt2_succeeds() {
    let output = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture("mlp")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    assert_eq!(stdout(&output), import("mlp", false), "the binary prints what the library imports");
    let dir = scratch_dir("from_pt2_succeeds");
    let out = dir.join("mlp.mlir");
    let output = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture("mlp"), "-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), import("mlp", false));
    // With debug info.
    let output = run(ATEN_TRANSLATE, &root(), &["--from-pt2", &fixture("mlp"), "--mlir-print-debuginfo"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), import("mlp", true));
    // The printed module goes through aten-opt unchanged.
    let output = run(ATEN_OPT, &dir, &["mlp.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), import("mlp", false));
}

// ------------------------------------------------------- hostile inputs (issue 9)
//
// Each class of hostile input found by the hostile-input run: exit code 1, a
// message naming the file (and the node), no output or partial file left,
// the input untouched; never a panic, a signal or a hang.

#[path = "../../pt2/tests/common/mod.rs"]
#[allow(dead_code)]
pub(crate) mod zip_writer;

/// `fixture` with its `models/model.json` (and weights config) edited by
/// `edit`, written to `dir/input.pt2`.
pub(crate) fn mutated_fixture(
    fixture_name: &str,
    dir: &Path,
    edit: impl FnOnce(&mut serde_json::Value, &mut serde_json::Value),
) -> PathBuf {
    let archive = aten2onnx_pt2::Archive::open(root().join(fixture(fixture_name))).unwrap();
    let mut members = zip_writer::members_of(&archive);
    let index = |members: &[zip_writer::Member], suffix: &str| members.iter().position(|m| m.name.ends_with(suffix));
    let model_at = index(&members, "models/model.json").unwrap();
    let weights_at = index(&members, "model_weights_config.json");
    let mut model: serde_json::Value = serde_json::from_slice(&members[model_at].data).unwrap();
    let mut weights: serde_json::Value =
        weights_at.map(|i| serde_json::from_slice(&members[i].data).unwrap()).unwrap_or(serde_json::Value::Null);
    edit(&mut model, &mut weights);
    members[model_at].data = serde_json::to_vec(&model).unwrap();
    if let Some(i) = weights_at {
        members[i].data = serde_json::to_vec(&weights).unwrap();
    }
    let path = dir.join("input.pt2");
    std::fs::write(&path, zip_writer::write_zip(&members, zip_writer::ZipOptions { zip64: false, align: true }))
        .unwrap();
    path
}

/// The node named `name` of a program's JSON.
pub(crate) fn node<'v>(model: &'v mut serde_json::Value, name: &str) -> &'v mut serde_json::Value {
    model["graph_module"]["graph"]["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|n| n["name"] == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// The argument `arg` of a node's JSON.
fn node_arg<'v>(node: &'v mut serde_json::Value, arg: &str) -> &'v mut serde_json::Value {
    node["inputs"].as_array_mut().unwrap().iter_mut().find(|i| i["name"] == arg).map(|i| &mut i["arg"]).unwrap()
}

/// `aten-translate --to-onnx input.pt2 -o model.onnx` in `dir`: must fail
/// cleanly; returns the message. The input is left as it was.
pub(crate) fn to_onnx_fails(dir: &Path, input: &str) -> String {
    let before = std::fs::read(dir.join(input)).unwrap();
    let output = run(ATEN_TRANSLATE, dir, &["--to-onnx", input, "-o", "model.onnx"]);
    let message = assert_fails(&output, dir);
    assert!(message.contains(input), "names the input file: {message}");
    assert!(!message.contains("internal error"), "a clean error, not a caught panic: {message}");
    assert_eq!(std::fs::read(dir.join(input)).unwrap(), before, "the input is untouched");
    message
}

#[test]
fn flag_errors_exit_1_and_help_exits_0() {
    let dir = scratch_dir("flag_errors_exit_1");
    for (tool, args) in [
        (ATEN_TRANSLATE, vec!["--bogus"]),
        (ATEN_TRANSLATE, vec!["input.pt2"]),
        (ATEN_TRANSLATE, vec!["--to-onnx", "input.pt2", "-o", "m.onnx", "--opset", "x"]),
        (ATEN_TRANSLATE, vec!["--to-onnx", "input.pt2", "-o", "m.onnx", "--external-data", "sometimes"]),
        (ATEN_OPT, vec!["--nope"]),
        (ATEN_OPT, vec!["--verify-each", "maybe"]),
    ] {
        let output = run(tool, &dir, &args);
        let message = assert_fails(&output, &dir);
        assert!(message.contains("error:"), "clap's message for {args:?}: {message}");
    }
    for tool in [ATEN_TRANSLATE, ATEN_OPT] {
        for flag in ["--help", "--version"] {
            let output = run(tool, &dir, &[flag]);
            assert_eq!(output.status.code(), Some(0), "{tool} {flag}: {}", stderr(&output));
            assert!(!stdout(&output).is_empty());
        }
    }
}

#[test]
fn opset_out_of_range_is_a_usage_error() {
    let dir = scratch_dir("opset_out_of_range");
    std::fs::copy(root().join(fixture("mlp")), dir.join("input.pt2")).unwrap();
    for opset in ["0", "16", "29"] {
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", "model.onnx", "--opset", opset]);
        let message = assert_fails(&output, &dir);
        assert_eq!(message.trim(), format!("aten-translate: --opset {opset} is outside the supported range 17..28"));
    }
}

#[test]
fn output_equal_to_an_input_is_refused_before_writing() {
    let dir = scratch_dir("output_equal_to_input");
    std::fs::copy(root().join(fixture("mlp")), dir.join("input.pt2")).unwrap();
    let original = std::fs::read(dir.join("input.pt2")).unwrap();
    std::os::unix::fs::symlink("input.pt2", dir.join("input-link.onnx")).unwrap();
    std::fs::hard_link(dir.join("input.pt2"), dir.join("input-hard.onnx")).unwrap();
    for args in [
        vec!["--to-onnx", "input.pt2", "-o", "input.pt2"],
        vec!["--to-onnx", "input.pt2", "-o", "./input.pt2"],
        vec!["--to-onnx", "input.pt2", "-o", "input-link.onnx"],
        vec!["--to-onnx", "input.pt2", "-o", "input-hard.onnx"],
        vec!["--from-pt2", "input.pt2", "-o", "./input.pt2"],
    ] {
        let output = run(ATEN_TRANSLATE, &dir, &args);
        let message = assert_fails(&output, &dir);
        assert!(message.contains("the output would overwrite the input"), "{args:?}: {message}");
        assert_eq!(std::fs::read(dir.join("input.pt2")).unwrap(), original, "{args:?} touched the input");
    }
    // A .mlir: -o the .mlir itself, or the archive it refers to.
    let output = run(ATEN_TRANSLATE, &dir, &["--from-pt2", "input.pt2", "-o", "input.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mlir = std::fs::read(dir.join("input.mlir")).unwrap();
    let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "./input.mlir"]);
    assert!(assert_fails(&output, &dir).contains("the output would overwrite the input"));
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "input.pt2"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("the output would overwrite the archive input.mlir refers to"), "{message}");
    assert_eq!(std::fs::read(dir.join("input.pt2")).unwrap(), original);
    assert_eq!(std::fs::read(dir.join("input.mlir")).unwrap(), mlir);
}

#[test]
fn symlink_and_device_outputs_are_written_through() {
    let dir = scratch_dir("symlink_output");
    std::fs::write(dir.join("target.onnx"), b"old").unwrap();
    std::os::unix::fs::symlink("target.onnx", dir.join("link.onnx")).unwrap();
    let input = root().join(fixture("mlp"));
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", input.to_str().unwrap(), "-o", "link.onnx"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(std::fs::symlink_metadata(dir.join("link.onnx")).unwrap().file_type().is_symlink(), "still a link");
    assert!(std::fs::metadata(dir.join("target.onnx")).unwrap().len() > 100, "written through the link");
    // A device node is written to, never replaced by a regular file.
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", input.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = run(ATEN_TRANSLATE, &dir, &["--from-pt2", input.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "no temporary files: {left:?}");
}

#[test]
fn a_directory_output_leaves_no_data_file() {
    let dir = scratch_dir("directory_output");
    std::fs::create_dir(dir.join("out")).unwrap();
    let input = root().join(fixture("mlp"));
    for extra in [vec![], vec!["--external-data", "always"]] {
        let mut args = vec!["--to-onnx", input.to_str().unwrap(), "-o", "out"];
        args.extend(extra);
        let output = run(ATEN_TRANSLATE, &dir, &args);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{message}");
        assert!(message.contains("out: the output path is a directory"), "{message}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("out")], "left behind: {left:?}");
        assert_eq!(std::fs::read_dir(dir.join("out")).unwrap().count(), 0);
    }
}

/// A node without a name (empty or missing) used to panic in the writer.
#[test]
fn nodes_without_names_convert() {
    for (test, edit) in [("empty_node_name", true), ("missing_node_name", false)] {
        let dir = scratch_dir(test);
        mutated_fixture("attention", &dir, |model, _| {
            let first = &mut model["graph_module"]["graph"]["nodes"][0];
            if edit {
                first["name"] = "".into();
            } else {
                first.as_object_mut().unwrap().remove("name");
            }
        });
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", "model.onnx"]);
        assert_eq!(output.status.code(), Some(0), "{test}: {}", stderr(&output));
        let output = run(ATEN_TRANSLATE, &dir, &["--from-pt2", "input.pt2", "--mlir-print-debuginfo"]);
        assert_eq!(output.status.code(), Some(0), "{test}: {}", stderr(&output));
    }
}

/// Dim arguments out of range: refused by the aten verifier with the node,
/// the argument and the valid range (they panicked in rules, or produced
/// models onnx.checker rejects).
#[test]
fn out_of_range_dims_in_a_pt2_are_refused() {
    for (test, node_name, arg, value, expected) in [
        (
            "transpose",
            "transpose",
            "dim0",
            7,
            "'dim0' = 7 is out of range for a tensor of rank 4 (expected a dim in [-4, 3])",
        ),
        ("transpose_negative", "transpose", "dim1", -5, "'dim1' = -5 is out of range for a tensor of rank 4"),
        ("chunk", "chunk", "dim", 3, "'dim' = 3 is out of range for a tensor of rank 3"),
        (
            "unsqueeze",
            "unsqueeze",
            "dim",
            3,
            "'dim' = 3 is out of range for a tensor of rank 2 (expected a dim in [-3, 2])",
        ),
    ] {
        let dir = scratch_dir(&format!("out_of_range_dim_{test}"));
        mutated_fixture("attention", &dir, |model, _| {
            *node_arg(node(model, node_name), arg) = serde_json::json!({ "as_int": value });
        });
        for mode in ["--to-onnx", "--from-pt2"] {
            let output = run(ATEN_TRANSLATE, &dir, &[mode, "input.pt2", "-o", "out"]);
            let message = assert_fails(&output, &dir);
            assert!(message.contains(expected), "{test} {mode}: {message}");
            assert!(message.contains(&format!("[node {node_name}]")), "names the node: {message}");
            assert!(message.contains("input.pt2: invalid input"), "{message}");
        }
    }
}

/// The same on `.mlir` input: aten ops (slice, slice_scatter,
/// split_with_sizes, permute) and onnx ops (Transpose perm, Concat axis).
#[test]
fn out_of_range_dims_and_axes_in_mlir_are_refused() {
    let cases = [
        (
            r#""aten.slice.Tensor"(%x) {dim = 2 : i64, start = 0 : i64, end = 1 : i64, step = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>"#,
            "argument 'dim' = 2 is out of range for a tensor of rank 2",
        ),
        (
            r#""aten.slice_scatter.default"(%x, %x) {dim = -3 : i64, start = 0 : i64, end = 1 : i64, step = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "argument 'dim' = -3 is out of range",
        ),
        (
            r#""aten.split_with_sizes.default"(%x) {split_sizes = array<i64: 1, 2>, dim = 5 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>"#,
            "argument 'dim' = 5 is out of range",
        ),
        (
            r#""aten.permute.default"(%x) {dims = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "argument 'dims' = [0, 0] is not a permutation of the 2 dims",
        ),
        (
            r#""aten.view.default"(%x) {size = array<i64>} : (tensor<2x3xf32>) -> tensor<f32>"#,
            "argument 'size' = [] cannot hold the 6 elements of the input of shape [2, 3]",
        ),
        (
            r#""aten.slice.Tensor"(%x) {dim = 0 : i64, start = 0 : i64, end = 1 : i64, step = 0 : i64} : (tensor<2x3xf32>) -> tensor<1x3xf32>"#,
            "argument 'step' = 0 must be positive",
        ),
        (
            r#""aten.select.int"(%x) {dim = 0 : i64, index = 100 : i64} : (tensor<2x3xf32>) -> tensor<3xf32>"#,
            "argument 'index' = 100 is out of range for a dim of size 2",
        ),
        (
            r#""aten.chunk.default"(%x) {chunks = 0 : i64, dim = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "argument 'chunks' = 0 must be positive",
        ),
        (
            r#""aten.matmul.default"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "self and other: the contracted dims differ (3 vs 2)",
        ),
        (
            r#""aten.view.default"(%x) {size = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "argument 'size' = [3, 2] does not match the result's shape [2, 3]",
        ),
        (
            r#""onnx.MaxPool"(%x) {kernel_shape = array<i64: 1>, strides = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>"#,
            "attribute 'strides' holds 0; it must be positive",
        ),
        (
            r#""onnx.Transpose"(%x) {perm = array<i64: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>"#,
            "attribute 'perm' = [2, 0] is not a permutation of 0..2",
        ),
        (
            r#""onnx.Concat"(%x, %x) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>"#,
            "attribute 'axis' = 2 is out of range for an input of rank 2 (expected [-2, 1])",
        ),
    ];
    for (i, (op, expected)) in cases.iter().enumerate() {
        let source = format!("func.func @forward(%x: tensor<2x3xf32>) {{\n  %0 = {op}\n  return\n}}\n");
        let dir = with_input(&format!("out_of_range_mlir_{i}"), &source);
        let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(&format!("input.mlir:2:8: error: ")), "{message}");
        assert!(message.contains(expected), "want '{expected}':\n{message}");
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "out.onnx"]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(expected), "want '{expected}':\n{message}");
    }
    // In range (0-d tensors accept dim 0 and -1, like torch): accepted.
    let source = "func.func @forward(%x: tensor<f32>) -> tensor<f32> {\n  %0 = \"aten.transpose.int\"(%x) {dim0 = 0 : i64, dim1 = -1 : i64} : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n";
    let dir = with_input("in_range_0d", source);
    let output = run(ATEN_OPT, &dir, &["input.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// SDPA with a 0-d key used to panic in its rule.
#[test]
fn sdpa_with_a_rank_0_key_is_refused() {
    let dir = scratch_dir("sdpa_rank_0_key");
    mutated_fixture("attention", &dir, |model, _| {
        let meta = &mut model["graph_module"]["graph"]["tensor_values"]["transpose_1"];
        meta["sizes"] = serde_json::json!([]);
        meta["strides"] = serde_json::json!([]);
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("query, key and value need a rank of at least 2"), "{message}");
    assert!(message.contains("[node scaled_dot_product_attention]"), "{message}");
}

/// A weight declared as a huge broadcast view of a few stored bytes used to
/// stream terabytes to disk.
#[test]
fn a_huge_broadcast_weight_is_refused() {
    let dir = scratch_dir("huge_broadcast_weight");
    mutated_fixture("attention", &dir, |model, weights| {
        let meta = &mut weights["config"]["norm.weight"]["tensor_meta"];
        let sizes = serde_json::json!([{ "as_int": 1i64 << 40 }, { "as_int": 16 }]);
        let strides = serde_json::json!([{ "as_int": 0 }, { "as_int": 1 }]);
        meta["sizes"] = sizes.clone();
        meta["strides"] = strides.clone();
        let graph_meta = &mut model["graph_module"]["graph"]["tensor_values"]["p_norm_weight"];
        graph_meta["sizes"] = sizes;
        graph_meta["strides"] = strides;
    });
    // Refused up front (a hang would never get here): no timing assertion,
    // timings belong in benchmarks.
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("weight `norm.weight`") && message.contains("broadcast views"), "{message}");
}

/// Output names of 20,000 ops without locations (name uniquing was
/// quadratic): they convert. Speed is measured by hand, not asserted here.
#[test]
fn many_unnamed_ops_convert() {
    let mut source = String::from("func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n");
    let mut last = "%x".to_string();
    for i in 0..20_000 {
        source.push_str(&format!("  %v{i} = \"onnx.Neg\"({last}) : (tensor<2xf32>) -> tensor<2xf32>\n"));
        last = format!("%v{i}");
    }
    source.push_str(&format!("  return {last} : tensor<2xf32>\n}}\n"));
    let dir = with_input("many_unnamed_ops", &source);
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// The MLIR front end: a file ending inside a string or an identifier is
/// read with a NUL after it (no read past the end), and deep nesting is
/// refused before MLIR's recursive parser could overflow the stack.
#[test]
fn malformed_mlir_ends_and_deep_nesting() {
    for (i, source) in
        ["func.func @f() {\n  \"aten.relu", "func.func @f() {\n  %0 = \"aten.weight\"() {name = \"abc", "func.func @f"]
            .iter()
            .enumerate()
    {
        let dir = with_input(&format!("mlir_ends_inside_{i}"), source);
        let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains("input.mlir: failed to parse MLIR"), "{message}");
        let lines = source.lines().count();
        let at_line = |m: &str| {
            m.lines()
                .filter_map(|l| l.strip_prefix("input.mlir:"))
                .filter_map(|r| r.split(':').next()?.parse().ok())
                .max()
        };
        assert!(at_line(&message).unwrap_or(0) <= lines, "a position inside the file: {message}");
    }
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("tensor<", ">")] {
        let source = format!("\"aten.x\"() {{a = {}{}}} : () -> ()\n", open.repeat(100_000), close.repeat(100_000));
        let dir = with_input("mlir_deep_nesting", &source);
        for (tool, args) in [
            (ATEN_OPT, vec!["input.mlir", "-o", "out.mlir"]),
            (ATEN_TRANSLATE, vec!["--to-onnx", "input.mlir", "-o", "out.onnx"]),
        ] {
            let output = run(tool, &dir, &args);
            let message = assert_fails(&output, &dir);
            assert!(message.contains("nesting deeper than 256 levels"), "{open}: {message}");
        }
    }
}

/// The archive a `.mlir` names: a relative path resolves against the
/// `.mlir`'s directory; a missing or bad archive is reported against the
/// `.mlir`.
#[test]
fn the_archive_of_a_mlir() {
    let dir = scratch_dir("archive_of_mlir");
    std::fs::create_dir(dir.join("input")).unwrap();
    std::fs::copy(root().join(fixture("mlp")), dir.join("input/mlp.pt2")).unwrap();
    let output = run(ATEN_TRANSLATE, &dir.join("input"), &["--from-pt2", "mlp.pt2", "-o", "mlp.mlir"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Run from the parent: `mlp.pt2` is found beside the .mlir.
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input/mlp.mlir", "-o", "mlp.onnx"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::remove_file(dir.join("mlp.onnx")).unwrap();
    // Without the archive: the .mlir is named.
    std::fs::rename(dir.join("input/mlp.pt2"), dir.join("input/elsewhere.pt2")).unwrap();
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input/mlp.mlir", "-o", "mlp.onnx"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("input/mlp.mlir: its `aten.archive` names `mlp.pt2`, which does not exist"), "{message}");
    // A broken archive: the .mlir and the archive's problem.
    std::fs::write(dir.join("input/mlp.pt2"), b"not a zip").unwrap();
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input/mlp.mlir", "-o", "mlp.onnx"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("input/mlp.mlir: the archive its `aten.archive` names cannot be used"), "{message}");
    assert!(message.contains("not a ZIP archive"), "{message}");
}

/// JSON that parses but does not match the schema: the node and the field.
#[test]
fn json_errors_name_the_node_and_field() {
    let dir = scratch_dir("json_errors");
    mutated_fixture("attention", &dir, |model, _| {
        node(model, "linear")["inputs"][0].as_object_mut().unwrap().remove("arg");
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("node 'linear' (graph.nodes[2]), input #0 ('input'): missing field `arg`"), "{message}");
    mutated_fixture("attention", &dir, |model, _| {
        node(model, "chunk")["target"] = 5.into();
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("node 'chunk' (graph.nodes[3]): field `target` must be a string, got 5"), "{message}");
}

/// Graphs that are well-formed JSON but wrong: refused, not converted.
#[test]
fn inconsistent_programs_are_refused() {
    type Edit = fn(&mut serde_json::Value, &mut serde_json::Value);
    let cases: [(&str, Edit, &str); 6] = [
        (
            // The spec names a value no node defines; the graph's own output is fine.
            "output_spec_undefined",
            |model, _| {
                model["graph_module"]["signature"]["output_specs"][0]["user_output"]["arg"] =
                    serde_json::json!({"as_tensor": {"name": "nope"}});
            },
            "names 'nope' (a value no node defines), but the graph's output there is",
        ),
        (
            // The spec names another value of the graph than its output.
            "output_spec_other_value",
            |model, _| {
                model["graph_module"]["signature"]["output_specs"][0]["user_output"]["arg"] =
                    serde_json::json!({"as_tensor": {"name": "linear"}});
            },
            "names 'linear' (another value), but the graph's output there is",
        ),
        (
            "linear_extra_argument",
            |model, _| {
                node(model, "linear")["inputs"]
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!({"name": "extra", "arg": {"as_int": 1}, "kind": 1}));
            },
            "node 'linear' (torch.ops.aten.linear.default) at tools/capture_fixtures.py",
        ),
        (
            "undefined_output",
            |model, _| {
                let arg = serde_json::json!({"as_tensor": {"name": "nope"}});
                model["graph_module"]["signature"]["output_specs"][0]["user_output"]["arg"] = arg.clone();
                model["graph_module"]["graph"]["outputs"][0] = arg;
            },
            "output 'nope' is not defined by the graph",
        ),
        (
            "unknown_buffer_mutation",
            |model, _| {
                let module = &mut model["graph_module"];
                module["signature"]["output_specs"].as_array_mut().unwrap().push(
                    serde_json::json!({"buffer_mutation": {"arg": {"name": "add_"}, "buffer_name": "no_such"}}),
                );
                module["graph"]["outputs"].as_array_mut().unwrap().push(serde_json::json!({"as_tensor": {"name": "add_"}}));
            },
            "output spec 'buffer_mutation' mutates buffer 'no_such', which is not a buffer of the program's input specs",
        ),
        (
            "view_empty_size",
            |model, _| {
                *node_arg(node(model, "reshape"), "shape") = serde_json::json!({"as_ints": []});
            },
            "argument 'shape' = [] has 0 dims but the result has rank 4",
        ),
    ];
    for (test, edit, expected) in cases {
        let dir = scratch_dir(test);
        mutated_fixture("attention", &dir, edit);
        let message = to_onnx_fails(&dir, "input.pt2");
        assert!(message.contains(expected), "{test}: want '{expected}' in\n{message}");
    }
}

/// An `onnx.opset` attribute that is not an integer is refused (it was read
/// as absent, i.e. the default opset), with exit 1 and no output.
#[test]
fn a_non_integer_onnx_opset_is_refused() {
    let source = "module attributes {onnx.opset = \"23\"} {\nfunc.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n}\n";
    let dir = with_input("non_integer_onnx_opset", source);
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("`onnx.opset` must be an integer attribute"), "{message}");
}

/// A `.mlir`'s `onnx.opset` is the target opset unless `--opset` says
/// otherwise, which is then an error.
#[test]
fn the_onnx_opset_of_a_mlir_is_honoured() {
    let source = "module attributes {onnx.opset = 18 : i64} {\nfunc.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"onnx.Neg\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n}\n";
    let dir = with_input("onnx_opset_of_mlir", source);
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    use protobuf::Message;
    let model = onnx_protobuf::ModelProto::parse_from_bytes(&std::fs::read(dir.join("model.onnx")).unwrap()).unwrap();
    assert_eq!(model.opset_import[0].version, 18);
    std::fs::remove_file(dir.join("model.onnx")).unwrap();
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx", "--opset", "23"]);
    let message = assert_fails(&output, &dir);
    assert!(
        message.contains("the module targets opset 18 (its `onnx.opset` attribute) but --opset 23 was given"),
        "{message}"
    );
}

#[test]
fn ops_of_unknown_dialects_are_refused() {
    let source = "func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = \"foo.bar\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    let dir = with_input("unknown_dialect", source);
    let output = run(ATEN_OPT, &dir, &["input.mlir", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(
        message.contains("input.mlir:2:8: error: 'foo.bar' op is not an op of a known dialect ('foo')"),
        "{message}"
    );
}

/// Declared result types that contradict what the op computes (a dim edited
/// in range but the graph's types left as they were): refused by shape
/// inference with the node, instead of a model onnx.checker rejects.
#[test]
fn declared_types_that_contradict_the_op_are_refused() {
    let dir = scratch_dir("declared_type_contradiction");
    mutated_fixture("attention", &dir, |model, _| {
        *node_arg(node(model, "transpose"), "dim1") = serde_json::json!({ "as_int": -4 });
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(
        message.contains(
            "[node transpose] 'onnx.Transpose' op result #0 is declared tensor<2x2x5x8xf32> but the op computes shape [5, 2, 2, 8]"
        ),
        "{message}"
    );
    // Window ops: a conv's padding or a pool's stride edited, the recorded
    // (now wrong) spatial dims kept.
    let dir = scratch_dir("declared_type_contradiction_conv");
    mutated_fixture("conv_block", &dir, |model, _| {
        *node_arg(node(model, "conv2d"), "padding") = serde_json::json!({ "as_ints": [0, 0] });
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(
        message.contains("[node conv2d] 'onnx.Conv' op result #0 is declared tensor<2x4x8x8xf32> but the op computes shape [2, 4, 6, 6]"),
        "{message}"
    );
    let dir = scratch_dir("declared_type_contradiction_pool");
    mutated_fixture("conv_block", &dir, |model, _| {
        *node_arg(node(model, "max_pool2d"), "stride") = serde_json::json!({ "as_ints": [1000, 9] });
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(
        message.contains("[node max_pool2d]") && message.contains("but the op computes shape [2, 4, 1, 1]"),
        "{message}"
    );
    let source = "func.func @forward(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {\n  %0 = \"onnx.Concat\"(%x, %x) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n  return %0 : tensor<4x3xf32>\n}\n";
    let dir = with_input("declared_type_contradiction_mlir", source);
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(
        message.contains("input.mlir:2:8: error: 'onnx.Concat' op result #0 is declared tensor<4x3xf32> but the op computes shape [2, 6]"),
        "{message}"
    );
}

/// A convolution's parameter lists must have one value or one per spatial
/// dim, as torch checks (a hostile-input finding: a 3-value padding for a
/// 2-D convolution was written out as `pads` of the wrong length).
#[test]
fn convolution_parameters_of_the_wrong_length_are_refused() {
    let dir = scratch_dir("convolution_padding_length");
    mutated_fixture("conv_block_core", &dir, |model, _| {
        *node_arg(node(model, "convolution"), "padding") = serde_json::json!({ "as_ints": [1, 1, 1] });
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(
        message.contains("[node convolution]") && message.contains("padding has 3 values for 2 spatial dims"),
        "{message}"
    );
}

/// Ops ONNX cannot express (passes/lowering/src/inexpressible.rs, and ops
/// on complex tensors) are listed all at once, with counts, source lines and
/// the reason, under their own heading, apart from the ops whose lowering is
/// only not yet implemented.
#[test]
fn inexpressible_ops_are_listed_apart_from_missing_lowerings() {
    // A `(Tensor self) -> Tensor` op without a rule (yet), picked
    // from the registry so that new rules do not break this test.
    let pending = aten2onnx_dialects::aten::all()
        .iter()
        .filter(|s| s.overload.is_empty() && !s.name.ends_with('_'))
        .filter(|s| s.arguments.len() == 1 && s.arguments[0].name == "self" && s.arguments[0].ty == "Tensor")
        .filter(|s| s.returns.len() == 1 && s.returns[0].ty == "Tensor" && s.returns[0].alias.is_none())
        .map(|s| format!("aten.{}.default", s.name))
        .find(|t| {
            aten2onnx_passes::lowering::rule(t).is_none()
                && aten2onnx_passes::lowering::inexpressible::reason(t).is_none()
        })
        .expect("a unary op without a lowering rule");
    let source =
        r#"func.func @forward(%x: tensor<3x3xf32>, %z: tensor<3xcomplex<f32>>) -> (tensor<3x3xf32>, tensor<complex<f32>>) {
  %q:4 = "aten.linalg_lstsq.default"(%x, %x) : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)
  %s = "aten.special_airy_ai.default"(%q#0) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %v = "aten.linalg_eigvals.default"(%s) : (tensor<3x3xf32>) -> tensor<3xcomplex<f32>>
  %w = "aten.linalg_eigvals.default"(%q#0) : (tensor<3x3xf32>) -> tensor<3xcomplex<f32>>
  %c = "aten.sum.default"(%z) : (tensor<3xcomplex<f32>>) -> tensor<complex<f32>>
  return %s, %c : tensor<3x3xf32>, tensor<complex<f32>>
}
"#
        .replace("aten.special_airy_ai.default", &pending);
    let dir = with_input("inexpressible_ops", &source);
    let output =
        run(ATEN_OPT, &dir, &["input.mlir", "--pass-pipeline=builtin.module(convert-aten-to-onnx)", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    let expected: [&str; 8] = [
        "error: 5 op(s) of 4 kind(s) cannot be lowered to ONNX opset 23:",
        "3 op(s) of 2 kind(s) have no ONNX expression (refused at every opset; see passes/lowering/src/inexpressible.rs):",
        "  aten.linalg_eigvals.default: 2x, e.g. input.mlir:4:8; input.mlir:5:8 -- needs an eigendecomposition",
        "  aten.linalg_lstsq.default: 1x, e.g. input.mlir:2:10 -- least squares through LAPACK",
        // A rule written for real tensors is refused on complex ones
        // (lowering/complex.rs), never run on the real view.
        "1 op(s) of 1 kind(s) are not supported on complex tensors",
        "  aten.sum.default: 1x, e.g. input.mlir:6:8 -- aten.sum.default on complex tensors is not supported",
        "1 op(s) of 1 kind(s) have no lowering to ONNX opset 23 (not yet implemented):",
        &format!("  {pending}: 1x, e.g. input.mlir:3:8"),
    ];
    let mut rest = message.as_str();
    for line in expected {
        let at = rest.find(line).unwrap_or_else(|| panic!("missing (in this order) {line:?} in:\n{message}"));
        rest = &rest[at + line.len()..];
    }
    // Alone, the refused ops have their heading only; no op is lowered.
    let dir = with_input("inexpressible_ops_alone", &source.replace(&pending, "aten.neg.default"));
    let output =
        run(ATEN_OPT, &dir, &["input.mlir", "--pass-pipeline=builtin.module(convert-aten-to-onnx)", "-o", "out.mlir"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("error: 4 op(s) of 3 kind(s) cannot be lowered"), "{message}");
    assert!(message.contains("3 op(s) of 2 kind(s) have no ONNX expression"), "{message}");
    assert!(!message.contains("have no lowering"), "{message}");
}

/// A reader that stops early (`aten-opt --list-rules | head -1`) is not an
/// error: the listing, the printed module and the reports stop quietly
/// (the listings panicked on the broken pipe, a backtrace on stderr).
#[test]
fn a_closed_stdout_is_not_a_panic() {
    use std::process::{Command, Stdio};
    let dir = scratch_dir("closed_stdout");
    std::fs::write(dir.join("input.mlir"), VALID_MLIR).unwrap();
    for (tool, args) in [
        (ATEN_OPT, vec!["--list-rules"]),
        (ATEN_OPT, vec!["--list-passes"]),
        (ATEN_OPT, vec!["--list-decompositions"]),
        (ATEN_OPT, vec!["input.mlir"]),
    ] {
        let mut child = Command::new(tool)
            .args(&args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away before the first byte
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.status.code().is_some_and(|c| c == 0 || c == 1), "{args:?}: {:?} {stderr}", output.status);
    }
}
