//! `aten.rsqrt`: `Reciprocal(Sqrt(x))` in the float result type (integer and bool inputs cast to it).

use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.rsqrt.default", rsqrt)
    .samples(&["self: T[2,3]{pos}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

fn rsqrt<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    let s = ctx.b.onnx().sqrt(x).like(x)?;
    Ok(vec![ctx.b.onnx().reciprocal(s).typed(ctx.result_type(0)?)?])
}
