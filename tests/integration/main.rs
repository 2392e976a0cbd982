//! The cargo integration tests of `aten2onnx`, in one test binary: every test
//! binary statically links MLIR (~200 MB), so they share one.
//!
//! - `import`: every valid `.pt2` fixture imported, snapshotted, re-parsed,
//!   verified and round-tripped;
//! - `passes`: each project pass on small modules (snapshots of input and
//!   output, verifier error messages), and a check that every pass has tests;
//! - `errors`: the `aten-opt` / `aten-translate` binaries on bad input (exit
//!   code, message, no output file) and on good input;
//! - `from_onnx`: importing ONNX models (`--from-onnx`, `--to-onnx IN.onnx`):
//!   node tests of the onnx wheel, initializers by reference, external data, errors;
//! - `fuzz_regressions_onnx`: every hostile or fuzz-found `.onnx` of
//!   `tests/fuzz_regressions_onnx/` exits 0 or 1 cleanly (docs/fuzzing.md);
//! - `pipeline`: pipelines mixing project and MLIR passes, nested anchors,
//!   `--split-input-file` and `--verify-diagnostics` semantics.
//!
//! Snapshots live in `tests/integration/snapshots/`. Regenerate them with
//! `INSTA_UPDATE=always cargo test --test integration` and review the diff.
//! Cargo runs integration tests from the crate root, so fixture paths are
//! relative (`tests/fixtures/mlp.pt2`) and so are the paths the snapshots
//! record (the module's `aten.archive`, locations).

mod control_flow;
mod custom_ops;
#[cfg(feature = "torch")]
mod decompose;
#[cfg(feature = "torch")]
mod differential;
mod error_catalogue;
mod errors;
mod export;
mod extract_ilp;
mod from_onnx;
mod fuzz_regressions_onnx;
#[cfg(feature = "torch")]
mod half;
mod import;
mod int_kernels;
#[cfg(feature = "torch")]
mod layout_meta;
mod optimizer;
mod parity;
mod passes;
mod pipeline;
mod quantize_weights;
mod random;
mod report;
#[cfg(feature = "torch")]
mod sample_fuzz;
mod trace;
#[cfg(feature = "torch")]
mod version_skew;
mod weights;

use aten2onnx::{
    create_context,
    diagnostics::{render, DiagnosticCollector},
    module::{self, PrintOptions},
    opt::{self, OptOptions},
};
use melior::ir::{operation::OperationLike, OperationRef};
use std::path::{Path, PathBuf};

/// Every `.pt2` fixture that imports.
pub const VALID_FIXTURES: &[&str] =
    &["mlp", "mlp_core", "conv_block", "conv_block_core", "attention", "attention_core", "cond", "while_loop"];

/// The path of a fixture relative to the crate root (the working directory of
/// integration tests), as it is recorded in the imported module.
pub fn fixture(name: &str) -> String {
    let path = format!("tests/fixtures/{name}.pt2");
    assert!(
        Path::new(&path).is_file(),
        "{path} not found: integration tests must run from the crate root (cargo does this)"
    );
    path
}

/// The path that names `.mlir` inputs given as strings in errors and locations.
pub const INPUT: &str = "input.mlir";

/// Imports a fixture and prints it (without locations unless `debug_info`).
pub fn import(name: &str, debug_info: bool) -> String {
    aten2onnx::translate::pt2_to_aten_text(&fixture(name), PrintOptions { debug_info, generic: false })
        .unwrap_or_else(|e| panic!("importing {name}: {e}"))
}

/// `aten-opt` options: `pipeline`, registry verifiers on the input and after
/// every project pass.
pub fn opt_options(pipeline: &str) -> OptOptions {
    OptOptions { pipeline: Some(pipeline.to_string()), verify_each: true, ..Default::default() }
}

/// Runs `pipeline` over `source` like `aten-opt` (verify-each on).
pub fn run_pipeline(source: &str, pipeline: &str) -> Result<String, String> {
    opt::run(source, INPUT, &opt_options(pipeline)).map_err(|e| e.to_string())
}

/// Parses `text` with a fresh context and runs both registry verifiers.
/// Returns the module printed again, or the diagnostics.
pub fn parse_and_verify(text: &str, print: PrintOptions) -> Result<String, String> {
    let context = create_context();
    let collector = DiagnosticCollector::attach(&context);
    let module = module::parse(&context, text, INPUT).map_err(|e| e.to_string())?;
    if !module.as_operation().verify() {
        return Err(format!("MLIR verifier failed:\n{}", render(&collector.take())));
    }
    aten2onnx_passes::verify_dialects(module.as_operation())
        .map_err(|_| format!("registry verifiers failed:\n{}", render(&collector.take())))?;
    Ok(module::print(&module, print))
}

/// Every operation nested in `op` (pre-order, `op` excluded).
pub fn nested_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    aten2onnx_passes::ir::walk(op, &mut |inner| ops.push(inner));
    ops.remove(0);
    ops
}

/// The names of the operations nested in `op`.
pub fn op_names(op: OperationRef<'_, '_>) -> Vec<String> {
    nested_ops(op).into_iter().map(aten2onnx_passes::ir::op_name).collect()
}

/// How many ops of each name `text` holds (counted on the parsed module).
pub fn count_ops(text: &str, name: &str) -> usize {
    let context = create_context();
    let module = module::parse(&context, text, INPUT).unwrap_or_else(|e| panic!("{e}\n{text}"));
    op_names(module.as_operation()).iter().filter(|n| *n == name).count()
}

/// A fresh, empty scratch directory for one test.
pub fn scratch_dir(test: &str) -> PathBuf {
    // One directory per test process (`<test>-<pid>`): two test runs at once
    // (two checkouts sharing a target dir, or two people) must not overwrite
    // each other's files. Directories of processes that are gone are removed.
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("integration");
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            let pid = name.strip_prefix(test).and_then(|r| r.strip_prefix('-')).and_then(|p| p.parse::<u32>().ok());
            if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = root.join(format!("{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
