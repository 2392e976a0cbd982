//! `aten._to_copy`: a `Cast` to the result's element type, or nothing when `self` already has it (device,
//! layout and memory format do not exist in ONNX). Complex: real -> complex adds a zero imaginary part,
//! complex -> real keeps the real part, complex -> bool is `z != 0`.

use super::conversion_common::convert;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._to_copy.default", convert)
    .complex(super::complex_common::to_copy)
    .complex_samples(&[
        "self: C[2,3]; dtype: dtype(f32)",
        "self: T[2,3]; dtype: dtype(c64)",
        "self: C[2,3]; dtype: dtype(c128)",
        "self: C[2,3]; dtype: dtype(bool)",
    ])
    .samples(&[
        "self: T[2,3]; dtype: dtype(i64)",
        "self: T[2,3]; dtype: dtype(f64)",
        "self: i64[2,3]; dtype: dtype(f32)",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
