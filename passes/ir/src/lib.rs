//! The bottom layer of the passes: how the `aten` and `onnx` dialects are
//! written in MLIR ([`aten_ir`], [`onnx_ir`]), IR walking and attribute
//! helpers ([`ir`]), diagnostics ([`diag`]), and the type and shape helpers
//! ([`types`], [`shape`]) the lowering rules (`aten2onnx-lowering`), the
//! optimizer (`aten2onnx-optimizer`) and the passes (`aten2onnx-passes`)
//! share. It depends on no other crate of the project but the registries.

pub mod aten_ir;
pub mod diag;
pub mod ir;
pub mod onnx_ir;
pub mod shape;
pub mod types;
