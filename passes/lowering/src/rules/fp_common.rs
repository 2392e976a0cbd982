//! Exact floating-point decompositions (frexp / nextafter) shared by issue-7
//! rules: computed in double with powers of two, which are exact. Not a rule
//! file.

use super::math_common::bool_type;
use crate::{Attr, Ctx};
use melior::ir::{Type, Value};

pub fn f64_type<'c>(ctx: &Ctx<'c, '_>) -> Type<'c> {
    Type::float64(ctx.b.context)
}

/// `x / 2^e` for f64 `x` and integer-valued f64 `e`, in two exact steps
/// (`2^e` alone may overflow or underflow for |e| > 1022).
fn scale_down<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, e: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let two = b.const_like(x, 2.0)?;
    let e1 = b.op_like("Floor", &[b.op_like("Div", &[e, two], &[], x)?], &[], x)?;
    let e2 = b.op_like("Sub", &[e, e1], &[], x)?;
    let y = b.op_like("Div", &[x, b.op_like("Pow", &[two, e1], &[], x)?], &[], x)?;
    b.op_like("Div", &[y, b.op_like("Pow", &[two, e2], &[], x)?], &[], x)
}

/// `(m, e)` with `x = m * 2^e`, `0.5 <= |m| < 1` and `e` an integer-valued
/// f64, for finite non-zero f64 `x` (callers replace other values first).
/// `e` starts from `floor(log2|x|) + 1` and is corrected (twice) where the
/// logarithm rounded across an integer; `m` is an exact power-of-two scaling.
pub fn frexp_f64<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &ctx.b;
    let bool_t = b.unranked(bool_type(ctx));
    let ax = b.op_like("Abs", &[x], &[], x)?;
    let l = b.op_like("Div", &[b.op_like("Log", &[ax], &[], x)?, b.const_like(x, std::f64::consts::LN_2)?], &[], x)?;
    let mut e = b.op_like("Add", &[b.op_like("Floor", &[l], &[], x)?, b.const_like(x, 1.0)?], &[], x)?;
    let mut m = scale_down(ctx, x, e)?;
    for _ in 0..2 {
        let am = b.op_like("Abs", &[m], &[], x)?;
        let up = b.cast_like(b.op("GreaterOrEqual", &[am, b.const_like(x, 1.0)?], &[], bool_t)?, x)?;
        let down = b.cast_like(b.op("Less", &[am, b.const_like(x, 0.5)?], &[], bool_t)?, x)?;
        e = b.op_like("Sub", &[b.op_like("Add", &[e, up], &[], x)?, down], &[], x)?;
        m = scale_down(ctx, x, e)?;
    }
    Ok((m, e))
}

/// `x == 0 or x is NaN or +-inf` (bool).
pub fn zero_or_special<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let bool_t = b.unranked(bool_type(ctx));
    let zero = b.op("Equal", &[x, b.const_like(x, 0.0)?], &[], bool_t)?;
    let nan = b.op("IsNaN", &[x], &[], bool_t)?;
    let inf = b.op("IsInf", &[x], &[("detect_positive", Attr::Int(1)), ("detect_negative", Attr::Int(1))], bool_t)?;
    let s = b.op("Or", &[zero, nan], &[], bool_t)?;
    b.op("Or", &[s, inf], &[], bool_t)
}
