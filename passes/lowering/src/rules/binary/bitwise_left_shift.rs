use super::math_common::{unranked_bool, elem};
use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::IntegerType, Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_left_shift.Tensor", |c| shift(c, true))
        .samples(&[
            "self: T[2,3]; other: T[2,3]{0..8}",
            "self: T[2,3]; other: T[3]{0..70}",
            "self: T[]; other: T[2]{0..4}",
        ])
        .dtypes(&["i64"]),
    Rule::custom("aten.bitwise_left_shift.Tensor_Scalar", |c| shift(c, true))
        .samples(&["self: T[2,3]; other: 3", "self: T[2,3]; other: 0"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__lshift__.Tensor", |c| shift(c, true))
        .samples(&["self: T[2,3]; other: T[2,3]{0..8}"])
        .dtypes(&["i64"]),
    Rule::custom("aten.__lshift__.Scalar", |c| shift(c, true)).samples(&["self: T[2,3]; other: 2"]).dtypes(&["i64"]),
];

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
