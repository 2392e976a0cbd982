//! The whole `--to-onnx` pipeline on mutated archives: the fuzzer's bytes as
//! a `.pt2` (seeded with the fixtures) through import, verification,
//! lowering, the optimizer and the writer.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "whole_pipeline.rs"]
mod whole_pipeline;

fuzz_target!(|data: &[u8]| whole_pipeline::convert(data, "pt2"));
