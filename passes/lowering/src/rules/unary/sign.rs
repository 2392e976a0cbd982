//! `aten.sign`: ONNX `Sign`; on bools the identity (torch's sign of a bool is itself; ONNX `Sign` has no bool
//! kernel).

use super::elementwise_common::sign;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.sign.default", sign)
    .samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
