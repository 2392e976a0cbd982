use super::math_common::unranked_bool;
use super::polynomial_common::build_loop;
use super::special_common::f64_type;
use super::like_common::Like;
use crate::{Ctx, Rule};
use melior::ir::{Type, Value};

/// torch.special.zeta(x, q): the Hurwitz zeta function sum_k (q + k)^-x.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.special_zeta.default", zeta)
        .samples(&[
            "self: T[3,4]{pos}; other: T[3,4]{pos}",
            "self: T[2,5]{1..12}; other: T[2,5]",
            "self: T[4,1]; other: T[5]",
            "self: T[]; other: T[]{pos}",
            "self: T[0,3]; other: T[3]",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.special_zeta.other_scalar", zeta).samples(&["self: T[2,5]{2..9}; other: 0.75"]).dtypes(&["f32"]),
    Rule::custom("aten.special_zeta.self_scalar", zeta).samples(&["self: 3.0; other: T[2,5]"]).dtypes(&["f32"]),
];

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

/// In float64 (torch accumulates in double too): N = max(20, 10 - min q)
/// terms summed directly in an ONNX Loop, then the Euler-Maclaurin tail at
/// w = q + N (10 Bernoulli terms); where x > 2w that series diverges but the
/// tail is then below 1e-16 of the sum (the first term dominates), so the
/// direct sum is kept. Checked against torch over x, q in [-9, 9], x up to
/// 3000 and q up to 2000: relative difference below 1e-14. torch's special
/// points: inf at x == 1, NaN for x < 1, inf at integers q <= 0 (and -inf),
/// NaN for q < 0 with a non-integer x, NaN at q = +inf; at x = +inf, inf
/// for q < 1, 1 at q == 1, NaN for q > 1.
fn zeta<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let out = c.result_element(0)?;
    if out != Type::float32(c.b.context) && out != f64_type(c) {
        return Err(format!("result type {out}: only float32 and float64 are lowered"));
    }
    let x0 = c.b.cast_like_type(c.tensor_as("self", out)?, f64_type(c))?;
    let q0 = c.b.cast_like_type(c.tensor_as("other", out)?, f64_type(c))?;
    let (f, x0) = Like::float64(c, x0)?;
    let shape = c.b.shape(f.add(x0, q0)?)?;
    let x = f.expand(x0, shape)?;
    let q = f.expand(q0, shape)?;
    let or = |a, b| c.b.onnx().or(a, b).typed(unranked_bool(c));
    let and = |a, b| c.b.onnx().and(a, b).typed(unranked_bool(c));
    // Elements torch decides without summing.
    let q_int = f.equal(f.floor(q)?, q)?;
    let x_int = f.equal(f.floor(x)?, x)?;
    let q_nonpos = f.less_or_equal_k(q, 0.0)?;
    let pole = and(q_nonpos, q_int)?;
    let q_nan = and(q_nonpos, c.b.onnx().not(x_int).typed(unranked_bool(c))?)?;
    let x_one = f.equal_k(x, 1.0)?;
    let x_small = f.less_k(x, 1.0)?;
    let q_inf = f.equal_k(q, f64::INFINITY)?;
    let x_inf = f.equal_k(x, f64::INFINITY)?;
    let decided = or(or(pole, q_nan)?, or(x_one, x_small)?)?;
    let decided = or(decided, or(q_inf, x_inf)?)?;
    let decided = or(decided, or(f.is_nan(x)?, f.is_nan(q)?)?)?;
    // Terms: N = max(20, ceil(9 - min q) + 1) over the summed elements.
    let need = f.addk(f.ceil(f.sub(f.k(9.0)?, q)?)?, 1.0)?;
    let need = f.select(decided, f.k(0.0)?, need)?;
    let flat = c.b.onnx().reshape(need, c.b.const_i64s(&[-1])?, None).like(need)?;
    let floor = c.b.cast(c.b.const_i64s(&[20])?, f64_type(c))?;
    let flat = c.b.onnx().concat(&[flat, floor], 0).like(need)?;
    let n = c.reduce(crate::Reduction::Max, flat, None, false, c.b.unranked(f64_type(c)))?;
    let trips = c.b.cast(n, c.b.i64_type())?;
    let zero = f.expand(f.k(0.0)?, shape)?;
    let neg_x = f.neg(x)?;
    let sums = build_loop(c, f64_type(c), trips, &[zero], |b, iter, carried| {
        let ty = b.unranked(f64_type(c));
        let k = b.cast(iter, f64_type(c))?;
        let base = b.onnx().add(q, k).typed(ty)?;
        let term = b.onnx().pow(base, neg_x).typed(ty)?;
        Ok(vec![b.onnx().add(carried[0], term).typed(ty)?])
    })?;
    let s = sums[0];
    // Euler-Maclaurin tail at w = q + N:
    // w^(1-x)/(x-1) + w^-x/2 + sum_j B_2j/(2j)! x(x+1)..(x+2j-2) w^(-x-2j+1).
    let w = f.add(q, n)?;
    let wx = f.pow(w, neg_x)?;
    let mut tail = f.add(f.div(f.mul(wx, w)?, f.addk(x, -1.0)?)?, f.mulk(wx, 0.5)?)?;
    let mut fac = x;
    let iw = f.div(f.k(1.0)?, w)?;
    let iw2 = f.mul(iw, iw)?;
    let mut wp = f.mul(wx, iw)?;
    let mut factorial = 1.0;
    for (j, b2j) in BERNOULLI.iter().enumerate() {
        let j = j as f64 + 1.0;
        factorial *= (2.0 * j - 1.0) * (2.0 * j);
        tail = f.add(tail, f.mulk(f.mul(fac, wp)?, b2j / factorial)?)?;
        fac = f.mul(fac, f.mul(f.addk(x, 2.0 * j - 1.0)?, f.addk(x, 2.0 * j)?)?)?;
        wp = f.mul(wp, iw2)?;
    }
    let direct = f.greater(x, f.mulk(w, 2.0)?)?;
    let y = f.select(direct, s, f.add(s, tail)?)?;
    // torch's special points, the later ones taking precedence.
    let nan = f.k(f64::NAN)?;
    let inf = f.k(f64::INFINITY)?;
    let y = f.select(and(x_inf, f.greater_k(q, 1.0)?)?, nan, y)?;
    let y = f.select(q_inf, nan, y)?;
    let y = f.select(q_nan, nan, y)?;
    let y = f.select(pole, inf, y)?;
    let y = f.select(x_small, nan, y)?;
    let y = f.select(x_one, inf, y)?;
    Ok(vec![c.b.cast(y, out).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}


