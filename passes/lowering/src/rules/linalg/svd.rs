//! `torch.svd` (legacy) when only the singular values are used: with
//! `compute_uv=False` (U and V are then zero matrices `[*, m, m]`,
//! `[*, n, n]`, as torch documents), or with U and V left unused. Used
//! singular vectors are refused: they are not unique (see
//! linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{operand_dims, svd_values_op};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.svd.default", svd)
    .samples(&[
        "self: T[3,4]; compute_uv: false",
        "self: T[2,5,3]; compute_uv: false",
        "self: T[0,3]; compute_uv: false",
        "self: T[3,4]; returns: [1]",
        "self: T[4,3]; some: false; returns: [1]",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: T[3,4]", "not unique")])];

fn svd<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let (m, n, _) = operand_dims(c, "self", "self")?;
    let (m, n, k) = (m as i64, n as i64, m.min(n) as i64);
    let uv = c.args.bool("compute_uv")?;
    let some = c.args.bool("some")?;
    let (ut, vt) = if !uv || !some { ([m, m], [n, n]) } else { ([m, k], [n, k]) };
    svd_values_op(c, "self", uv, ut, vt)
}
