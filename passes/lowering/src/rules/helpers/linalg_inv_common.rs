//! The matrix inverse shared by inverse, linalg_inv, linalg_cond and linalg_matrix_power. Not a rule file.

use super::linalg_common::{self as lc, La};
use crate::Ctx;
use melior::ir::Value;

/// `(inverse, info)`: torch solves `A X = I` (`linalg.solve_ex(A, eye)`);
/// unrolled LU with partial pivoting over the static n <= 16 (see
/// linalg_common.rs). `info` is the first zero pivot (1-based), 0 when `A`
/// is invertible; a singular `A` gives inf/NaN entries, like torch.

/// `(inverse, info)` of the tensor argument `name`.
pub(super) fn inverse<'c, 'a>(c: &Ctx<'c, 'a>, name: &str) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let a = c.args.tensor(name)?;
    let element = lc::float_element(a, name)?;
    let (n, batch) = lc::square_dims(a, name)?;
    let la = La::new(c, element);
    let f = lc::lu(&la, a, n, n, true)?;
    let eye = lc::identity(&la, n)?;
    let x = lc::lu_solve(&la, &f, eye, n, batch + 2, false)?;
    let info = lc::lu_info(&la, f.lu, n, n, batch)?;
    Ok((x, info))
}
