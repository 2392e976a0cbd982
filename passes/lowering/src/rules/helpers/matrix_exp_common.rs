//! The matrix exponential shared by matrix_exp and linalg_matrix_exp. Not a rule file.

use super::householder_common as hh;
use super::polynomial_common::build_loop;
use crate::Ctx;
use melior::ir::{r#type::IntegerType, Type, Value};

/// Lower float32 matrices too (more accurate than torch's float32 result,
/// hence not equal to it within tolerance on ill-conditioned inputs).
const LOWER_FLOAT32: bool = false;

const DEGREE: usize = 18;

pub fn matrix_exp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (n, n2, _) = hh::static_dims(c, "self", c.result_type(0).ok())?;
    if n != n2 {
        return Err(format!("matrix_exp: expected a square matrix, got {n}x{n2}"));
    }
    let (a, element) = hh::as_f64(c, "self")?;
    if !LOWER_FLOAT32 && element != Type::float64(c.b.context) {
        return Err(format!(
            "matrix_exp of float32 ({element}): torch computes it in float32, whose rounding the squarings amplify \
             beyond the comparison tolerance on matrices of moderate norm; the lowering (float64 scaling and \
             squaring) is only enabled for float64 (cast the input to float64)"
        ));
    }
    let b = &c.b;
    let f64_e = Type::float64(b.context);
    let t = b.unranked(f64_e);
    let bool_t: Type = IntegerType::new(b.context, 1).into();
    let bt = b.unranked(bool_t);
    let k = |v: f64| b.const_scalar(f64_e, v);
    // ||A||_1 per matrix, [*, 1, 1].
    let col_sums =
        b.onnx().reduce_sum(b.onnx().abs(a).typed(t)?, Some(b.const_i64s(&[-2])?), Some(1), None).typed(t)?;
    let norm = c.reduce(crate::Reduction::Max, col_sums, Some(&[-1]), true, t)?;
    let finite = b
        .onnx()
        .not(b.onnx().or(b.onnx().is_na_n(norm).typed(bt)?, b.onnx().is_inf(norm, None, None).typed(bt)?).typed(bt)?)
        .typed(bt)?;
    let safe_norm = b.onnx().where_(finite, norm, k(0.0)?).typed(t)?;
    // s = max(0, ceil(log2(norm))); log2 of 0 is -inf, clamped to 0.
    let log2 = b.onnx().div(b.onnx().log(safe_norm).typed(t)?, k(std::f64::consts::LN_2)?).typed(t)?;
    let s = b.onnx().max(&[b.onnx().ceil(log2).typed(t)?, k(0.0)?]).typed(t)?;
    let x = b.onnx().mul(a, b.onnx().pow(k(2.0)?, b.onnx().neg(s).typed(t)?).typed(t)?).typed(t)?;
    let x = b.onnx().where_(finite, x, k(0.0)?).typed(t)?;
    // Taylor by Horner: P = I + X P / j, j = DEGREE..1.
    let eye = hh::eye_batch(c, a, n, n)?;
    let mut p = eye;
    for j in (1..=DEGREE).rev() {
        let xp = b.onnx().mat_mul(x, p).typed(t)?;
        p = b.onnx().add(eye, b.onnx().div(xp, k(j as f64)?).typed(t)?).typed(t)?;
    }
    // Squarings: max(s) iterations (0 for an empty batch).
    let flat = b.onnx().reshape(s, b.const_i64s(&[-1])?, None).typed(t)?;
    let flat = b.onnx().concat(&[flat, b.const_i64s(&[0]).and_then(|z| b.cast(z, f64_e))?], 0).typed(t)?;
    let top = c.reduce(crate::Reduction::Max, flat, None, false, t)?;
    let trips = b.cast(top, b.i64_type())?;
    let out = build_loop(c, f64_e, trips, &[p], |lb, it, carried| {
        let p = carried[0];
        let ty = lb.unranked(f64_e);
        let sq = lb.onnx().mat_mul(p, p).typed(ty)?;
        let itf = lb.cast(it, f64_e)?;
        let go = lb.onnx().less(itf, s).typed(lb.unranked(bool_t))?;
        Ok(vec![lb.onnx().where_(go, sq, p).typed(ty)?])
    })?;
    let nan = k(f64::NAN)?;
    let y = b.onnx().where_(finite, out[0], nan).typed(t)?;
    Ok(vec![hh::finish(c, 0, y)?])
}
