//! `aten.full_like`: the fill value (a number, or a graph value from `t.item()`) cast to the result type and
//! `Expand`ed to the shape of `self`.

use super::common::filled_with;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.full_like.default", |c| {
    let shape = c.b.shape(c.args.tensor("self")?)?;
    filled_with(c, shape, "fill_value")
})
.samples(&["self: T[2,3]; fill_value: 2.5"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
