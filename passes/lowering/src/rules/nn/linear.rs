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
    // Dynamically quantized (PT2E): the product on the integers.
    if let Some(y) = super::integer_matmul_common::dynamic_integer_matmul(ctx, x, wt, ctx.result_type(0)?)? {
        return Ok(vec![match ctx.args.opt_tensor("bias")? {
            Some(bias) => ctx.b.onnx().add(y, bias).typed(ctx.result_type(0)?)?,
            None => y,
        }]);
    }
    match ctx.args.opt_tensor("bias")? {
        Some(bias) => {
            let y = b.onnx().mat_mul(x, wt).like(x)?;
            if qdq_input_onnxruntime_cannot_load(ctx, x) {
                return Ok(vec![ctx.b.onnx().sum(&[y, bias]).typed(ctx.result_type(0)?)?]);
            }
            Ok(vec![ctx.b.onnx().add(y, bias).typed(ctx.result_type(0)?)?])
        }
        None => Ok(vec![ctx.b.onnx().mat_mul(x, wt).typed(ctx.result_type(0)?)?]),
    }
}

/// True for a quantized (PT2E) Linear of rank 3 or more at opset 21+: a
/// `DequantizeLinear` input. onnxruntime 1.32 fuses `MatMul + Add` of such
/// an input into a Gemm between Reshapes and inserts a `QuantizeLinear`
/// whose zero point has the wrong type: the model does not load
/// (`output_dtype INT8 does not match y_zero_point type UINT8`; torch.onnx's
/// export of the same program fails the same way). The bias is then added
/// with `Sum` (the same numbers), which that fusion does not match;
/// onnxruntime still runs the product as `MatMulIntegerToFloat`.
fn qdq_input_onnxruntime_cannot_load(ctx: &Ctx<'_, '_>, x: Value<'_, '_>) -> bool {
    let dequantized = crate::ir::defining_op(x).is_some_and(|d| crate::ir::op_name(d) == "onnx.DequantizeLinear");
    dequantized && ctx.b.opset >= 21 && builder::rank(x.r#type()).is_some_and(|r| r >= 3)
}
