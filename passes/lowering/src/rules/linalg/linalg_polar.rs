//! `torch.linalg.polar` (torch 2.15, an op newer than the pinned registry:
//! tools/gen/newer_torch_schemas.json): `A = U H` for `A` `[*, m, n]`, `m >= n`,
//! from the one-sided Jacobi SVD `A = W diag(s) V^T` (see
//! linalg_jacobi_common.rs): `U = W V^T`, `H = V diag(s) V^T`, as torch's
//! CPU path computes them from its SVD. Both are unique when `A` has full
//! column rank; for a rank-deficient `A` only `H` is (torch's `U` then
//! completes the basis with LAPACK's singular vectors, this one leaves the
//! missing directions out), and torch documents the op as defined for full
//! rank. No differential samples: libtorch 2.13 has no such op; the op case
//! `linalg_polar` (captured with torch 2.15) checks the numbers.
use super::linalg_jacobi_common::{cast_result, one_sided, operand_dims, real_float, zeros_result, Ops};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_polar.default", polar).dtypes(&["f32", "f64"])];

fn polar<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, "A")?;
    let (m, n, batch) = operand_dims(c, "A", "A")?;
    if m < n {
        return Err(format!(
            "linalg.polar needs m >= n (a tall or square matrix), got {m}x{n}: torch raises on it"
        ));
    }
    let a = c.args.tensor("A")?;
    if n == 0 {
        return Ok(vec![zeros_result(c, 0, a, &[m as i64, 0])?, zeros_result(c, 1, a, &[0, 0])?]);
    }
    let o = Ops { b: &c.b };
    let rank = batch + 2;
    let svd = one_sided(c, a, m, n, batch, true)?;
    let (w, v) = (svd.u.ok_or("no U")?, svd.v.ok_or("no V")?);
    let vt = o.transpose(v, rank)?;
    let u = o.f(o.on().mat_mul(w, vt))?;
    let sigma = o.b.onnx().unsqueeze(svd.sigma, o.b.const_i64s(&[-2])?).typed(o.b.unranked(o.f64t()))?;
    let h = o.f(o.on().mat_mul(o.f(o.on().mul(v, sigma))?, vt))?;
    Ok(vec![cast_result(c, 0, u)?, cast_result(c, 1, h)?])
}
