//! Elementwise math shared by an op and its alias or sibling (the special_* aliases, sgn, fmin, clamp_max, bitwise_right_shift, the complex angle). Not a rule file.

use super::math_common::{elem, is_float_value, isinf, isnan, unranked_bool};
use super::signbit_common::signbit;
use crate::{builder, Ctx};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// `Pow(2, x)`; integer inputs promoted to the float result.
pub(super) fn exp2<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let two = c.b.const_like(x, 2.0)?;
    Ok(vec![c.b.onnx().pow(two, x).typed(c.result_type(0)?)?])
}

/// `exp(x) - 1`, corrected for the rounding of `exp` near 0 (Kahan):
/// `(u - 1) * x / log(u)` with `u = exp(x)`; `x` where `u == 1`, `-1` where
/// `u - 1 == -1`, `u` where it is infinite.
pub(super) fn expm1<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let u = b.onnx().exp(x).like(x)?;
    let one = b.const_like(x, 1.0)?;
    let minus_one = b.const_like(x, -1.0)?;
    let d = b.onnx().sub(u, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let q = b.onnx().div(x, log_u).like(x)?;
    let corrected = b.onnx().mul(d, q).like(x)?;
    let u_is_one = b.onnx().equal(u, one).typed(bool_t)?;
    let d_is_m1 = b.onnx().equal(d, minus_one).typed(bool_t)?;
    let inf = b.onnx().is_inf(u, None, None).typed(bool_t)?;
    let r = b.onnx().where_(d_is_m1, minus_one, corrected).like(x)?;
    let r = b.onnx().where_(u_is_one, x, r).like(x)?;
    Ok(vec![c.b.onnx().where_(inf, u, r).typed(c.result_type(0)?)?])
}

/// `log(1 + x)`, corrected for the rounding of `1 + x`:
/// `log(u) * x / (u - 1)` with `u = 1 + x` (exact where `u - 1 == x`; `x`
/// itself where `u == 1`, i.e. |x| below float epsilon). Infinite `u` keeps
/// `log(u)`.
pub(super) fn log1p<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let bool_t = b.unranked(super::math_common::bool_type(c));
    let one = b.const_like(x, 1.0)?;
    let u = b.onnx().add(x, one).like(x)?;
    let log_u = b.onnx().log(u).like(x)?;
    let d = b.onnx().sub(u, one).like(x)?;
    let r = b.onnx().div(x, d).like(x)?;
    let corrected = b.onnx().mul(log_u, r).like(x)?;
    let u_is_one = b.onnx().equal(u, one).typed(bool_t)?;
    let inf = b.onnx().is_inf(u, None, None).typed(bool_t)?;
    let r = b.onnx().where_(u_is_one, x, corrected).like(x)?;
    Ok(vec![c.b.onnx().where_(inf, log_u, r).typed(c.result_type(0)?)?])
}

/// `log(x / (1 - x))`, `x` first clamped to `[eps, 1 - eps]` when `eps` is
/// given (torch; without eps, values outside [0, 1] give NaN and 0 / 1 give
/// -inf / inf). float16/bfloat16: torch's kernel does this in the half
/// type's own arithmetic (eps and 1 - eps rounded to it, and every step
/// rounded), unlike most half kernels: computed in float32 with those
/// roundings made explicit (`onnx-widen-half` would otherwise round only
/// the result).
pub(super) fn logit<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let result = c.result_element(0)?;
    let half = crate::builder::is_half_float(result);
    let mut x = c.tensor_as("self", c.opmath_element()?)?;
    let b = &c.b;
    // The half type's rounding of a float32 value (identity otherwise).
    let round = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        if half {
            let h = b.cast(v, result)?;
            b.cast(h, b.f32_type())
        } else {
            Ok(v)
        }
    };
    if let Some(eps) = c.args.opt_float("eps")? {
        let lo = round(b.const_like(x, eps)?)?;
        let hi = round(b.onnx().sub(b.const_like(x, 1.0)?, lo).like(x)?)?;
        x = b.onnx().clip(x, Some(lo), Some(hi)).like(x)?;
    }
    let one = b.const_like(x, 1.0)?;
    let d = round(b.onnx().sub(one, x).like(x)?)?;
    let q = round(b.onnx().div(x, d).like(x)?)?;
    Ok(vec![c.opmath_result(b.onnx().log(q).like(x)?)?])
}

/// `sin(pi x) / (pi x)`, 1 at 0 (integers promoted to float).
pub(super) fn sinc<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let pi = b.const_like(x, std::f64::consts::PI)?;
    let px = b.onnx().mul(x, pi).like(x)?;
    let s = b.onnx().sin(px).like(x)?;
    let q = b.onnx().div(s, px).like(x)?;
    let zero = b.const_like(x, 0.0)?;
    let one = b.const_like(x, 1.0)?;
    let is_zero = c.b.onnx().equal(x, zero).typed(super::math_common::unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(is_zero, one, q).typed(c.result_type(0)?)?])
}

/// torch's formula: `round(x * 10^d) / 10^d` for d >= 0,
/// `round(x / 10^-d) * 10^-d` for d < 0 (round half to even, like ONNX
/// `Round`).
pub(super) fn round_decimals<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    if !builder::is_float(c.result_element(0)?) {
        return Err("round with decimals of an integer tensor (torch refuses it)".into());
    }
    let d = c.args.int("decimals")?;
    let b = &c.b;
    let p = b.const_like(x, 10f64.powi(d.unsigned_abs() as i32))?;
    // x * 10^d rounded / 10^d; x / 10^-d rounded * 10^-d for d < 0.
    let y = if d >= 0 { b.onnx().mul(x, p) } else { b.onnx().div(x, p) };
    let y = y.like(x)?;
    let y = b.onnx().round(y).like(x)?;
    let y = if d >= 0 { b.onnx().div(y, p) } else { b.onnx().mul(y, p) };
    Ok(vec![y.typed(c.result_type(0)?)?])
}

/// `x * log(y)`, 0 where `x == 0` (even for `y == 0` or inf), NaN where `y`
/// is NaN (torch). Integer operands are promoted to the float result.
pub(super) fn xlogy<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let l = b.onnx().log(y).like(y)?;
    let p = b.onnx().mul(x, l).like(y)?;
    let zero = b.const_scalar(element, 0.0)?;
    let x_zero = c.b.onnx().equal(x, zero).typed(unranked_bool(c))?;
    let p = b.onnx().where_(x_zero, zero, p).like(y)?;
    let y_nan = isnan(c, y)?;
    let nan = b.const_scalar(element, f64::NAN)?;
    Ok(vec![c.b.onnx().where_(y_nan, nan, p).typed(c.result_type(0)?)?])
}

/// `Sign`; on bools the identity (torch's sign of a bool is itself; ONNX
/// Sign has no bool kernel). Also `sgn` of real tensors.
pub(super) fn sign<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    if builder::is_bool(c.result_element(0)?) {
        return Ok(vec![c.b.onnx().identity(x).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().sign(x).typed(c.result_type(0)?)?])
}

/// `Max` / `Min` ignoring NaN: where one side is NaN the other is taken (NaN
/// only when both are).
pub(super) fn fmaxmin<'c, 'a>(c: &Ctx<'c, 'a>, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    if crate::builder::is_bool(element) {
        // ONNX Max/Min take no bools: on bools max is Or, min is And.
        let x = c.tensor_as("self", element)?;
        let y = c.tensor_as("other", element)?;
        let z = if op == "Max" { c.b.onnx().or(x, y) } else { c.b.onnx().and(x, y) };
        return Ok(vec![z.typed(c.result_type(0)?)?]);
    }
    let x = c.tensor_as("self", element)?;
    let y = c.tensor_as("other", element)?;
    let b = &c.b;
    let m = b.op_like(op, &[x, y], &[], x)?;
    if !is_float_value(x) {
        return Ok(vec![c.b.onnx().identity(m).typed(c.result_type(0)?)?]);
    }
    let xn = isnan(c, x)?;
    let yn = isnan(c, y)?;
    let m = b.onnx().where_(yn, x, m).like(x)?;
    Ok(vec![c.b.onnx().where_(xn, y, m).typed(c.result_type(0)?)?])
}

/// `Max(x, min)` / `Min(x, max)` in the result type (NaN in `x` or the
/// bound propagates, like torch).
pub(super) fn bound<'c, 'a>(ctx: &Ctx<'c, 'a>, arg: &str, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    if crate::builder::is_bool(element) {
        // ONNX Max/Min take no bools: compare as int64 0/1 and cast back.
        let wide = ctx.b.i64_type();
        let x = ctx.tensor_as("self", wide)?;
        let b = ctx.tensor_as(arg, wide)?;
        let m = ctx.b.op_like(op, &[x, b], &[], x)?;
        let to = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type for the result")?;
        return Ok(vec![ctx.b.onnx().cast(m, None, None, to).typed(ctx.result_type(0)?)?]);
    }
    let x = ctx.tensor_as("self", element)?;
    let b = ctx.tensor_as(arg, element)?;
    Ok(vec![ctx.op(op, &[x, b], &[])?])
}

/// The unsigned type of the same width as an integer type.
fn unsigned<'c>(ctx: &Ctx<'c, '_>, element: Type<'c>) -> Result<Type<'c>, String> {
    if builder::is_float(element) || builder::is_bool(element) {
        return Err(format!("bit shifts of {element} (torch shifts integers only)"));
    }
    let width = IntegerType::try_from(element).map_err(|_| format!("bit shift of {element}"))?.width();
    Ok(IntegerType::unsigned(ctx.b.context, width).into())
}

/// torch's `<<` / `>>` on signed integers: the left shift works on the
/// two's-complement bits (a shift by the width or more gives 0), the right
/// shift is arithmetic (floor(x / 2^n); a shift by the width or more gives
/// 0 or -1). ONNX `BitShift` is unsigned only: the left shift runs on the
/// bits reinterpreted as unsigned; the right shift on `~x` for negative `x`
/// (`x >> n == ~(~x >> n)`).
pub(super) fn shift<'c, 'a>(c: &Ctx<'c, 'a>, left: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = c.result_element(0)?;
    let u = unsigned(c, element)?;
    let x = c.tensor_as("self", element)?;
    let n = c.tensor_as("other", element)?;
    let b = &c.b;
    let nu = b.cast(n, u)?;
    let direction = if left { "LEFT" } else { "RIGHT" };
    if left {
        let xu = b.cast(x, u)?;
        let s = b.onnx().bit_shift(xu, nu, direction).typed(b.unranked(u))?;
        return Ok(vec![b.cast(s, element)?]);
    }
    let zero = b.const_like(x, 0.0)?;
    let neg = c.b.onnx().less(x, zero).typed(unranked_bool(c))?;
    let not_x = b.onnx().bitwise_not(x).like(x)?;
    let t = b.onnx().where_(neg, not_x, x).like(x)?;
    let tu = b.cast(t, u)?;
    let s = b.onnx().bit_shift(tu, nu, direction).typed(b.unranked(u))?;
    let s = b.cast(s, elem(x)?)?;
    let not_s = b.onnx().bitwise_not(s).like(s)?;
    Ok(vec![c.b.onnx().where_(neg, not_s, s).typed(c.result_type(0)?)?])
}

/// `atan2(y, x)` of two float values of the same element type (see above;
/// also `angle` of a complex tensor).
pub(super) fn atan2<'c, 'a>(c: &Ctx<'c, 'a>, y: Value<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let b = &c.b;
    let ax = b.onnx().abs(x).like(x)?;
    let ay = b.onnx().abs(y).like(x)?;
    let hi = b.onnx().max(&[ax, ay]).like(x)?;
    let lo = b.onnx().min(&[ax, ay]).like(x)?;
    let q = b.onnx().div(lo, hi).like(x)?;
    let zero = b.const_scalar(element, 0.0)?;
    let one = b.const_scalar(element, 1.0)?;
    let hi_zero = c.b.onnx().equal(hi, zero).typed(unranked_bool(c))?;
    let q = b.onnx().where_(hi_zero, zero, q).like(x)?;
    let xi = isinf(c, x, true, true)?;
    let yi = isinf(c, y, true, true)?;
    let both_inf = c.b.onnx().and(xi, yi).typed(unranked_bool(c))?;
    let q = b.onnx().where_(both_inf, one, q).like(x)?;
    let r = b.onnx().atan(q).like(x)?;
    let half_pi = b.const_scalar(element, std::f64::consts::FRAC_PI_2)?;
    let pi = b.const_scalar(element, std::f64::consts::PI)?;
    let steep = c.b.onnx().greater(ay, ax).typed(unranked_bool(c))?;
    let r2 = b.onnx().sub(half_pi, r).like(x)?;
    let r = b.onnx().where_(steep, r2, r).like(x)?;
    let x_neg = signbit(c, x)?;
    let r3 = b.onnx().sub(pi, r).like(x)?;
    let r = b.onnx().where_(x_neg, r3, r).like(x)?;
    let y_neg = signbit(c, y)?;
    let nr = b.onnx().neg(r).like(x)?;
    b.onnx().where_(y_neg, nr, r).like(x)
}
