//! `aten.diag_embed`: the last dim (length n) becomes diagonal `offset` of new square dims of size
//! `n + |offset|` at `dim1` (rows) and `dim2` (columns), zeros elsewhere: `ScatterElements` into a flat
//! `[..., m * m]`.

use super::diagonal_common::diag_embed;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.diag_embed.default", |c| {
    let x = c.args.tensor("self")?;
    let (offset, d1, d2) = (c.args.int("offset")?, c.args.int("dim1")?, c.args.int("dim2")?);
    Ok(vec![diag_embed(c, x, offset, d1, d2)?])
})
.samples(&[
    "self: T[3]",
    "self: T[2,3]",
    "self: T[2,3]; offset: 1",
    "self: T[2,3]; offset: -2",
    "self: T[2,3]; dim1: 0; dim2: 2",
    "self: T[2,3]; offset: 1; dim1: 2; dim2: 0",
    "self: T[2,0]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
