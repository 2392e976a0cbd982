//! `aten.exp2`: `Pow(2, x)` in the float result type (integer inputs cast to it).

use super::elementwise_common::exp2;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.exp2.default", exp2)
    .samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
