use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `(sign, log|det|)` as torch computes them from the LU factorization of
/// `A^T`: `sign = sign(P) prod(sgn(diag U))` (0 for a singular matrix),
/// `logabsdet = sum(log|diag U|)` (-inf for a singular one); 0x0 gives
/// (1, 0).
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_slogdet.default", |c| {
    let (sign, logabsdet, _, _) = slogdet(c, "A")?;
    Ok(vec![sign, logabsdet])
})
.samples(&["A: T[3,3]", "A: T[2,4,4]", "A: T[1,1]", "A: T[0,0]", "A: T[6,6]{dd}", "A: T[3,2,2]"])
.dtypes(&["f32", "f64"])];

/// `(sign, logabsdet, LU, pivots)` of the tensor argument `name`.
#[allow(clippy::type_complexity)]
pub fn slogdet<'c, 'a>(
    c: &Ctx<'c, 'a>,
    name: &str,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    let a = c.args.tensor(name)?;
    let element = lc::float_element(a, name)?;
    let (n, batch) = lc::square_dims(a, name)?;
    let la = La::new(c, element);
    let at = la.transpose(a, batch + 2)?;
    let f = lc::lu(&la, at, n, n, true)?;
    let (sign, logabsdet) = if n == 0 {
        (lc::batch_filled(&la, a, 1.0)?, lc::batch_filled(&la, a, 0.0)?)
    } else {
        lc::slogdet_from_lu(&la, &f, n, batch)?
    };
    let pivots = f.pivots_i32(&la, batch)?;
    Ok((sign, logabsdet, f.lu, pivots))
}
