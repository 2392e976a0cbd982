//! `aten.isinf`: ONNX `IsInf` (both signs) on floats; false for integers and bools.

use crate::Rule;
use super::isinf_common::{inf};

pub const RULES: &[Rule] = &[Rule::custom("aten.isinf.default", |c| inf(c, true, true))
    .samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
