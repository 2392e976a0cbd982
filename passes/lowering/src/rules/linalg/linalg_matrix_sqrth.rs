//! `torch.linalg.matrix_sqrth` (torch 2.15, an op newer than the pinned
//! registry: tools/gen/newer_torch_schemas.json): the principal square root of
//! a symmetric positive (semi)definite matrix read from its lower triangle,
//! `V diag(sqrt(max(d, 0))) V^T` from the eigendecomposition by cyclic
//! Jacobi (see linalg_jacobi_common.rs). Unique, whatever the eigenvectors'
//! signs or bases; negative eigenvalues count as 0 as in torch (which
//! clamps them), NaN input gives NaN. No differential samples: libtorch
//! 2.13 has no such op; the op case `linalg_matrix_sqrth` (captured with
//! torch 2.15) checks the numbers.
use super::linalg_jacobi_common::{cast_result, operand_dims, real_float, symmetric_eigen, symmetric_from, Ops};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.linalg_matrix_sqrth.default", matrix_sqrth).dtypes(&["f32", "f64"])];

fn matrix_sqrth<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, "self")?;
    let (m, n, batch) = operand_dims(c, "self", "self")?;
    if m != n {
        return Err(format!("linalg.matrix_sqrth needs square matrices, got {m}x{n}"));
    }
    let o = Ops { b: &c.b };
    let s = symmetric_from(c, c.args.tensor("self")?, n, batch, "L")?;
    if n == 0 {
        return Ok(vec![cast_result(c, 0, s)?]);
    }
    let (d, v) = symmetric_eigen(c, s, n, batch, true)?;
    let v = v.ok_or("no eigenvectors")?;
    // max(d, 0) that keeps NaN (Max would too, but say it).
    let negative = o.bo(o.on().less(d, o.k(0.0)?))?;
    let root = o.f(o.on().sqrt(o.where_(negative, o.k(0.0)?, d)?))?;
    let root = o.b.onnx().unsqueeze(root, o.b.const_i64s(&[-2])?).typed(o.b.unranked(o.f64t()))?;
    let x = o.f(o.on().mat_mul(o.f(o.on().mul(v, root))?, o.transpose(v, batch + 2)?))?;
    Ok(vec![cast_result(c, 0, x)?])
}
