use super::math_common::bool_type;
use crate::{builder, Ctx, Rule};
use melior::ir::{Type, Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.isclose.default", isclose)
    .samples(&[
        "self: T[3,4]; other: T[3,4]",
        "self: T[3,4]; other: T[4]; rtol: 0.5; atol: 0.1",
        "self: T[3,4]; other: T[3,4]; rtol: 0; atol: 0",
        "self: T[3,4]; other: T[3,4]; rtol: 0; atol: 1.0; equal_nan: true",
        "self: T[]; other: T[2]; atol: 2.0",
        "self: T[0,2]; other: T[2]",
    ])
    .dtypes(&["f32", "f64", "i64", "i32", "f16", "bool"])];

/// torch: `self == other` (or both NaN with equal_nan), or, unless both
/// tolerances are 0, `isfinite(|self - other|) and |self - other| <= atol +
/// |rtol * other|`, each step rounded like torch: in the tensor's type with
/// half computed in float (torch's opmath), bools as float32, and for
/// integer tensors the error in the integer type and the allowance in
/// float32 (where torch's type promotion puts `rtol * other`).
fn isclose<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let a = c.args.tensor("self")?;
    let o = c.args.tensor("other")?;
    let el = builder::element_type(a.r#type()).ok_or("self is not a tensor")?;
    if builder::element_type(o.r#type()) != Some(el) {
        return Err("isclose: self and other must have the same dtype".into());
    }
    let (rtol, atol) = (c.args.float("rtol")?, c.args.float("atol")?);
    if rtol < 0.0 || atol < 0.0 {
        return Err("isclose: rtol and atol must be non-negative".into());
    }
    let b = &c.b;
    let bool_t = b.unranked(bool_type(c));
    let f32_t = b.f32_type();
    let f64_t = Type::float64(b.context);
    let is_float = builder::is_float(el);
    let is_half = is_float && el != f32_t && el != f64_t;
    // Equality (half compared in float: same result).
    let (ea, eo) = if is_half { (b.cast(a, f32_t)?, b.cast(o, f32_t)?) } else { (a, o) };
    let mut close = b.onnx().equal(ea, eo).typed(bool_t)?;
    if is_float && c.args.bool("equal_nan")? {
        let both = b.onnx().and(b.onnx().is_na_n(ea).typed(bool_t)?, b.onnx().is_na_n(eo).typed(bool_t)?).typed(bool_t)?;
        close = b.onnx().or(close, both).typed(bool_t)?;
    }
    if rtol == 0.0 && atol == 0.0 {
        return Ok(vec![c.b.onnx().identity(close).typed(c.result_type(0)?)?]);
    }
    // The element type each value is rounded to, and the one ops run in.
    let (store, compute) = if builder::is_bool(el) {
        (f32_t, f32_t)
    } else if is_half {
        (el, f32_t)
    } else {
        (el, el)
    };
    let round = |v: Value<'c, 'a>, to: Type<'c>, via: Type<'c>| -> Result<Value<'c, 'a>, String> {
        if to == via {
            return Ok(v);
        }
        b.cast(b.cast(v, to)?, via)
    };
    let (allowed, actual, allowed_t) = if is_float || builder::is_bool(el) {
        let ca = b.cast_like_type(a, compute)?;
        let co = b.cast_like_type(o, compute)?;
        let t = round(b.onnx().mul(b.const_scalar(compute, rtol)?, co).typed(b.unranked(compute))?, store, compute)?;
        let t = b.onnx().abs(t).typed(b.unranked(compute))?;
        let allowed = round(b.onnx().add(b.const_scalar(compute, atol)?, t).typed(b.unranked(compute))?, store, compute)?;
        let d = round(b.onnx().sub(ca, co).typed(b.unranked(compute))?, store, compute)?;
        (allowed, b.onnx().abs(d).typed(b.unranked(compute))?, compute)
    } else {
        let co = b.cast(o, f32_t)?;
        let t = b.onnx().abs(b.onnx().mul(b.const_scalar(f32_t, rtol)?, co).typed(b.unranked(f32_t))?).typed(b.unranked(f32_t))?;
        let allowed = b.onnx().add(b.const_scalar(f32_t, atol)?, t).typed(b.unranked(f32_t))?;
        let d = b.onnx().abs(b.onnx().sub(a, o).typed(b.unranked(el))?).typed(b.unranked(el))?;
        (allowed, b.cast(d, f32_t)?, f32_t)
    };
    let _ = allowed_t;
    let within = b.onnx().less_or_equal(actual, allowed).typed(bool_t)?;
    let within = if is_float || builder::is_bool(el) {
        let inf = b.onnx().is_inf(actual, Some(1), Some(1)).typed(bool_t)?;
        let nan = b.onnx().is_na_n(actual).typed(bool_t)?;
        let finite = b.onnx().not(b.onnx().or(inf, nan).typed(bool_t)?).typed(bool_t)?;
        b.onnx().and(finite, within).typed(bool_t)?
    } else {
        within
    };
    Ok(vec![c.b.onnx().or(close, within).typed(c.result_type(0)?)?])
}
