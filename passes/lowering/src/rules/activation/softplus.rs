use melior::ir::ValueLike;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.softplus.default", softplus).samples(&[
    "self: T[2,5]",
    "self: T[2,5]; beta: 2",
    "self: T[4]; beta: 0.5; threshold: 1",
]).dtypes(&["f32", "f16", "bf16", "f64"])];

/// `log(1 + exp(beta x)) / beta`, and `x` where `beta x > threshold`.
fn softplus<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    // Half inputs: computed in float32 with float32 beta, as torch does.
    let x = ctx.tensor_as("self", ctx.opmath_element()?)?;
    // `beta`, `threshold`: numbers, or values computed in the graph (`t.item()`).
    let element = crate::builder::element_type(x.r#type()).ok_or("self is not a tensor")?;
    let unit_beta = !ctx.args.is_dynamic("beta")? && ctx.args.number("beta")?.as_f64() == 1.0;
    let beta = ctx.tensor_as("beta", element)?;
    let threshold = ctx.tensor_as("threshold", element)?;
    let bx = if unit_beta { x } else { b.onnx().mul(x, beta).like(x)? };
    let sp = b.onnx().softplus(bx).like(x)?;
    let sp = if unit_beta { sp } else { b.onnx().div(sp, beta).like(x)? };
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let linear = b.onnx().greater(bx, threshold).typed(b.unranked(bool_type))?;
    Ok(vec![ctx.opmath_result(b.onnx().where_(linear, x, sp).like(x)?)?])
}
