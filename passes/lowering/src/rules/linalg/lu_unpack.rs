use super::linalg_common::{self as lc, La};
use super::lu_common::unpack;
use crate::Rule;

/// `(P, L, U)` from a packed LU `[*, m, n]` and its 1-based pivots: `P` is the
/// identity with LAPACK's row exchanges applied (`A = P L U`), `L` the unit
/// lower `[*, m, k]`, `U` the upper `[*, k, n]` (`k = min(m, n)`).
pub const RULES: &[Rule] = &[Rule::custom("aten.lu_unpack.default", |c| {
    if !c.args.bool("unpack_data")? || !c.args.bool("unpack_pivots")? {
        return Err("lu_unpack with unpack_data=False or unpack_pivots=False is not supported".into());
    }
    let lu = c.args.tensor("LU_data")?;
    let pivots = c.args.tensor("LU_pivots")?;
    let element = lc::float_element(lu, "LU_data")?;
    let (m, n, batch) = lc::matrix_dims(lu, "LU_data")?;
    let la = La::new(c, element);
    let f = lc::lu_from_parts(&la, lu, pivots, m.min(n))?;
    let (p, l, u) = unpack(c, &la, &f, m, n, batch)?;
    Ok(vec![p, l, u])
})
.samples(&["LU_data: T[3,3]; LU_pivots: i32[3]{1..4}", "LU_data: T[2,3,5]; LU_pivots: i32[2,3]{1..4}"])
.dtypes(&["f32", "f64"])];
