//! Householder QR in LAPACK's conventions, shared by the `geqrf`,
//! `linalg_qr`, `qr`, `linalg_householder_product` and `ormqr` rules. Not a
//! rule file.
//!
//! torch calls LAPACK: `geqrf` (QR as Householder reflectors in compact
//! form), `orgqr` (Q from the reflectors) and `ormqr` (multiply by Q). The
//! unblocked algorithms (`geqr2`, `org2r`, `orm2r`) are an ONNX `Loop` over
//! the `k = min(m, n)` reflectors, batched over any leading dims, computed in
//! float64 (float32 operands are cast in and out). Step `j` of `geqr2`
//! (LAPACK `dlarfg`): `alpha = a[j, j]`, `xnorm = ||a[j+1:, j]||`; if
//! `xnorm == 0`, `tau = 0` (H = I, even for a negative `alpha`); else
//! `beta = -sign(alpha) * hypot(alpha, xnorm)` (`sign(±0) = +1`),
//! `tau = (beta - alpha) / beta`, `a[j+1:, j] *= 1 / (alpha - beta)` (the
//! reflector `v`, `v[j] = 1` implied), `a[j, j] = beta`, then
//! `H = I - tau v v^T` is applied to the columns right of `j` (`dlarf`:
//! nothing when `tau == 0`). These are the reflectors, signs and `tau`
//! torch returns (checked against torch.geqrf, MKL's LAPACK: equal to
//! rounding); the blocked LAPACK code used for large matrices computes the
//! same factors with a different rounding. `Q = H_0 H_1 ... H_{k-1}`.
//!
//! Matrix sizes must be static (the loop's index tensors are constants);
//! the number of loop iterations is the number of reflectors, so there is no
//! size limit.

use super::polynomial_common::build_loop;
use crate::{builder, Builder, Ctx};
use melior::ir::{r#type::IntegerType, Type, Value, ValueLike};

/// Static `(rows, cols, batch rank)` of the matrix operand `name`
/// (`[*, rows, cols]`), or of `fallback` (a result type with the same
/// dims) when the operand's type is not ranked.
pub fn static_dims(c: &Ctx<'_, '_>, name: &str, fallback: Option<Type<'_>>) -> Result<(usize, usize, usize), String> {
    let x = c.args.tensor(name)?;
    let dims = builder::dims(x.r#type())
        .or_else(|| fallback.and_then(builder::dims))
        .ok_or_else(|| format!("'{name}' has an unknown rank"))?;
    if dims.len() < 2 {
        return Err(format!("'{name}' must have at least 2 dimensions, got {}", dims.len()));
    }
    let (r, k) = (dims[dims.len() - 2], dims[dims.len() - 1]);
    match (r, k) {
        (Some(r), Some(k)) if r >= 0 && k >= 0 => Ok((r as usize, k as usize, dims.len() - 2)),
        _ => Err(format!(
            "'{name}' has a dynamic matrix size: the Householder loop needs the matrix dims (the last two) known at \
             conversion time"
        )),
    }
}

/// Static length of the last dim of the operand `name` and its rank.
pub fn static_last(c: &Ctx<'_, '_>, name: &str) -> Result<(usize, usize), String> {
    let x = c.args.tensor(name)?;
    let dims = builder::dims(x.r#type()).ok_or_else(|| format!("'{name}' has an unknown rank"))?;
    match dims.last() {
        Some(Some(k)) if *k >= 0 => Ok((*k as usize, dims.len())),
        Some(_) => Err(format!("'{name}' has a dynamic last dim: the Householder loop needs it at conversion time")),
        None => Err(format!("'{name}' must have at least 1 dimension")),
    }
}

/// The operand `name` as float64, after checking it is float32 or float64
/// (torch's CPU QR family has no other real dtype). Returns the value and
/// its original element type.
pub fn as_f64<'c, 'a>(c: &Ctx<'c, 'a>, name: &str) -> Result<(Value<'c, 'a>, Type<'c>), String> {
    let x = c.args.tensor(name)?;
    let element = builder::element_type(x.r#type()).ok_or_else(|| format!("'{name}' is not a tensor"))?;
    let f64_t = Type::float64(c.b.context);
    if element == f64_t {
        return Ok((x, element));
    }
    if element != Type::float32(c.b.context) {
        return Err(format!(
            "'{name}' has element type {element}: this lowering (computed in float64) handles float32 and float64 \
             tensors only"
        ));
    }
    Ok((c.b.cast(x, f64_t)?, element))
}

/// Result `index` of the aten op from a float64 value: cast to the result's
/// element type and typed exactly like the result.
pub fn finish<'c, 'a>(c: &Ctx<'c, 'a>, index: usize, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let ty = c.result_type(index)?;
    let element = c.result_element(index)?;
    if element == Type::float64(c.b.context) {
        return c.b.onnx().identity(x).typed(ty);
    }
    let to = crate::onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX data type for {element}"))?;
    c.b.onnx().cast(x, None, None, to).typed(ty)
}

/// Float64 and bool op builders on one builder (the outer graph or a loop
/// body).
struct F<'x, 'c, 'a> {
    b: &'x Builder<'c, 'a>,
}

impl<'x, 'c, 'a> F<'x, 'c, 'a> {
    fn f64_t(&self) -> Type<'c> {
        self.b.unranked(Type::float64(self.b.context))
    }

    /// The typed ops of the builder (`f.f(f.on().mul(a, b))`).
    fn on(&self) -> crate::onnx_ops::Ops<'_, 'c, 'a> {
        self.b.onnx()
    }

    /// A float64 op.
    fn f(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.f64_t())
    }

    /// A bool op.
    fn bool(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        let t: Type = IntegerType::new(self.b.context, 1).into();
        node.typed(self.b.unranked(t))
    }

    fn k(&self, v: f64) -> Result<Value<'c, 'a>, String> {
        self.b.const_scalar(Type::float64(self.b.context), v)
    }

    fn unsqueeze(&self, x: Value<'c, '_>, axis: i64) -> Result<Value<'c, 'a>, String> {
        let axes = self.b.const_i64s(&[axis])?;
        self.f(self.on().unsqueeze(x, axes))
    }

    /// `Gather(x, index, axis)` with a 0-d index (drops the axis).
    fn gather(&self, x: Value<'c, '_>, index: Value<'c, '_>, axis: i64) -> Result<Value<'c, 'a>, String> {
        self.b.onnx().gather(x, index, Some(axis)).typed(self.f64_t())
    }

    /// `ReduceSum` over the last axis, keeping it (axes are an input from
    /// opset 13).
    fn sum_last(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let axes = self.b.const_i64s(&[-1])?;
        self.f(self.on().reduce_sum(x, Some(axes), Some(1), None))
    }

    /// `ReduceMax` over the last axis, keeping it (axes are an input from
    /// opset 18).
    fn max_last(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        if self.b.opset >= 18 {
            let axes = self.b.const_i64s(&[-1])?;
            self.f(self.on().reduce_max(x, Some(axes), None, Some(1), None))
        } else {
            self.f(self.on().reduce_max(x, None, Some(&[-1]), Some(1), None))
        }
    }

    /// `sqrt(sum(x^2))` over the last axis (kept), scaled by the largest
    /// magnitude so that it neither overflows nor underflows.
    fn norm_last(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let s = self.max_last(self.f(self.on().abs(x))?)?;
        let s_is0 = self.bool(self.on().equal(s, self.k(0.0)?))?;
        let safe = self.f(self.on().where_(s_is0, self.k(1.0)?, s))?;
        let y = self.f(self.on().div(x, safe))?;
        let ss = self.sum_last(self.f(self.on().mul(y, y))?)?;
        let norm = self.f(self.on().mul(self.f(self.on().sqrt(ss))?, safe))?;
        // An infinite entry: inf (LAPACK's dnrm2), not inf / inf.
        let inf = self.bool(self.on().is_inf(s, None, None))?;
        self.f(self.on().where_(inf, self.k(f64::INFINITY)?, norm))
    }

    /// `hypot(a, b)` for `b >= 0`, scaled.
    fn hypot(&self, a: Value<'c, '_>, b: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let t = self.f(self.on().max(&[self.f(self.on().abs(a))?, b]))?;
        let t_is0 = self.bool(self.on().equal(t, self.k(0.0)?))?;
        let safe = self.f(self.on().where_(t_is0, self.k(1.0)?, t))?;
        let (x, y) = (self.f(self.on().div(a, safe))?, self.f(self.on().div(b, safe))?);
        let s = self.f(self.on().add(self.f(self.on().mul(x, x))?, self.f(self.on().mul(y, y))?))?;
        let h = self.f(self.on().mul(self.f(self.on().sqrt(s))?, safe))?;
        // Both zero: 0 (the scaled form gives 0 * 1 too; kept explicit);
        // an infinite operand: inf.
        let h = self.f(self.on().where_(t_is0, self.k(0.0)?, h))?;
        let inf = self.bool(self.on().is_inf(t, None, None))?;
        self.f(self.on().where_(inf, self.k(f64::INFINITY)?, h))
    }
}

/// `[count]` int64 constant `0..count`.
fn iota<'c, 'a>(c: &Ctx<'c, 'a>, count: usize) -> Result<Value<'c, 'a>, String> {
    c.b.const_i64s(&(0..count as i64).collect::<Vec<_>>())
}

/// `[count, 1]` int64 constant `0..count`.
fn iota_col<'c, 'a>(c: &Ctx<'c, 'a>, count: usize) -> Result<Value<'c, 'a>, String> {
    let flat = iota(c, count)?;
    let shape = c.b.const_i64s(&[count as i64, 1])?;
    c.b.onnx().reshape(flat, shape, None).typed(c.b.unranked(c.b.i64_type()))
}

/// `Shape(x)[:-2] ++ tail` (int64 1-D).
fn batch_shape_with<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, '_>, tail: &[i64]) -> Result<Value<'c, 'a>, String> {
    let i64s = c.b.unranked(c.b.i64_type());
    let batch = c.b.onnx().shape(x, Some(-2), None).typed(i64s)?;
    let tail = c.b.const_i64s(tail)?;
    c.b.onnx().concat(&[batch, tail], 0).typed(i64s)
}

/// A float64 zero tensor `[*batch(x), len]`.
fn zeros_batch_vec<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, '_>, len: usize) -> Result<Value<'c, 'a>, String> {
    let shape = batch_shape_with(c, x, &[len as i64])?;
    let f = F { b: &c.b };
    f.f(f.on().expand(f.k(0.0)?, shape))
}

/// `geqr2` of the float64 `a` (`[*, m, n]`): `(a, tau)` in LAPACK's compact
/// form, `tau` `[*, min(m, n)]`.
pub fn geqrf<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    m: usize,
    n: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let k = m.min(n);
    let f64_t = Type::float64(c.b.context);
    let rows = iota(c, m)?;
    let rows_col = iota_col(c, m)?;
    let cols = iota(c, n)?;
    let taus_idx = iota(c, k)?;
    let taus0 = zeros_batch_vec(c, a, k)?;
    let trips = c.b.const_i64_scalar(k as i64)?;
    let out = build_loop(c, f64_t, trips, &[a, taus0], |b, j, carried| {
        let f = F { b };
        let (a, taus) = (carried[0], carried[1]);
        let zero = f.k(0.0)?;
        let col = f.gather(a, j, -1)?; // [*, m]
        let below = f.bool(f.on().greater(rows, j))?;
        let at = f.bool(f.on().equal(rows, j))?;
        let alpha = f.sum_last(f.f(f.on().where_(at, col, zero))?)?; // [*, 1]
        let x = f.f(f.on().where_(below, col, zero))?;
        let xnorm = f.norm_last(x)?;
        let is0 = f.bool(f.on().equal(xnorm, zero))?;
        let hyp = f.hypot(alpha, xnorm)?;
        let neg = f.bool(f.on().less(alpha, zero))?;
        let beta = f.f(f.on().where_(neg, hyp, f.f(f.on().neg(hyp))?))?;
        let one = f.k(1.0)?;
        let safe_beta = f.f(f.on().where_(is0, one, beta))?;
        let tau = f.f(f.on().where_(is0, zero, f.f(f.on().div(f.f(f.on().sub(beta, alpha))?, safe_beta))?))?;
        let den = f.f(f.on().where_(is0, one, f.f(f.on().sub(alpha, beta))?))?;
        let scaled = f.f(f.on().mul(x, f.f(f.on().div(one, den))?))?;
        let unit = f.f(f.on().where_(at, one, zero))?;
        let v = f.f(f.on().where_(below, scaled, unit))?; // [*, m]
        let diag = f.f(f.on().where_(is0, alpha, beta))?;
        let new_col = f.f(f.on().where_(below, scaled, f.f(f.on().where_(at, diag, col))?))?;
        // H applied to a[j:, j+1:] only (dlarf on the submatrix: NaN and inf
        // elsewhere stay where they are).
        let from_j = f.bool(f.on().greater_or_equal(rows_col, j))?; // [m, 1]
        let sub = f.f(f.on().where_(from_j, a, zero))?;
        let w = f.f(f.on().mat_mul(f.unsqueeze(v, -2)?, sub))?; // [*, 1, n]
        let vt = f.f(f.on().mul(f.unsqueeze(v, -1)?, f.unsqueeze(tau, -1)?))?; // [*, m, 1]
        let upd = f.f(f.on().mul(vt, w))?;
        let right = f.bool(f.on().greater(cols, j))?;
        let skip = f.bool(f.on().or(f.bool(f.on().not(right))?, f.unsqueeze_bool(is0, -1)?))?;
        let skip = f.bool(f.on().or(skip, f.bool(f.on().not(from_j))?))?;
        let updated = f.f(f.on().where_(skip, a, f.f(f.on().sub(a, upd))?))?;
        let here = f.bool(f.on().equal(cols, j))?;
        let a = f.f(f.on().where_(here, f.unsqueeze(new_col, -1)?, updated))?;
        let taus = f.f(f.on().where_(f.bool(f.on().equal(taus_idx, j))?, tau, taus))?;
        Ok(vec![a, taus])
    })?;
    Ok((out[0], out[1]))
}

impl<'x, 'c, 'a> F<'x, 'c, 'a> {
    fn unsqueeze_bool(&self, x: Value<'c, '_>, axis: i64) -> Result<Value<'c, 'a>, String> {
        let axes = self.b.const_i64s(&[axis])?;
        self.bool(self.on().unsqueeze(x, axes))
    }
}

/// Applies the first `count` reflectors stored in the columns of `v`
/// (`[*, r, >= count]`, LAPACK's compact form: `v_i[i] = 1`, zeros above,
/// `v[i+1:, i]` below) with `tau` (`[*, >= count]`) to `x` (`[*, r, cols]`)
/// from the left, all float64: `descending` gives `H_0 (H_1 (... H_{count-1}
/// x))` = `Q x`, else `H_{count-1} ... H_0 x` = `Q^T x` (LAPACK `orm2r`,
/// `org2r` when `x` is the identity). Each `H_i` changes rows `i..` only;
/// `orgqr = Some(cols)` (x is the identity, `[*, r, cols]`) also leaves
/// columns `< i` alone, as `org2r` does (they are zero there; this keeps a
/// NaN of a later reflector out of them, like LAPACK).
#[allow(clippy::too_many_arguments)]
pub fn apply_left<'c, 'a>(
    c: &Ctx<'c, 'a>,
    v: Value<'c, 'a>,
    tau: Value<'c, 'a>,
    x: Value<'c, 'a>,
    r: usize,
    count: usize,
    descending: bool,
    orgqr: Option<usize>,
) -> Result<Value<'c, 'a>, String> {
    let f64_t = Type::float64(c.b.context);
    let rows = iota(c, r)?;
    let rows_col = iota_col(c, r)?;
    let cols = match orgqr {
        Some(n) => Some(iota(c, n)?),
        None => None,
    };
    let last = c.b.const_i64_scalar(count as i64 - 1)?;
    let trips = c.b.const_i64_scalar(count as i64)?;
    let out = build_loop(c, f64_t, trips, &[x], |b, it, carried| {
        let f = F { b };
        let x = carried[0];
        let i = if descending { b.onnx().sub(last, it).typed(b.unranked(b.i64_type()))? } else { it };
        let (zero, one) = (f.k(0.0)?, f.k(1.0)?);
        let col = f.gather(v, i, -1)?; // [*, r]
        let below = f.bool(f.on().greater(rows, i))?;
        let at = f.bool(f.on().equal(rows, i))?;
        let vi = f.f(f.on().where_(below, col, f.f(f.on().where_(at, one, zero))?))?;
        let t = f.unsqueeze(f.gather(tau, i, -1)?, -1)?; // [*, 1]
        let from_i = f.bool(f.on().greater_or_equal(rows_col, i))?; // [r, 1]
        let sub = f.f(f.on().where_(from_i, x, zero))?;
        let w = f.f(f.on().mat_mul(f.unsqueeze(vi, -2)?, sub))?; // [*, 1, cols]
        let vt = f.f(f.on().mul(f.unsqueeze(vi, -1)?, f.unsqueeze(t, -1)?))?; // [*, r, 1]
        let next = f.f(f.on().sub(x, f.f(f.on().mul(vt, w))?))?;
        // dlarf applies nothing when tau == 0.
        let skip = f.bool(f.on().equal(f.unsqueeze(t, -1)?, zero))?;
        let mut skip = f.bool(f.on().or(skip, f.bool(f.on().not(from_i))?))?;
        if let Some(cols) = cols {
            skip = f.bool(f.on().or(skip, f.bool(f.on().less(cols, i))?))?;
        }
        Ok(vec![f.f(f.on().where_(skip, x, next))?])
    })?;
    Ok(out[0])
}

/// The float64 identity `[*batch(like), rows, cols]` (ones on the main
/// diagonal).
pub fn eye_batch<'c, 'a>(
    c: &Ctx<'c, 'a>,
    like: Value<'c, '_>,
    rows: usize,
    cols: usize,
) -> Result<Value<'c, 'a>, String> {
    let f = F { b: &c.b };
    let r = iota_col(c, rows)?;
    let k = iota(c, cols)?;
    let eq = f.bool(f.on().equal(r, k))?;
    let eye = f.f(f.on().where_(eq, f.k(1.0)?, f.k(0.0)?))?;
    let shape = batch_shape_with(c, like, &[rows as i64, cols as i64])?;
    f.f(f.on().expand(eye, shape))
}

/// `triu(a)` (`[*, m, n]`) restricted to its first `rows` rows
/// (`rows <= m`; with `rows > m`, zero rows are appended).
pub fn upper<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    m: usize,
    n: usize,
    rows: usize,
) -> Result<Value<'c, 'a>, String> {
    let f = F { b: &c.b };
    let r = iota_col(c, m)?;
    let k = iota(c, n)?;
    let keep = f.bool(f.on().less_or_equal(r, k))?;
    let tri = f.f(f.on().where_(keep, a, f.k(0.0)?))?;
    if rows == m {
        return Ok(tri);
    }
    if rows < m {
        let (s, e, ax) = (c.b.const_i64s(&[0])?, c.b.const_i64s(&[rows as i64])?, c.b.const_i64s(&[-2])?);
        return f.f(f.on().slice(tri, s, e, Some(ax), None));
    }
    Err(format!("rule bug: R with {rows} rows from a matrix of {m}"))
}

/// Swaps the last two dims of a tensor of rank `rank`.
pub fn transpose<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, '_>, rank: usize) -> Result<Value<'c, 'a>, String> {
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(rank - 2, rank - 1);
    let f = F { b: &c.b };
    c.b.onnx().transpose(x, Some(&perm)).typed(f.f64_t())
}

/// `(Q, R)` of the matrix operand `name` (`complete`: Q `[*, m, m]`, R
/// `[*, m, n]`; else Q `[*, m, k]`, R `[*, k, n]`; `want_q = false` leaves
/// Q out), cast to the result types 0 and 1.
pub fn qr<'c, 'a>(
    c: &Ctx<'c, 'a>,
    name: &str,
    complete: bool,
    want_q: bool,
) -> Result<(Option<Value<'c, 'a>>, Value<'c, 'a>), String> {
    let fallback = if want_q { c.result_type(0).ok() } else { None };
    let (m, n, _) = static_dims(c, name, fallback)?;
    let (a, _) = as_f64(c, name)?;
    let k = m.min(n);
    let (packed, tau) = geqrf(c, a, m, n)?;
    let r_rows = if complete { m } else { k };
    let r = upper(c, packed, m, n, r_rows)?;
    let r = finish(c, 1, r)?;
    if !want_q {
        return Ok((None, r));
    }
    let q_cols = if complete { m } else { k };
    let eye = eye_batch(c, a, m, q_cols)?;
    let q = apply_left(c, packed, tau, eye, m, k, true, Some(q_cols))?;
    Ok((Some(finish(c, 0, q)?), r))
}
