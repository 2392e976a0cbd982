use super::linalg_common::{self as lc, La};
use crate::Rule;

/// `(det, LU, pivots)`: torch factors `A^T` (`lu_factor_ex(A.mT)`) and returns
/// that factorization with the determinant (see linalg_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten._linalg_det.default", |c| {
    let a = c.args.tensor("A")?;
    let element = lc::float_element(a, "A")?;
    let (n, batch) = lc::square_dims(a, "A")?;
    let la = La::new(c, element);
    let at = la.transpose(a, batch + 2)?;
    let f = lc::lu(&la, at, n, n, true)?;
    let det = if n == 0 { lc::batch_filled(&la, a, 1.0)? } else { lc::det_from_lu(&la, &f, n, batch)? };
    Ok(vec![det, f.lu, f.pivots_i32(&la, batch)?])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[1,1]", "A: T[0,0]", "A: T[5,5]{dd}"])
.dtypes(&["f32", "f64"])];
