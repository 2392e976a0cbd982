//! The `.mlir` front end and everything after it: the fuzzer's bytes as a
//! `.mlir` file through `aten-translate --to-onnx` (parse, verify, the default
//! pipeline, the writer). Any outcome but success or a clean error is a
//! crash: a panic, or an error reporting a caught panic ("internal error").
//! Seeds: lit-tests/*.mlir and modules printed from the fixtures.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The system MLIR's static libraries include an `mlir-opt`-style `main`,
// which the linker would take instead of libFuzzer's: define `main` here and
// enter libFuzzer's driver ourselves.
#[path = "libfuzzer_main.rs"]
mod libfuzzer_main;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("aten2onnx-fuzz-mlir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let input = dir.join("input.mlir");
    std::fs::write(&input, data).expect("write input");
    let output = dir.join("out.onnx");
    let options = aten2onnx::translate::ConvertOptions::default();
    if let Err(e) = aten2onnx::translate::convert(input.to_str().unwrap(), &output, &options) {
        let message = e.to_string();
        assert!(!message.contains("internal error"), "{message}");
    }
    let _ = std::fs::remove_file(&output);
});
