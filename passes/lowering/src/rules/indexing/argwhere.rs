//! `aten.argwhere`: `Transpose(NonZero(x != 0))`, one row of indices per nonzero element in row-major order
//! (`[n, rank]`); a 0-d input gives `[n, 0]`. The explicit `x != 0` is there because onnxruntime's `NonZero`
//! lacks kernels for some types (float64).

use super::index_common::nonzero;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.argwhere.default", nonzero)
    .samples(&["self: T[3,4]", "self: T[5]", "self: T[2,0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];
