use super::index_common::index_put_values;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_put.default", index_put)
    .samples(&[
        "self: T[5,3]; indices: (i64[1]{0..5}); values: T[1,3]",
        "self: T[5,3]; indices: (i64[4]{0..5}); values: T[4,3]; accumulate: true",
        "self: T[3,5]; indices: (none, i64[1]{0..5}); values: T[3,1]",
        "self: T[5,3]; indices: (bool[5]); values: T[]",
        "self: T[5,3]; indices: (bool[5,3]); values: T[]",
        "self: T[5,3]; indices: (bool[5,3]); values: T[]; accumulate: true",
        "self: T[2,5,3]; indices: (none, bool[5]); values: T[3]",
        "self: T[4,5]; indices: (i64[2]{0..4}, i64[2]{0..5}); values: T[2]",
        "self: T[4,5]; indices: (i64[3]{-4..0}, i64[1]{0..5}); values: T[]; accumulate: true",
        "self: T[3,4,2]; indices: (i64[2]{0..3}, none, i64[2]{0..2}); values: T[2,4]",
        "self: T[3,4,2]; indices: (none, i64[2]{0..4}, i64[2]{0..2}); values: T[3,1]",
        "self: T[0,3]; indices: (bool[0]); values: T[]",
    ])
    .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"])];

/// `self[indices] = values` (`accumulate`: `+=`), integer or boolean index
/// tensors (masks become the rows of `NonZero`): the indexed dims are moved
/// first, `values` is broadcast to torch's indexing-result shape and laid out
/// like the moved tensor, then `ScatterND` (reduction "add" to accumulate)
/// and the inverse transpose.
fn index_put<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let indices = ctx.args.opt_tensors("indices")?;
    let values = ctx.tensor_as("values", ctx.result_element(0)?)?;
    index_put_values(ctx, x, &indices, values, ctx.args.bool("accumulate")?)
}
