//! `aten.triu`: ONNX `Trilu(self, diagonal, upper=1)`.

use super::triangle_common::trilu;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.triu.default", |c| trilu(c, 1))
    .samples(&["self: T[4,5]", "self: T[4,5]; diagonal: 1", "self: T[2,4,4]; diagonal: -1"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
