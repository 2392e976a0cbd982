use super::erfc_common::{erfc_of, fit};
use super::math_common::unranked_bool;
use crate::Rule;

/// `log(ndtr(x))` without underflow: for x < -1 (z = -x / sqrt(2) > 0.7)
/// `log(1/2) + log(t) + P(t) - z^2` from the erfc fit; otherwise
/// `log1p(-erfc(x / sqrt(2)) / 2)` (log1p corrected for the rounding of
/// `1 + u`), accurate as ndtr approaches 1.
pub const RULES: &[Rule] = &[Rule::custom("aten.special_log_ndtr.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let b = &c.b;
    let one = b.const_like(x, 1.0)?;
    let k = b.const_like(x, -std::f64::consts::FRAC_1_SQRT_2)?;
    let z = b.onnx().mul(x, k).like(x)?;
    let lo = b.const_like(x, std::f64::consts::FRAC_1_SQRT_2)?;
    let zf = b.onnx().max(&[z, lo]).like(x)?;
    let (t, p) = fit(c, zf)?;
    let lt = b.onnx().log(t).like(x)?;
    let z2 = b.onnx().mul(zf, zf).like(x)?;
    let tail = b.onnx().add(lt, p).like(x)?;
    let tail = b.onnx().sub(tail, z2).like(x)?;
    let tail = b.onnx().add(tail, b.const_like(x, 0.5f64.ln())?).like(x)?;
    // log1p(u), u = -erfc(-z) / 2 in (-1, 0].
    let nz = b.onnx().neg(z).like(x)?;
    let e = erfc_of(c, nz)?;
    let u = b.onnx().mul(e, b.const_like(x, -0.5)?).like(x)?;
    let w = b.onnx().add(u, one).like(x)?;
    let lw = b.onnx().log(w).like(x)?;
    let d = b.onnx().sub(w, one).like(x)?;
    let r = b.onnx().div(u, d).like(x)?;
    let corrected = b.onnx().mul(lw, r).like(x)?;
    let w_one = c.b.onnx().equal(w, one).typed(unranked_bool(c))?;
    let body = b.onnx().where_(w_one, u, corrected).like(x)?;
    let is_tail = c.b.onnx().less(x, b.const_like(x, -1.0)?).typed(unranked_bool(c))?;
    Ok(vec![c.b.onnx().where_(is_tail, tail, body).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: i64[2,5]{-40..40}", "self: T[0]", "self: T[]"])
.dtypes(&["f32", "i64"])];
