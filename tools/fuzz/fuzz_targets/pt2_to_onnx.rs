//! The whole `--to-onnx` pipeline on mutated archives: the fuzzer's bytes as
//! a `.pt2` (seeded with the fixtures and corpus models) through import,
//! verification, lowering, the optimizer and the writer. A panic, or an error
//! reporting a caught panic ("internal error"), is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The system MLIR's static libraries include an `mlir-opt`-style `main`,
// which the linker would take instead of libFuzzer's: define `main` here and
// enter libFuzzer's driver ourselves.
#[path = "libfuzzer_main.rs"]
mod libfuzzer_main;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("aten2onnx-fuzz-pt2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let input = dir.join("input.pt2");
    std::fs::write(&input, data).expect("write input");
    let output = dir.join("out.onnx");
    let options = aten2onnx::translate::ConvertOptions::default();
    if let Err(e) = aten2onnx::translate::convert(input.to_str().unwrap(), &output, &options) {
        let message = e.to_string();
        assert!(!message.contains("internal error"), "{message}");
    }
    let _ = std::fs::remove_file(&output);
});
