//! `aten.erfc`: `1 - Erf(x)` for x < 0.5, a Chebyshev fit `t * exp(-x^2 + P(t))` above (Numerical Recipes'
//! `erfcc`, relative error below 1.2e-7), which keeps the tail where `1 - erf(x)` would round to 0 (ONNX has
//! `Erf` only).

use crate::Rule;
use super::erfc_common::{erfc};

pub const RULES: &[Rule] = &[Rule::custom("aten.erfc.default", erfc)
    .samples(&["self: T[2,3]", "self: T[4,5]{pos}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
