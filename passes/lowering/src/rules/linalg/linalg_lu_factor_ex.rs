use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `(LU, pivots, info)`: LU factorization with partial pivoting of
/// `[*, m, n]` (static m, n <= 16), LAPACK `getf2` unrolled (see
/// linalg_common.rs): packed LU, 1-based int32 pivots, `info` = first zero
/// on U's diagonal (1-based) or 0. Pivot choices are LAPACK's (first row of
/// largest |value|); on exactly tied candidates that rounding makes differ,
/// LAPACK's blocked code could choose another row.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_lu_factor_ex.default", |c| {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let (lu, pivots, info) = lu_factor(c, "A")?;
    Ok(vec![lu, pivots, info])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[3,5]", "A: T[5,3]", "A: T[1,1]", "A: T[0,0]", "A: T[2,0,3]"])
.dtypes(&["f32", "f64"])];

/// `(LU, pivots, info)` of the tensor argument `name` (argument `pivot` must
/// be true: torch has no CPU LU without pivoting).
pub fn lu_factor<'c, 'a>(
    c: &Ctx<'c, 'a>,
    name: &str,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    if !c.args.bool("pivot")? {
        return Err("LU without pivoting (pivot=False) is not implemented by torch on the CPU".into());
    }
    let a = c.args.tensor(name)?;
    let element = lc::float_element(a, name)?;
    let (m, n, batch) = lc::matrix_dims(a, name)?;
    let la = La::new(c, element);
    let f = lc::lu(&la, a, m, n, true)?;
    let pivots = f.pivots_i32(&la, batch)?;
    let info = lc::lu_info(&la, f.lu, m, n, batch)?;
    Ok((f.lu, pivots, info))
}
