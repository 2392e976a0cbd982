use super::gcd_common::{gcd_i64, operands};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.lcm.default", lcm)
    .samples(&[
        "self: T[2,5]{-12..12}; other: T[2,5]{-12..12}",
        "self: T[6]{0..3}; other: T[]{0..10}",
        "self: T[0,3]; other: T[3]",
    ])
    .dtypes(&["i64", "i32", "i16", "i8"])];

/// torch's `calc_lcm`: `g = gcd(a, b); g == 0 ? 0 : |a / g * b|`, computed
/// in int64 and cast back (the cast wraps like torch's narrower arithmetic).
fn lcm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (a, b, element) = operands(c, "lcm")?;
    let g = gcd_i64(c, a, b)?;
    let bool_type: melior::ir::Type = melior::ir::r#type::IntegerType::new(c.b.context, 1).into();
    let zero = c.b.const_i64_scalar(0)?;
    let one = c.b.const_i64_scalar(1)?;
    let is_zero = c.b.onnx().equal(g, zero).typed(c.b.unranked(bool_type))?;
    let safe = c.b.onnx().where_(is_zero, one, g).like(g)?;
    let q = c.b.onnx().div(a, safe).like(a)?;
    let l = c.b.onnx().abs(c.b.onnx().mul(q, b).like(a)?).like(a)?;
    let l = c.b.onnx().where_(is_zero, zero, l).like(l)?;
    Ok(vec![c.b.cast(l, element)?])
}
