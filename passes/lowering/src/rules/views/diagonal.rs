//! `aten.diagonal`: `dim1` and `dim2` moved last and merged, diagonal `offset` taken by `Gather` at the flat
//! positions `row * n2 + col` and appended as the last dim. With a dynamic size along either dim the positions
//! are computed in the graph.

use crate::Rule;
use super::diagonal_common::{diagonal};

pub const RULES: &[Rule] = &[Rule::custom("aten.diagonal.default", |c| {
    let x = c.args.tensor("self")?;
    let (offset, d1, d2) = (c.args.int("offset")?, c.args.int("dim1")?, c.args.int("dim2")?);
    Ok(vec![diagonal(c, x, offset, d1, d2)?])
})
.samples(&[
    "self: T[3,4]",
    "self: T[3,4]; offset: 1",
    "self: T[3,4]; offset: -2",
    "self: T[3,4]; offset: 5",
    "self: T[2,3,4]; dim1: 1; dim2: 2",
    "self: T[2,3,4]; offset: 1; dim1: -1; dim2: 0",
    "self: T[2,3,4]; offset: -1; dim1: 2; dim2: 1",
    "self: T[0,3]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
