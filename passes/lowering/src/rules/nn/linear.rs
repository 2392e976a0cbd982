use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.linear.default", linear)
    .samples(&["input: T[2,4]; weight: T[3,4]; bias: T[3]", "input: T[2,5,4]; weight: T[3,4]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32"])];

/// `x @ w^T + b`: MatMul with the transposed weight (a constant transpose of
/// an initializer, folded by the optimizer), plus Add for the bias.
fn linear<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    let w = ctx.args.tensor("weight")?;
    let b = &ctx.b;
    let wt = match builder::rank(w.r#type()) {
        Some(2) => b.onnx().transpose(w, Some(&[1, 0])).like(w)?,
        Some(1) => w,
        _ => return Err("weight must be 1-D or 2-D".into()),
    };
    match ctx.args.opt_tensor("bias")? {
        Some(bias) => {
            let y = b.onnx().mat_mul(x, wt).like(x)?;
            Ok(vec![ctx.b.onnx().add(y, bias).typed(ctx.result_type(0)?)?])
        }
        None => Ok(vec![ctx.b.onnx().mat_mul(x, wt).typed(ctx.result_type(0)?)?]),
    }
}
