//! The `.mlir` front end and everything after it: the fuzzer's bytes as a
//! `.mlir` file through `aten-translate --to-onnx` (parse, verify, the default
//! pipeline, the writer). Seeds: lit-tests/*.mlir and modules printed from
//! the fixtures.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "whole_pipeline.rs"]
mod whole_pipeline;

fuzz_target!(|data: &[u8]| whole_pipeline::convert(data, "mlir"));
