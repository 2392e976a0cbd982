//! `aten.floor`: ONNX `Floor` on floats; integers are returned unchanged (torch does so; ONNX's `Floor` is
//! float-only).

use super::common::rounding;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.floor.default", |c| rounding(c, "Floor"))
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
