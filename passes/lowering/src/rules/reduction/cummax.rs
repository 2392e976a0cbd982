//! `aten.cummax`: the running maximum and the index of the last element that set it (torch's `x >= best`, so
//! ties move the index; a NaN sticks), as an inclusive scan in `ceil(log2 n)` steps. Bools and narrower
//! integers are scanned as int64 and cast back.

use super::scan_common::cumext;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cummax.default", |c| cumext(c, true))
    .samples(&[
        "self: T[3,6]; dim: 1",
        "self: T[5,3]; dim: 0",
        "self: T[2,7]{-2..2}; dim: -1",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
    ])
    .dtypes(&["f32", "i64", "i32", "i8", "bool"])];
