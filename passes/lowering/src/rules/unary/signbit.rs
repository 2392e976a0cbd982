//! `aten.signbit`: `x < 0`, or `1 / x < 0` for a float zero (so -0.0 counts as negative). ONNX cannot read the
//! sign bit of a NaN: NaN gives false, which differs from torch for a negative NaN.

use crate::Rule;
use super::signbit_common::{signbit};

pub const RULES: &[Rule] = &[Rule::custom("aten.signbit.default", |c| Ok(vec![signbit(c, c.args.tensor("self")?)?]))
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
