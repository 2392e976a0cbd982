use super::linalg_common::{self as lc, La};
use crate::{Ctx, Rule};
use melior::ir::Value;

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

/// `(P, L, U)` of a factorization of `[*, m, n]`.
#[allow(clippy::type_complexity)]
pub fn unpack<'c, 'a>(
    c: &Ctx<'c, 'a>,
    la: &La<'_, 'c, 'a>,
    f: &lc::Lu<'c, 'a>,
    m: usize,
    n: usize,
    batch: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    let k = m.min(n);
    let eye = lc::identity(la, m)?;
    let eye = la.expand_batch(eye, f.lu)?;
    // Row exchanges applied to I give P^T.
    let pt = f.permute_rows(la, eye, m, false)?;
    let p = la.transpose(pt, batch + 2)?;
    let zero = la.scalar(0.0)?;
    let one = la.scalar(1.0)?;
    let left = la.slice(f.lu, -1, 0, k)?;
    let strict_lower = la.mask(m, k, |i, j| i > j)?;
    let diag = la.mask(m, k, |i, j| i == j)?;
    let ones = la.where_(diag, one, zero)?;
    let l = la.where_(strict_lower, left, ones)?;
    let top = la.slice(f.lu, -2, 0, k)?;
    let upper = la.mask(k, n, |i, j| j >= i)?;
    let u = la.where_(upper, top, zero)?;
    let _ = c;
    Ok((p, l, u))
}
