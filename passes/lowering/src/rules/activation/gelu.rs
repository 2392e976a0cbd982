use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.gelu.default", gelu).samples(&[
    "self: T[2,3]; approximate: \"none\"",
    "self: T[2,3]; approximate: \"tanh\"",
    "self: T[0]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `Gelu` from opset 20; before that the erf / tanh formula.
fn gelu<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let approximate = ctx.args.string("approximate")?;
    if !matches!(approximate.as_str(), "none" | "tanh") {
        return Err(format!("approximate='{approximate}' is not 'none' or 'tanh'"));
    }
    if ctx.b.opset >= 20 {
        return Ok(vec![ctx.b.onnx().gelu(x, Some(&approximate)).typed(ctx.result_type(0)?)?]);
    }
    let b = &ctx.b;
    let half = b.const_like(x, 0.5)?;
    let one = b.const_like(x, 1.0)?;
    let inner = if approximate == "tanh" {
        // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
        let c = b.const_like(x, 0.044715)?;
        let k = b.const_like(x, (2.0 / std::f64::consts::PI).sqrt())?;
        let x3 = b.onnx().mul(x, x).like(x)?;
        let x3 = b.onnx().mul(x3, x).like(x)?;
        let t = b.onnx().mul(x3, c).like(x)?;
        let t = b.onnx().add(x, t).like(x)?;
        let t = b.onnx().mul(t, k).like(x)?;
        b.onnx().tanh(t).like(x)?
    } else {
        let r = b.const_like(x, std::f64::consts::FRAC_1_SQRT_2)?;
        let t = b.onnx().mul(x, r).like(x)?;
        b.onnx().erf(t).like(x)?
    };
    let t = b.onnx().add(inner, one).like(x)?;
    let t = b.onnx().mul(x, t).like(x)?;
    Ok(vec![ctx.b.onnx().mul(t, half).typed(ctx.result_type(0)?)?])
}
