//! The regularized incomplete gamma functions shared by igamma, igammac and special_gammainc(c). Not a rule file.

use super::math_common::unranked_bool;
use super::polynomial_common::build_loop;
use super::special_common::{f64_type, lgamma};
use super::like_common::Like;
use crate::Ctx;
use melior::ir::{Type, Value};

/// torch.igamma(a, x): the regularized lower incomplete gamma function P.

/// P(a, x) (or Q = 1 - P, `upper`) in float64, one ONNX Loop running both
/// classic expansions for every element: the series
/// `P = x^a e^-x / Gamma(a) sum_n x^n / (a (a+1) .. (a+n))` where x < a + 1,
/// and the continued fraction for Q (modified Lentz) elsewhere;
/// `30 + 8 sqrt(max a)` iterations (checked against torch for a, x up to
/// 1e4, x within 50% of a included: below 1e-9). torch's special points
/// (ATen/native/Math.h): NaN for a < 0 or x < 0; a == 0: P = 1 for x > 0,
/// NaN at x == 0; P = 0 at x == 0; a = inf: P = 0 (NaN if x = inf too);
/// P = 1 at x = inf, checked in that order (so igamma(inf, NaN) = 0 like
/// torch).
pub(super) fn incomplete_gamma<'c, 'a>(c: &Ctx<'c, 'a>, upper: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let out = c.result_element(0)?;
    if out != Type::float32(c.b.context) && out != f64_type(c) {
        return Err(format!("result type {out}: only float32 and float64 are lowered"));
    }
    let f64t = f64_type(c);
    let a0 = c.b.cast_like_type(c.tensor_as("self", out)?, f64t)?;
    let x0 = c.b.cast_like_type(c.tensor_as("other", out)?, f64t)?;
    let (f, a0) = Like::float64(c, a0)?;
    let shape = c.b.shape(f.add(a0, x0)?)?;
    let a_in = f.expand(a0, shape)?;
    let x_in = f.expand(x0, shape)?;
    let or = |p, q| c.b.onnx().or(p, q).typed(unranked_bool(c));
    let nan_in = or(c.b.onnx().is_na_n(a_in).typed(unranked_bool(c))?, c.b.onnx().is_na_n(x_in).typed(unranked_bool(c))?)?;
    let negative = or(f.less_k(a_in, 0.0)?, f.less_k(x_in, 0.0)?)?;
    let a_zero = f.equal_k(a_in, 0.0)?;
    let x_zero = f.equal_k(x_in, 0.0)?;
    let a_inf = f.equal_k(a_in, f64::INFINITY)?;
    let x_inf = f.equal_k(x_in, f64::INFINITY)?;
    let decided = or(or(nan_in, negative)?, or(or(a_zero, x_zero)?, or(a_inf, x_inf)?)?)?;
    // Keep every lane finite and positive for the expansions.
    let a = f.select(decided, f.k(1.0)?, a_in)?;
    let x = f.select(decided, f.k(1.0)?, x_in)?;
    // Iterations: ceil(30 + 8 sqrt(a)), max over the elements.
    let need = f.ceil(f.addk(f.mulk(f.sqrt(a)?, 8.0)?, 30.0)?)?;
    let flat = c.b.onnx().reshape(need, c.b.const_i64s(&[-1])?, None).like(need)?;
    let floor = c.b.cast(c.b.const_i64s(&[30])?, f64t)?;
    let flat = c.b.onnx().concat(&[flat, floor], 0).like(need)?;
    let n = c.reduce(crate::Reduction::Max, flat, None, false, c.b.unranked(f64t))?;
    let trips = c.b.cast(n, c.b.i64_type())?;
    // Series state: sum, term, a + n. Continued fraction: b, c, d, h.
    const FPMIN: f64 = 1e-300;
    let inv_a = f.div(f.k(1.0)?, a)?;
    let b0 = f.sub(f.addk(x, 1.0)?, a)?;
    let c0 = f.expand(f.k(1.0 / FPMIN)?, shape)?;
    let d0 = f.div(f.k(1.0)?, b0)?;
    let state = build_loop(c, f64t, trips, &[inv_a, inv_a, a, b0, c0, d0, d0], |b, iter, s| {
        let ty = b.unranked(f64t);
        let k = |v: f64| b.const_scalar(f64t, v);
        let (sum, term, ap, bb, cc, dd, h) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
        let ap = b.onnx().add(ap, k(1.0)?).typed(ty)?;
        let term = b.onnx().div(b.onnx().mul(term, x).typed(ty)?, ap).typed(ty)?;
        let sum = b.onnx().add(sum, term).typed(ty)?;
        // an = -i (i - a), i = iteration + 1; b += 2
        let i = b.onnx().add(b.cast(iter, f64t)?, k(1.0)?).typed(ty)?;
        let an = b.onnx().neg(b.onnx().mul(i, b.onnx().sub(i, a).typed(ty)?).typed(ty)?).typed(ty)?;
        let bb = b.onnx().add(bb, k(2.0)?).typed(ty)?;
        let clamp = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
            let tiny = b.onnx().less(b.onnx().abs(v).typed(ty)?, k(FPMIN)?).typed(b.unranked(bool_type(c)))?;
            b.onnx().where_(tiny, k(FPMIN)?, v).typed(ty)
        };
        let dd = clamp(b.onnx().add(b.onnx().mul(an, dd).typed(ty)?, bb).typed(ty)?)?;
        let cc = clamp(b.onnx().add(bb, b.onnx().div(an, cc).typed(ty)?).typed(ty)?)?;
        let dd = b.onnx().div(k(1.0)?, dd).typed(ty)?;
        let h = b.onnx().mul(h, b.onnx().mul(dd, cc).typed(ty)?).typed(ty)?;
        Ok(vec![sum, term, ap, bb, cc, dd, h])
    })?;
    // x^a e^-x / Gamma(a)
    let log_pre = f.sub(f.sub(f.mul(a, f.log(x)?)?, x)?, lgamma(&f, a)?)?;
    let pre = f.exp(log_pre)?;
    let p_series = f.mul(state[0], pre)?;
    let q_fraction = f.mul(state[6], pre)?;
    let use_series = f.less(x, f.addk(a, 1.0)?)?;
    let one = f.k(1.0)?;
    let p = f.select(use_series, p_series, f.sub(one, q_fraction)?)?;
    let q = f.select(use_series, f.sub(one, p_series)?, q_fraction)?;
    let (y, at_x_inf, at_a_zero, at_x_zero, at_a_inf) =
        if upper { (q, 0.0, 0.0, 1.0, 1.0) } else { (p, 1.0, 1.0, 0.0, 0.0) };
    // torch's special points, the later ones taking precedence.
    // (NaN inputs give NaN unless one of them decides, as in torch.)
    let nan = f.k(f64::NAN)?;
    let y = f.select(nan_in, nan, y)?;
    let y = f.select(x_inf, f.k(at_x_inf)?, y)?;
    let y = f.select(a_inf, f.select(x_inf, nan, f.k(at_a_inf)?)?, y)?;
    let y = f.select(x_zero, f.k(at_x_zero)?, y)?;
    let y = f.select(a_zero, f.select(f.greater_k(x_in, 0.0)?, f.k(at_a_zero)?, nan)?, y)?;
    let y = f.select(negative, nan, y)?;
    Ok(vec![c.b.cast(y, out).and_then(|v| c.b.onnx().identity(v).typed(c.result_type(0)?))?])
}

pub(super) fn bool_type<'c>(c: &Ctx<'c, '_>) -> Type<'c> {
    melior::ir::r#type::IntegerType::new(c.b.context, 1).into()
}
