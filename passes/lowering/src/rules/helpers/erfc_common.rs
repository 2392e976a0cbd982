//! erfc written out (ONNX has erf only), shared by erfc, the special_erf* family and ndtr. Not a rule file.

use super::math_common::unranked_bool;
use crate::Ctx;
use melior::ir::Value;

/// Coefficients of the Chebyshev-fitted `erfc(z) = t * exp(-z^2 + P(t))`,
/// `t = 1 / (1 + z/2)`, z >= 0 (Press et al., Numerical Recipes, "erfcc";
/// fractional error below 1.2e-7 for every z >= 0), highest degree last.
const P: [f64; 10] = [
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
];

/// `1 - erf(x)` where `x < 0.5` (the result is >= 0.47 there, no
/// cancellation); the Chebyshev fit above for `x >= 0.5`, which keeps the
/// relative error small in the tail where `1 - erf(x)` would round to 0
/// (erfc(5) = 1.5e-12).
pub(super) fn erfc<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let y = erfc_of(c, x)?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}

/// erfc of a float value (see [`erfc`]).
pub(super) fn erfc_of<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let one = b.const_like(x, 1.0)?;
    let half = b.const_like(x, 0.5)?;
    let e = b.onnx().erf(x).like(x)?;
    let near = b.onnx().sub(one, e).like(x)?;
    // The fit on z = max(x, 0.5) (keeps unused lanes finite).
    let z = b.onnx().max(&[x, half]).like(x)?;
    let (t, p) = fit(c, z)?;
    let z2 = b.onnx().mul(z, z).like(x)?;
    let arg = b.onnx().sub(p, z2).like(x)?;
    let ex = b.onnx().exp(arg).like(x)?;
    let far = b.onnx().mul(t, ex).like(x)?;
    let is_near = c.b.onnx().less(x, half).typed(unranked_bool(c))?;
    b.onnx().where_(is_near, near, far).like(x)
}

/// `(t, P(t))` of the fit at `z >= 0`: `erfc(z) = t * exp(P(t) - z^2)`.
pub(super) fn fit<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &c.b;
    let one = b.const_like(z, 1.0)?;
    let half = b.const_like(z, 0.5)?;
    let hz = b.onnx().mul(z, half).like(z)?;
    let den = b.onnx().add(one, hz).like(z)?;
    let t = b.onnx().div(one, den).like(z)?;
    let mut p = b.const_like(z, P[9])?;
    for k in (0..9).rev() {
        p = b.onnx().mul(p, t).like(z)?;
        let ck = b.const_like(z, P[k])?;
        p = b.onnx().add(p, ck).like(z)?;
    }
    Ok((t, p))
}
