//! `aten.broadcast_to`: ONNX `Expand` to `size`; a -1 entry (keep the input's dim) is written as 1, which
//! `Expand`'s broadcasting keeps.

use super::common::expand_size;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.broadcast_to.default", |c| {
    let x = c.args.tensor("self")?;
    let size = expand_size(c, c.args.sym_ints("size")?)?;
    Ok(vec![c.b.onnx().expand(x, size).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,1]; size: [3,4]",
    "self: T[3,1]; size: [2,-1,4]",
    "self: T[]; size: [2,3]",
    "self: T[1]; size: [0]",
    "self: T[2,3]; size: [2,3]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
