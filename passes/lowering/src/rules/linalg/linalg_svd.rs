//! `torch.linalg.svd` when only the singular values are used (U and Vh
//! without uses); used singular vectors are refused: they are not unique
//! (see linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{operand_dims, svd_values_op};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_svd.default", linalg_svd)
    .samples(&["A: T[3,4]; returns: [1]", "A: T[2,4,3]; full_matrices: false; returns: [1]", "A: T[1,1]; returns: [1]"])
    .dtypes(&["f32", "f64"])
    .refuses(&[("A: T[3,4]", "not unique")])];

fn linalg_svd<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (m, n, _) = operand_dims(c, "A", "A")?;
    let (m, n, k) = (m as i64, n as i64, m.min(n) as i64);
    let (ut, vt) = if c.args.bool("full_matrices")? { ([m, m], [n, n]) } else { ([m, k], [k, n]) };
    svd_values_op(c, "A", true, ut, vt)
}
