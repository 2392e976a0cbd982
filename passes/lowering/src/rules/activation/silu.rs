use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.silu.default", silu).samples(&["self: T[2,3]", "self: T[0,2]"]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `x * sigmoid(x)` (ONNX has no Silu in the default domain).
fn silu<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let s = ctx.b.onnx().sigmoid(x).like(x)?;
    Ok(vec![ctx.b.onnx().mul(x, s).typed(ctx.result_type(0)?)?])
}
