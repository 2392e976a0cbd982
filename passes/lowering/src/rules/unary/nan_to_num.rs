use super::math_common::{is_float_value, isinf, isnan};
use crate::{builder, Rule};
use melior::ir::{r#type::TypeLike as _, ValueLike};

/// NaN -> `nan` (default 0), +inf -> `posinf`, -inf -> `neginf` (default the
/// largest / lowest finite value of the dtype); identity on integers and
/// bools.
pub const RULES: &[Rule] = &[Rule::custom("aten.nan_to_num.default", |c| {
    let x = c.args.tensor("self")?;
    if !is_float_value(x) {
        return Ok(vec![c.b.onnx().identity(x).typed(c.result_type(0)?)?]);
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let max = if element == melior::ir::Type::float64(c.b.context) {
        f64::MAX
    } else if element == c.b.f32_type() {
        f32::MAX as f64
    } else if element.is_f16() {
        65504.0
    } else if element.is_bf16() {
        3.389_531_389_251_535_5e38 // (2 - 2^-7) * 2^127
    } else {
        return Err(format!("nan_to_num of {element}: only floating types and integers are supported"));
    };
    let b = &c.b;
    let nan = b.const_like(x, c.args.opt_float("nan")?.unwrap_or(0.0))?;
    let posinf = b.const_like(x, c.args.opt_float("posinf")?.unwrap_or(max))?;
    let neginf = b.const_like(x, c.args.opt_float("neginf")?.unwrap_or(-max))?;
    let is_nan = isnan(c, x)?;
    let is_pos = isinf(c, x, true, false)?;
    let is_neg = isinf(c, x, false, true)?;
    let y = b.onnx().where_(is_nan, nan, x).like(x)?;
    let y = b.onnx().where_(is_pos, posinf, y).like(x)?;
    Ok(vec![c.b.onnx().where_(is_neg, neginf, y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[2,3]; nan: 1.5; posinf: 100.0; neginf: -100.0", "self: T[]", "self: T[0]"])
.dtypes(&["f32", "i64", "bool", "f64", "i32", "i8", "u8", "f16", "bf16"])];
