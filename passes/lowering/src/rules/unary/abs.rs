//! `aten.abs`: ONNX `Abs`. A complex input gives `hypot(re, im)`, computed in float64 (no overflow of the
//! squares for float32 components).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.abs.default", "Abs")
    .complex(super::complex_common::abs)
    .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
