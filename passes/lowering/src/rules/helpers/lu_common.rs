//! LU factorization, solve, unpacking and slogdet of tensor arguments, shared by the linalg_lu*, lu_*, linalg_solve*, linalg_slogdet and logdet rules. Not a rule file.

use super::linalg_common::{self as lc, La};
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

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

/// `(X, info)` of linalg_solve_ex / linalg_solve (arguments `A`, `B`, `left`).
pub fn solve_ex<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let (x, _, _, info) = solve_parts(c)?;
    Ok((x, info))
}

/// `(X, LU, pivots, info)` (aten._linalg_solve_ex).
#[allow(clippy::type_complexity)]
pub fn solve_parts<'c, 'a>(
    c: &Ctx<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    // check_errors=True: torch raises where info != 0, which a graph cannot
    // do; where torch returns, the results are the same (see linalg_common.rs).
    let a = c.args.tensor("A")?;
    let b = c.args.tensor("B")?;
    let element = lc::float_element(a, "A")?;
    let left = c.args.bool("left")?;
    let la = La::new(c, element);
    let (x, f, batch) = lc::solve(&la, a, c.b.cast_like_type(b, element)?, left)?;
    let (n, _) = lc::square_dims(a, "A")?;
    let info = lc::lu_info(&la, f.lu, n, n, batch)?;
    let pivots = f.pivots_i32(&la, batch)?;
    Ok((x, f.lu, pivots, info))
}

/// `(LU, pivots, info)` of the tensor argument `name` (argument `pivot` must
/// be true: torch has no CPU LU without pivoting).
pub fn lu_factor<'c, 'a>(c: &Ctx<'c, 'a>, name: &str) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
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

/// The solve from the named arguments.
pub fn lu_solve<'c, 'a>(
    c: &Ctx<'c, 'a>,
    lu: &str,
    pivots: &str,
    b: &str,
    left: bool,
    adjoint: bool,
) -> Result<Value<'c, 'a>, String> {
    let lu = c.args.tensor(lu)?;
    let pivots = c.args.tensor(pivots)?;
    let b = c.args.tensor(b)?;
    let element = lc::float_element(lu, "LU")?;
    let (n, batch) = lc::square_dims(lu, "LU")?;
    lc::matrix_dims(b, "B")?;
    let b_rank = builder::rank(b.r#type()).ok_or("B has an unknown rank")?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    let f = lc::lu_from_parts(&la, lu, pivots, n)?;
    lc::lu_solve_sided(&la, &f, b, n, batch + 2, b_rank, left, adjoint)
}

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
