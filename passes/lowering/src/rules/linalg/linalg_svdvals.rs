//! `torch.linalg.svdvals` by one-sided Jacobi (see linalg_jacobi_common.rs).
use super::linalg_jacobi_common::{cast_result, operand_dims, real_float, singular_values};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_svdvals.default", svdvals)
    .samples(&[
        "A: T[3,4]",
        "A: T[5,3]",
        "A: T[2,3,4,4]",
        "A: T[1,1]",
        "A: T[1,5]",
        "A: T[0,3]",
        "A: T[2,0,0]",
        "A: T[3,3]{spd}",
        "A: T[7,6]",
    ])
    .dtypes(&["f32", "f64"])];

/// Singular values, descending.
fn svdvals<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, "A")?;
    let (m, n, batch) = operand_dims(c, "A", "A")?;
    let s = singular_values(c, c.args.tensor("A")?, m, n, batch)?;
    Ok(vec![cast_result(c, 0, s)?])
}
