//! `aten.linalg_cross`: `r1(a) * r2(b) - r2(a) * r1(b)` along `dim` (size 3, default -1), `r1` / `r2` the
//! components rotated by one and two (`Gather`), both operands broadcast.

use super::cross_common::cross;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_cross.default", |c| {
    let dim = c.args.int("dim")?;
    cross(c, Some(dim))
})
.samples(&[
    "self: T[3]; other: T[3]",
    "self: T[4,3]; other: T[4,3]",
    "self: T[3,4]; other: T[3,4]; dim: 0",
    "self: T[2,1,3]; other: T[1,4,3]; dim: -1",
    "self: T[0,3]; other: T[0,3]",
])
.dtypes(&["f32", "i64", "i32", "f64"])];
