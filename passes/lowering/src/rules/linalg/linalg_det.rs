use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `det(A)` of `[*, n, n]` (static n <= 16) from an unrolled LU factorization
/// with partial pivoting, as torch computes it (see linalg_common.rs):
/// `sign(P) * prod(diag(U))`; 1 for 0x0 matrices.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_det.default", |c| Ok(vec![det(c, "A")?]))
    .samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[1,1]", "A: T[0,0]", "A: T[2,0,0]", "A: T[6,6]{dd}", "A: T[2,1,5,5]"])
    .dtypes(&["f32", "f64"])
    .refuses(&[("A: T[17,17]", "supports matrices up to 16x16")])];

/// The determinant of the tensor argument `name`.
pub fn det<'c, 'a>(c: &Ctx<'c, 'a>, name: &str) -> Result<Value<'c, 'a>, String> {
    let a = c.args.tensor(name)?;
    let element = lc::float_element(a, name)?;
    let (n, batch) = lc::square_dims(a, name)?;
    let la = La::new(c, element);
    if n == 0 {
        return lc::batch_filled(&la, a, 1.0);
    }
    // torch factors A^T (det(A^T) = det(A)).
    let at = la.transpose(a, batch + 2)?;
    let f = lc::lu(&la, at, n, n, true)?;
    lc::det_from_lu(&la, &f, n, batch)
}
