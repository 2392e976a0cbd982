use super::householder_common as hh;
use crate::Rule;

/// LAPACK `orgqr`: the first n columns of `H_0 H_1 ... H_{k-1}` from the
/// reflectors stored below the diagonal of `input` (`[*, m, n]`, m >= n) and
/// `tau` (`[*, k]`, k <= n), an ONNX Loop in float64 (householder_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_householder_product.default", |c| {
    let (m, n, batch) = hh::static_dims(c, "input", c.result_type(0).ok())?;
    let (k, tau_rank) = hh::static_last(c, "tau")?;
    if m < n {
        return Err(format!("householder_product: input.shape[-2] ({m}) must be >= input.shape[-1] ({n})"));
    }
    if k > n {
        return Err(format!("householder_product: input.shape[-1] ({n}) must be >= tau.shape[-1] ({k})"));
    }
    if tau_rank != batch + 1 {
        return Err(format!(
            "householder_product: tau must have rank {} (input's rank - 1), got {tau_rank}",
            batch + 1
        ));
    }
    let (v, _) = hh::as_f64(c, "input")?;
    let (tau, _) = hh::as_f64(c, "tau")?;
    let eye = hh::eye_batch(c, v, m, n)?;
    let q = hh::apply_left(c, v, tau, eye, m, k, true, Some(n))?;
    Ok(vec![hh::finish(c, 0, q)?])
})
.samples(&[
    "input: T[4,4]; tau: T[4]",
    "input: T[5,3]; tau: T[3]",
    "input: T[5,4]; tau: T[2]",
    "input: T[2,4,3]; tau: T[2,3]",
    "input: T[3,3]; tau: T[0]",
    "input: T[0,0]; tau: T[0]",
    "input: T[1,1]; tau: T[1]",
])
.dtypes(&["f32", "f64"])];
