//! The `aten-opt` and `aten-translate` binaries: on bad input they exit 1,
//! print a clear message on stderr and write no output file; on good input
//! they exit 0. Messages are snapshotted (paths in them are relative: the
//! commands run in the crate root or in a scratch directory).

use crate::{fixture, import, scratch_dir};
use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

const ATEN_OPT: &str = env!("CARGO_BIN_EXE_aten-opt");
const ATEN_TRANSLATE: &str = env!("CARGO_BIN_EXE_aten-translate");

/// A small valid aten module with one dead op.
const VALID_MLIR: &str = r#"func.func @forward(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "aten.relu.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.neg.default"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"#;

/// Runs `program` with `args` in `dir`.
fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(program).args(args).current_dir(dir).output().unwrap_or_else(|e| panic!("running {program}: {e}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The crate root: fixtures are named relative to it.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts a failure: exit code 1, nothing on stdout, a message on stderr
/// (returned), and no file in `scratch` (no output, no partial file).
fn assert_fails(output: &Output, scratch: &Path) -> String {
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
