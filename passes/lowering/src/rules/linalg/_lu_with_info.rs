use super::lu_common::lu_factor;
use crate::Rule;

/// `(LU, pivots, info)` of `torch.lu(A, get_infos=True)`, see
/// linalg_lu_factor_ex.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten._lu_with_info.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let (lu, pivots, info) = lu_factor(c, "self")?;
    Ok(vec![lu, pivots, info])
})
.samples(&["self: T[3,3]; check_errors: false", "self: T[2,3,5]", "self: T[4,2]"])
.dtypes(&["f32", "f64"])];
