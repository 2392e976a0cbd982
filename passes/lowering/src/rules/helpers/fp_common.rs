//! Exact floating-point decompositions (frexp / nextafter) shared by issue-7
//! rules: computed in double with powers of two, which are exact. Not a rule
//! file.

use super::math_common::bool_type;
use crate::Ctx;
use melior::ir::{Type, Value};

pub fn f64_type<'c>(ctx: &Ctx<'c, '_>) -> Type<'c> {
    Type::float64(ctx.b.context)
}

/// `x / 2^e` for f64 `x` and integer-valued f64 `e`, in two exact steps
/// (`2^e` alone may overflow or underflow for |e| > 1022).
fn scale_down<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, e: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let two = b.const_like(x, 2.0)?;
    let e1 = b.onnx().floor(b.onnx().div(e, two).like(x)?).like(x)?;
    let e2 = b.onnx().sub(e, e1).like(x)?;
    let y = b.onnx().div(x, b.onnx().pow(two, e1).like(x)?).like(x)?;
    b.onnx().div(y, b.onnx().pow(two, e2).like(x)?).like(x)
}

/// `(m, e)` with `x = m * 2^e`, `0.5 <= |m| < 1` and `e` an integer-valued
/// f64, for finite non-zero f64 `x` (callers replace other values first).
/// `e` starts from `floor(log2|x|) + 1` and is corrected (twice) where the
/// logarithm rounded across an integer; `m` is an exact power-of-two scaling.
pub fn frexp_f64<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &ctx.b;
    let bool_t = b.unranked(bool_type(ctx));
    let ax = b.onnx().abs(x).like(x)?;
    let l = b.onnx().div(b.onnx().log(ax).like(x)?, b.const_like(x, std::f64::consts::LN_2)?).like(x)?;
    let mut e = b.onnx().add(b.onnx().floor(l).like(x)?, b.const_like(x, 1.0)?).like(x)?;
    let mut m = scale_down(ctx, x, e)?;
    for _ in 0..2 {
        let am = b.onnx().abs(m).like(x)?;
        let up = b.cast_like(b.onnx().greater_or_equal(am, b.const_like(x, 1.0)?).typed(bool_t)?, x)?;
        let down = b.cast_like(b.onnx().less(am, b.const_like(x, 0.5)?).typed(bool_t)?, x)?;
        e = b.onnx().sub(b.onnx().add(e, up).like(x)?, down).like(x)?;
        m = scale_down(ctx, x, e)?;
    }
    Ok((m, e))
}

/// `x == 0 or x is NaN or +-inf` (bool).
pub fn zero_or_special<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let bool_t = b.unranked(bool_type(ctx));
    let zero = b.onnx().equal(x, b.const_like(x, 0.0)?).typed(bool_t)?;
    let nan = b.onnx().is_na_n(x).typed(bool_t)?;
    let inf = b.onnx().is_inf(x, Some(1), Some(1)).typed(bool_t)?;
    let s = b.onnx().or(zero, nan).typed(bool_t)?;
    b.onnx().or(s, inf).typed(bool_t)
}
