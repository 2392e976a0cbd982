//! `aten._linalg_svd` (what svdvals, svd, matrix norms, cond and
//! matrix_rank decompose to in the core IR) when only the singular values
//! are used: with `compute_uv=False`, or with U and Vh left unused. Used
//! singular vectors are refused: they are not unique (see
//! linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{operand_dims, svd_values_op};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_svd.default", linalg_svd_values)
    .samples(&[
        "A: T[3,4]; compute_uv: false",
        "A: T[2,5,3]; compute_uv: false",
        "A: T[1,1]; compute_uv: false",
        "A: T[0,2]; compute_uv: false",
        "A: T[3,4]; returns: [1]",
        "A: T[2,4,3]; full_matrices: true; returns: [1]",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("A: T[3,4]", "not unique")])];

fn linalg_svd_values<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (m, n, _) = operand_dims(c, "A", "A")?;
    let (m, n, k) = (m as i64, n as i64, m.min(n) as i64);
    let full = c.args.bool("full_matrices")?;
    let uv = c.args.bool("compute_uv")?;
    let (ut, vt) = if !uv {
        ([0, 0], [0, 0])
    } else if full {
        ([m, m], [n, n])
    } else {
        ([m, k], [k, n])
    };
    svd_values_op(c, "A", uv, ut, vt)
}
