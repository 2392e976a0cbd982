//! Polygamma of orders up to MAX_ORDER in float64, shared by polygamma and special_polygamma. Not a rule file.

use super::digamma_common::digamma_rule;
use super::like_common::Like;
use super::math_common::unranked_bool;
use super::special_common::f64_type;
use crate::Ctx;
use melior::ir::{Type, Value};

/// Highest order lowered (the shift and series below are sized for it).
pub const MAX_ORDER: i64 = 24;

/// Bernoulli numbers B_2 .. B_20.
const BERNOULLI: [f64; 10] = [
    1.0 / 6.0,
    -1.0 / 30.0,
    1.0 / 42.0,
    -1.0 / 30.0,
    5.0 / 66.0,
    -691.0 / 2730.0,
    7.0 / 6.0,
    -3617.0 / 510.0,
    43867.0 / 798.0,
    -174611.0 / 330.0,
];

fn factorial(n: i64) -> f64 {
    (1..=n).map(|k| k as f64).product()
}

/// `polygamma(n, self)` like torch (ATen/native/Math.h): order 0 is
/// digamma; order 1 follows torch's trigamma formula (reflection through
/// `pi^2 / sin(pi x)^2`, with `pi x` and `1 - x` rounded in float32 for a
/// float32 result, as torch computes it, so values near and at the poles
/// agree); orders >= 2 are `(-1)^(n+1) n! zeta(n + 1, x)`: +-inf at the
/// non-positive integers and at -inf, NaN at +inf.
pub(super) fn polygamma_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let n = c.args.int("n")?;
    if n < 0 {
        return Err(format!("polygamma: negative order {n} is not defined"));
    }
    if n == 0 {
        return digamma_rule(c);
    }
    if n > MAX_ORDER {
        return Err(format!("polygamma of order {n}: orders up to {MAX_ORDER} have an ONNX lowering"));
    }
    let out = c.result_element(0)?;
    let x_in = c.args.tensor("self")?;
    let f32_result = out == Type::float32(c.b.context);
    // The input as torch sees it: ints are promoted to the result type first.
    let x_res = c.b.cast_like_type(x_in, out)?;
    let (f, x) = Like::float64(c, x_res)?;
    let y =
        if n == 1 { trigamma(c, &f, x, if f32_result { Some(x_res) } else { None })? } else { polygamma_n(&f, x, n)? };
    Ok(vec![c.b.cast(y, out).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

/// `x^p` by repeated squaring (p >= 1).
fn ipow<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>, p: i64) -> Result<Value<'c, 'a>, String> {
    let mut result: Option<Value<'c, 'a>> = None;
    let mut base = x;
    let mut e = p;
    while e > 0 {
        if e & 1 == 1 {
            result = Some(match result {
                None => base,
                Some(r) => f.mul(r, base)?,
            });
        }
        e >>= 1;
        if e > 0 {
            base = f.mul(base, base)?;
        }
    }
    result.ok_or_else(|| "ipow of order 0".to_string())
}

/// polygamma of order n >= 1 at `y >= 0.5` (or +inf, NaN): the recurrence
/// shifts to `z = y + 8 + n`, then the asymptotic series
/// `(-1)^(n+1) (n-1)!/z^n (1 + n/(2z) + sum_k B_2k (2k+n-1)!/((2k)!(n-1)!) z^-2k)`
/// (10 terms; relative error below 1e-15 for n <= 24, checked against mpmath).
fn polygamma_pos<'c, 'a>(f: &Like<'_, 'c, 'a>, y: Value<'c, 'a>, n: i64) -> Result<Value<'c, 'a>, String> {
    let shifts = 8 + n;
    let one = f.k(1.0)?;
    let mut sum: Option<Value<'c, 'a>> = None;
    for k in 0..shifts {
        let t = f.div(one, f.addk(y, k as f64)?)?;
        let p = ipow(f, t, n + 1)?;
        sum = Some(match sum {
            None => p,
            Some(s) => f.add(s, p)?,
        });
    }
    let sum = f.mulk(sum.ok_or("no shift")?, factorial(n))?;
    let z = f.addk(y, shifts as f64)?;
    let iz = f.div(one, z)?;
    let iz2 = f.mul(iz, iz)?;
    let mut coefficients = vec![0.0];
    for (k, b) in BERNOULLI.iter().enumerate() {
        let k = k as i64 + 1;
        coefficients.push(b * factorial(2 * k + n - 1) / (factorial(2 * k) * factorial(n - 1)));
    }
    let series = f.poly(iz2, &coefficients)?;
    let series = f.add(series, f.addk(f.mulk(iz, n as f64 / 2.0)?, 1.0)?)?;
    let lead = f.mulk(ipow(f, iz, n)?, factorial(n - 1))?;
    let total = f.add(sum, f.mul(lead, series)?)?;
    if n % 2 == 0 {
        f.neg(total)
    } else {
        Ok(total)
    }
}

/// The coefficients (constant term first) of `P_n` with
/// `d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x))`: `P_0 = c`,
/// `P_{k+1} = -(1 + c^2) P_k'(c)`.
fn cot_derivative(n: i64) -> Vec<f64> {
    let mut p = vec![0.0, 1.0];
    for _ in 0..n {
        let d: Vec<f64> = (1..p.len()).map(|i| i as f64 * p[i]).collect();
        let mut q = vec![0.0; d.len() + 2];
        for (i, a) in d.iter().enumerate() {
            q[i] -= a;
            q[i + 2] -= a;
        }
        p = q;
    }
    p
}

/// polygamma of order n >= 2 over the whole line: the positive branch for
/// x >= 0.5, below it the reflection
/// `psi_n(x) = (-1)^n psi_n(1 - x) - pi^(n+1) P_n(cot(pi x))` (cot of `x`
/// reduced to [-1/2, 1/2], so it stays exact for large |x|).
fn polygamma_n<'c, 'a>(f: &Like<'_, 'c, 'a>, x: Value<'c, 'a>, n: i64) -> Result<Value<'c, 'a>, String> {
    let pi = std::f64::consts::PI;
    let reflect = f.less_k(x, 0.5)?;
    let w = f.select(reflect, f.sub(f.k(1.0)?, x)?, x)?;
    let pos = polygamma_pos(f, w, n)?;
    let r = f.sub(x, f.round(x)?)?;
    let pr = f.mulk(r, pi)?;
    let cot = f.div(f.cos(pr)?, f.sin(pr)?)?;
    let p = f.poly(cot, &cot_derivative(n))?;
    let p = f.mulk(p, pi.powi(n as i32 + 1))?;
    let pos_w = if n % 2 == 0 { pos } else { f.neg(pos)? };
    let refl = f.sub(pos_w, p)?;
    let y = f.select(reflect, refl, pos)?;
    // torch's zeta(n + 1, q): +inf at q <= 0 integral (and -inf), NaN at +inf.
    let signed_inf = f.k(if n % 2 == 1 { f64::INFINITY } else { f64::NEG_INFINITY })?;
    let fl = f.floor(x)?;
    let integral = f.equal(fl, x)?;
    let nonpos = f.less_or_equal_k(x, 0.0)?;
    let pole = f.ctx.b.onnx().and(integral, nonpos).typed(unranked_bool(f.ctx))?;
    let y = f.select(pole, signed_inf, y)?;
    let plus_inf = f.equal_k(x, f64::INFINITY)?;
    f.select(plus_inf, f.k(f64::NAN)?, y)
}

/// torch's trigamma: for x < 1/2, `pi^2 / sin(pi x)^2 - psi_1(1 - x)`
/// (sin of the unreduced product, as torch; for a float32 result `pi x`
/// and `1 - x` are rounded in float32 like torch's float kernel, given as
/// `x32`), else psi_1(x). +inf at 0, 0 at +inf, NaN at -inf.
fn trigamma<'c, 'a>(
    c: &Ctx<'c, 'a>,
    f: &Like<'_, 'c, 'a>,
    x: Value<'c, 'a>,
    x32: Option<Value<'c, 'a>>,
) -> Result<Value<'c, 'a>, String> {
    let pi = std::f64::consts::PI;
    let (arg, w) = match x32 {
        Some(x32) => {
            let pi32 = c.b.const_like(x32, pi)?;
            let arg = c.b.onnx().mul(pi32, x32).like(x32)?;
            let one32 = c.b.const_like(x32, 1.0)?;
            let w = c.b.onnx().sub(one32, x32).like(x32)?;
            (c.b.cast_like_type(arg, f64_type(c))?, c.b.cast_like_type(w, f64_type(c))?)
        }
        None => (f.mulk(x, pi)?, f.sub(f.k(1.0)?, x)?),
    };
    let reflect = f.less_k(x, 0.5)?;
    let y = f.select(reflect, w, x)?;
    let pos = polygamma_pos(f, y, 1)?;
    let s = sin_reduced(f, arg)?;
    let refl = f.sub(f.div(f.k(pi * pi)?, f.mul(s, s)?)?, pos)?;
    f.select(reflect, refl, pos)
}

/// `|sin(a)|` of a float64 `a` with a three-part Cody-Waite reduction by
/// pi first (`a - k pi`, k = round(a / pi), for |k| < 2^22 where it is exact), so
/// products like `fl(pi * x)` at integers x give sin's true tiny value (as
/// the C library does) rather than onnxruntime's Sin near multiples of pi.
/// Only the magnitude is right: callers square it.
fn sin_reduced<'c, 'a>(f: &Like<'_, 'c, 'a>, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    // pi = PI_A + PI_B + PI_C; PI_A and PI_B have at most 26 significant bits.
    const PI_A: f64 = 3.141_592_621_803_283_7;
    const PI_B: f64 = 3.178_650_942_459_171_6e-8;
    const PI_C: f64 = 1.224_646_799_147_353_2e-16;
    let k = f.round(f.mulk(a, 1.0 / std::f64::consts::PI)?)?;
    let r = f.sub(a, f.mulk(k, PI_A)?)?;
    let r = f.sub(r, f.mulk(k, PI_B)?)?;
    let r = f.sub(r, f.mulk(k, PI_C)?)?;
    // Beyond that the product is far from any small multiple of pi:
    // onnxruntime's own reduction is accurate there.
    let exact = f.less_k(f.abs(k)?, 4_194_304.0)?;
    f.sin(f.select(exact, r, a)?)
}
