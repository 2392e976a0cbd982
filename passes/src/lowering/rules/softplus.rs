use crate::lowering::{Ctx, Rule};
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
    let beta = ctx.args.number("beta")?.as_f64();
    let threshold = ctx.args.number("threshold")?.as_f64();
    let bx = if beta == 1.0 { x } else { b.op_like("Mul", &[x, b.const_like(x, beta)?], &[], x)? };
    let sp = b.op_like("Softplus", &[bx], &[], x)?;
    let sp = if beta == 1.0 { sp } else { b.op_like("Div", &[sp, b.const_like(x, beta)?], &[], x)? };
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let linear = b.op("Greater", &[bx, b.const_like(x, threshold)?], &[], b.unranked(bool_type))?;
    Ok(vec![ctx.opmath_result(b.op_like("Where", &[linear, x, sp], &[], x)?)?])
}
