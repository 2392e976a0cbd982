use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.rms_norm.default", rms_norm).samples(&[
    "input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; eps: 0.00001",
    "input: T[2,3,4]; normalized_shape: [3,4]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `x / sqrt(mean(x^2) + eps) * weight` over the last dims; eps None is the
/// dtype's machine epsilon, like torch.
fn rms_norm<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("input")?;
    let n = ctx.args.sym_ints("normalized_shape")?.len() as i64;
    let axes: Vec<i64> = (-n..0).collect();
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let eps = match ctx.args.opt_float("eps")? {
        Some(e) => e,
        None if element == b.f32_type() => f32::EPSILON as f64,
        None => f64::EPSILON,
    };
    let sq = b.onnx().mul(x, x).like(x)?;
    let mean = ctx.reduce(crate::Reduction::Mean, sq, Some(&axes), true, b.unranked(element))?;
    let eps = b.const_like(x, eps)?;
    let d = b.onnx().add(mean, eps).like(x)?;
    let r = b.onnx().sqrt(d).like(x)?;
    let y = b.onnx().div(x, r).like(x)?;
    match ctx.args.opt_tensor("weight")? {
        Some(w) => Ok(vec![ctx.b.onnx().mul(y, w).typed(ctx.result_type(0)?)?]),
        None => Ok(vec![y]),
    }
}
