use super::math_common::{unranked_bool, isnan};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.special_xlog1py.default", xlog1py)
        .samples(&[
            "self: T[2,3]; other: T[2,3]{pos}",
            "self: T[2,3]{0..2}; other: T[3]",
            "self: T[]; other: T[2]{pos}",
            "self: T[0,3]; other: T[3]",
        ])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.special_xlog1py.self_scalar", xlog1py)
        .samples(&["self: 2.0; other: T[2,3]{pos}", "self: 0; other: T[2,3]"])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.special_xlog1py.other_scalar", xlog1py)
        .samples(&["self: T[2,3]; other: 2.5", "self: T[2,3]; other: 0"])
        .dtypes(&["f32", "f64"]),
];

/// torch: NaN where `other` is NaN, 0 where `self == 0`, else
/// `self * log1p(other)`; `log1p(y)` is `log(u) * y / (u - 1)` with
/// `u = 1 + y` (exact where `u - 1 == y`), `y` where `u == 1`, `log(u)` for
/// infinite `u`. Integer operands are promoted to the float result.
fn xlog1py<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x = c.tensor_as("self", el)?;
    let y = c.tensor_as("other", el)?;
    let b = &c.b;
    let one = b.const_scalar(el, 1.0)?;
    let u = b.onnx().add(y, one).like(y)?;
    let log_u = b.onnx().log(u).like(y)?;
    let d = b.onnx().sub(u, one).like(y)?;
    let corrected = b.onnx().mul(log_u, b.onnx().div(y, d).like(y)?).like(y)?;
    let l = b.onnx().where_(c.b.onnx().equal(u, one).typed(unranked_bool(c))?, y, corrected).like(y)?;
    let l = b.onnx().where_(c.b.onnx().is_inf(u, None, None).typed(unranked_bool(c))?, log_u, l).like(y)?;
    let p = b.onnx().mul(x, l).like(y)?;
    let zero = b.const_scalar(el, 0.0)?;
    let p = b.onnx().where_(c.b.onnx().equal(x, zero).typed(unranked_bool(c))?, zero, p).like(y)?;
    let nan = b.const_scalar(el, f64::NAN)?;
    Ok(vec![c.b.onnx().where_(isnan(c, y)?, nan, p).typed(c.result_type(0)?)?])
}
