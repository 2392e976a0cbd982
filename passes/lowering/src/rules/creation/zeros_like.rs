//! `aten.zeros_like`: `Expand` of a constant 0 of the result type to the shape of `self`.

use super::common::filled;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.zeros_like.default", |c| {
    let shape = c.b.shape(c.args.tensor("self")?)?;
    filled(c, shape, 0.0)
})
.samples(&["self: T[2,3]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
