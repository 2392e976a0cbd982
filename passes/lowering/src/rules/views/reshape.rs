//! `aten.reshape`: ONNX `Reshape` to `shape` (sizes may be computed in the graph), with `allowzero = 1` only
//! when a static size is 0. Without it ONNX would copy the input's dim; left out otherwise so that the
//! optimizer's view patterns (attention, rotary) still match.

use super::shapes_common::allowzero;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.reshape.default", reshape)
    .complex(super::complex_common::reshape)
    .complex_samples(&["self: C[2,6]; shape: [4,-1]"])
    .samples(&[
        "self: T[2,6]; shape: [3,4]",
        "self: T[2,6]; shape: [-1,3]",
        "self: T[6]; shape: [2,1,3]",
        "self: T[0,3]; shape: [3,0]",
        "self: T[2,0]; shape: [0,5]",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

fn reshape<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let sizes = ctx.args.sym_ints("shape")?;
    let shape = ctx.int_list_tensor(&sizes)?;
    // A 0 in `shape` is a real 0.
    Ok(vec![ctx.b.onnx().reshape(x, shape, allowzero(&sizes)).typed(ctx.result_type(0)?)?])
}
