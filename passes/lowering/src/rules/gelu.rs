use crate::{Attr, Ctx, Rule};
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
        return Ok(vec![ctx.op("Gelu", &[x], &[("approximate", Attr::String(approximate))])?]);
    }
    let b = &ctx.b;
    let half = b.const_like(x, 0.5)?;
    let one = b.const_like(x, 1.0)?;
    let inner = if approximate == "tanh" {
        // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
        let c = b.const_like(x, 0.044715)?;
        let k = b.const_like(x, (2.0 / std::f64::consts::PI).sqrt())?;
        let x3 = b.op_like("Mul", &[x, x], &[], x)?;
        let x3 = b.op_like("Mul", &[x3, x], &[], x)?;
        let t = b.op_like("Mul", &[x3, c], &[], x)?;
        let t = b.op_like("Add", &[x, t], &[], x)?;
        let t = b.op_like("Mul", &[t, k], &[], x)?;
        b.op_like("Tanh", &[t], &[], x)?
    } else {
        let r = b.const_like(x, std::f64::consts::FRAC_1_SQRT_2)?;
        let t = b.op_like("Mul", &[x, r], &[], x)?;
        b.op_like("Erf", &[t], &[], x)?
    };
    let t = b.op_like("Add", &[inner, one], &[], x)?;
    let t = b.op_like("Mul", &[x, t], &[], x)?;
    Ok(vec![ctx.op("Mul", &[t, half], &[])?])
}
