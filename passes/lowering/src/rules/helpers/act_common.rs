//! Pieces shared by the activation rules of issue 7 (selu, celu, rrelu,
//! prelu, shrink ops). Not a rule file.

use super::math_common::bool_type;
use crate::Ctx;
use melior::ir::Value;

/// torch's `elu` kernel: `x * scale` where `x > 0`, else
/// `(exp(x * input_scale) - 1) * alpha * scale` (NaN stays NaN).
pub fn elu<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    alpha: f64,
    scale: f64,
    input_scale: f64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    // Half inputs: computed in float32 with float32 constants, as torch does.
    let x = b.cast_like_type(x, ctx.opmath_element()?)?;
    let k = |v: f64| b.const_like(x, v);
    let xs = if input_scale == 1.0 { x } else { b.onnx().mul(x, k(input_scale)?).like(x)? };
    let e = b.onnx().sub(b.onnx().exp(xs).like(x)?, k(1.0)?).like(x)?;
    let neg = b.onnx().mul(e, k(alpha * scale)?).like(x)?;
    let pos = if scale == 1.0 { x } else { b.onnx().mul(x, k(scale)?).like(x)? };
    let gt = b.onnx().greater(x, k(0.0)?).typed(b.unranked(bool_type(ctx)))?;
    ctx.opmath_result(b.onnx().where_(gt, pos, neg).like(x)?)
}

/// [`elu`] with `alpha`, `scale` and `input_scale` the named `Scalar`
/// arguments, numbers or values computed in the graph (`t.item()`), in the
/// opmath type as torch's kernel takes them (`alpha * scale` multiplied
/// there too).
pub fn elu_args<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    alpha: Value<'c, 'a>,
    scale: Value<'c, 'a>,
    input_scale: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let x = b.cast_like_type(x, ctx.opmath_element()?)?;
    let xs = b.onnx().mul(x, input_scale).like(x)?;
    let e = b.onnx().sub(b.onnx().exp(xs).like(x)?, b.const_like(x, 1.0)?).like(x)?;
    let negcoef = b.onnx().mul(alpha, scale).like(alpha)?;
    let neg = b.onnx().mul(e, negcoef).like(x)?;
    let pos = b.onnx().mul(x, scale).like(x)?;
    let gt = b.onnx().greater(x, b.const_like(x, 0.0)?).typed(b.unranked(bool_type(ctx)))?;
    ctx.opmath_result(b.onnx().where_(gt, pos, neg).like(x)?)
}

/// `x > 0 ? x : x * slope` with `slope` a value broadcasting against `x`
/// (torch's leaky_relu / prelu kernels; NaN stays NaN).
pub fn leaky<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, slope: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let gt = b.onnx().greater(x, b.const_like(x, 0.0)?).typed(b.unranked(bool_type(ctx)))?;
    let neg = b.onnx().mul(x, slope).like(x)?;
    ctx.b.onnx().where_(gt, x, neg).typed(ctx.result_type(0)?)
}

/// `log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))` (stable for large |x|;
/// the log1p corrected for the rounding of `1 + e`).
pub(super) fn log_sigmoid<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let zero = b.const_like(x, 0.0)?;
    let one = b.const_like(x, 1.0)?;
    let m = b.onnx().min(&[x, zero]).like(x)?;
    let a = b.onnx().abs(x).like(x)?;
    let a = b.onnx().neg(a).like(x)?;
    let e = b.onnx().exp(a).like(x)?;
    let u = b.onnx().add(e, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let um1 = b.onnx().sub(u, one).like(x)?;
    let r = b.onnx().div(e, um1).like(x)?;
    let l = b.onnx().mul(log_u, r).like(x)?;
    let u_one = c.b.onnx().equal(u, one).typed(super::math_common::unranked_bool(c))?;
    let l = b.onnx().where_(u_one, e, l).like(x)?;
    b.onnx().sub(m, l).typed(c.result_type(0)?)
}
