//! `aten.cross`: `r1(a) * r2(b) - r2(a) * r1(b)` along `dim`, `r1` / `r2` the three components rotated by one
//! and two (`Gather`), both operands broadcast. Without `dim`, the first dim of size 3 (torch's legacy default).

use super::cross_common::cross;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cross.default", |c| cross(c, c.args.opt_int("dim")?))
    .samples(&[
        "self: T[4,3]; other: T[4,3]; dim: 1",
        "self: T[3,4]; other: T[3,4]",
        "self: T[2,3]; other: T[2,3]; dim: -1",
    ])
    .dtypes(&["f32", "i64", "i32", "f64"])];
