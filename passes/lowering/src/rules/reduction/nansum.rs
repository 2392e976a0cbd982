//! `aten.nansum`: `ReduceSum` over `dim` (all dims when None or empty) with NaN replaced by 0 (`Where`); integer
//! inputs have no NaN and are summed as they are.

use super::reduce_common::nan_reduce;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nansum.default", |c| nan_reduce(c, false))
    .samples(&[
        "self: T[3,4]",
        "self: T[3,4]; dim: [1]",
        "self: T[3,4,2]; dim: [0,2]; keepdim: true",
        "self: T[]; dim: [0]",
        "self: T[0,3]; dim: [0]",
        "self: T[3,4]; dim: [1]; dtype: dtype(f32)",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
