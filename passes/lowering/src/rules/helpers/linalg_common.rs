//! Dense linear algebra unrolled over a static matrix size, shared by the
//! det / slogdet / inv / solve / LU / Cholesky / triangular-solve rules.
//!
//! ONNX has no factorization operators (only `Det`), but for a matrix size
//! `n` known at conversion time the textbook algorithms are a fixed sequence
//! of Slice / Where / Mul / Sub ops, `n` steps long, batched over any leading
//! dims. The algorithms are LAPACK's unblocked ones, so results agree with
//! torch (which calls LAPACK) up to rounding:
//!
//! - LU with partial pivoting (`getf2`): at step `k` the pivot is the first
//!   row `>= k` of largest `|a_ik|` (`idamax`, ONNX ArgMax keeps the first of
//!   ties), rows swapped, the column below scaled by `1 / pivot` (left as is
//!   when the pivot is 0, as LAPACK does), the trailing block updated.
//!   Pivots are LAPACK's 1-based int32 row numbers; `info` is the first
//!   `i` (1-based) with `U[i, i] == 0`, else 0.
//! - Triangular solves (`trsm`), column by column.
//! - Cholesky (`potf2`, right-looking); `info` is the first `k` (1-based)
//!   whose pivot `a_kk - sum l_kj^2` is not > 0.
//!
//! Sizes above [`MAX_N`] are refused (the graph grows with `n`), as are
//! dynamic matrix sizes. Singular inputs: torch raises (`linalg.inv`,
//! `linalg.solve`, `cholesky`, `linalg.lu_factor`, the `_ex` variants with
//! `check_errors=True`), which an ONNX graph cannot do; these lowerings then
//! give the IEEE results of the same algorithm (inf/NaN), and the `_ex`
//! variants report `info` exactly like torch. Wherever torch returns a
//! result, the graph computes the same one.

use crate::{builder, Ctx};
use melior::ir::{
    attribute::IntegerAttribute,
    r#type::{IntegerType, RankedTensorType},
    Attribute, Type, Value, ValueLike,
};

/// Largest matrix size the rules unroll.
pub const MAX_N: usize = 16;

/// Static `(rows, cols, batch rank)` of a matrix operand `[*, rows, cols]`.
pub fn matrix_dims(x: Value<'_, '_>, what: &str) -> Result<(usize, usize, usize), String> {
    let dims = builder::dims(x.r#type()).ok_or_else(|| format!("{what} has an unknown rank"))?;
    if dims.len() < 2 {
        return Err(format!("{what} must have at least 2 dimensions, got {}", dims.len()));
    }
    let (r, c) = (dims[dims.len() - 2], dims[dims.len() - 1]);
    let (Some(r), Some(c)) = (r, c) else {
        return Err(format!(
            "{what} has a dynamic matrix size: the lowering unrolls the algorithm over a size known at conversion time"
        ));
    };
    if r as usize > MAX_N || c as usize > MAX_N {
        return Err(format!(
            "{what} is {r}x{c}: the lowering unrolls the algorithm over the matrix size and supports matrices up to \
             {MAX_N}x{MAX_N}"
        ));
    }
    Ok((r as usize, c as usize, dims.len() - 2))
}

/// Refuses a matrix size above [`MAX_N`].
pub fn matrix_limit(n: usize, what: &str) -> Result<(), String> {
    if n > MAX_N {
        return Err(format!(
            "{what} is {n}x{n}: the lowering unrolls the algorithm over the matrix size and supports matrices up to \
             {MAX_N}x{MAX_N}"
        ));
    }
    Ok(())
}

/// Static `n` and batch rank of a square matrix operand.
pub fn square_dims(x: Value<'_, '_>, what: &str) -> Result<(usize, usize), String> {
    let (r, c, batch) = matrix_dims(x, what)?;
    if r != c {
        return Err(format!("{what} must be square, got {r}x{c}"));
    }
    Ok((r, batch))
}

/// Requires a floating-point element type (f32, f64, f16, ...).
pub fn float_element<'c>(x: Value<'c, '_>, what: &str) -> Result<Type<'c>, String> {
    let element = builder::element_type(x.r#type()).ok_or_else(|| format!("{what} is not a tensor"))?;
    if !builder::is_float(element) {
        return Err(format!("{what} must be a floating-point tensor, got {element}"));
    }
    Ok(element)
}

/// Op builders over one element type.
pub struct La<'x, 'c, 'a> {
    pub ctx: &'x Ctx<'c, 'a>,
    pub element: Type<'c>,
}

impl<'x, 'c, 'a> La<'x, 'c, 'a> {
    pub fn new(ctx: &'x Ctx<'c, 'a>, element: Type<'c>) -> Self {
        La { ctx, element }
    }

    fn float_t(&self) -> Type<'c> {
        self.ctx.b.unranked(self.element)
    }

    fn bool_t(&self) -> Type<'c> {
        IntegerType::new(self.ctx.b.context, 1).into()
    }

    fn i64_t(&self) -> Type<'c> {
        self.ctx.b.unranked(self.ctx.b.i64_type())
    }

    /// The typed ops of the rule's builder (`la.f(la.on().mul(a, b))`).
    pub fn on(&self) -> crate::onnx_ops::Ops<'_, 'c, 'a> {
        self.ctx.b.onnx()
    }

    /// A float op (result of the element type, shape left to inference).
    pub fn f(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.float_t())
    }

    /// A comparison or logical op (bool result).
    pub fn cmp(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.ctx.b.unranked(self.bool_t()))
    }

    pub fn scalar(&self, v: f64) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.const_scalar(self.element, v)
    }

    pub fn where_(&self, cond: Value<'c, '_>, a: Value<'c, '_>, b: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let ty = self.ctx.b.unranked(builder::element_type(a.r#type()).ok_or("Where of a non-tensor")?);
        self.ctx.b.onnx().where_(cond, a, b).typed(ty)
    }

    /// `x[..., start:end, ...]` along `axis` (negative: from the end).
    pub fn slice(&self, x: Value<'c, '_>, axis: i64, start: usize, end: usize) -> Result<Value<'c, 'a>, String> {
        let b = &self.ctx.b;
        let (s, e, a) = (b.const_i64s(&[start as i64])?, b.const_i64s(&[end as i64])?, b.const_i64s(&[axis])?);
        let ty = b.unranked(builder::element_type(x.r#type()).ok_or("Slice of a non-tensor")?);
        b.onnx().slice(x, s, e, Some(a), None).typed(ty)
    }

    /// Element `(i, j)` of the last two dims, kept as `[*, 1, 1]`.
    pub fn entry(&self, x: Value<'c, '_>, i: usize, j: usize) -> Result<Value<'c, 'a>, String> {
        let row = self.slice(x, -2, i, i + 1)?;
        self.slice(row, -1, j, j + 1)
    }

    /// A constant bool `[rows, cols]` mask, `f(i, j)`.
    pub fn mask(&self, rows: usize, cols: usize, f: impl Fn(usize, usize) -> bool) -> Result<Value<'c, 'a>, String> {
        let bool_t = self.bool_t();
        let ty = RankedTensorType::new(&[rows as u64, cols as u64], bool_t, None).into();
        let elements: Vec<Attribute> = (0..rows * cols)
            .map(|k| IntegerAttribute::new(bool_t, f(k / cols, k % cols) as i64).into())
            .collect();
        self.ctx.b.constant(ty, &elements)
    }

    /// A constant int64 `[rows, 1]` column `0..rows`.
    pub fn row_numbers(&self, rows: usize) -> Result<Value<'c, 'a>, String> {
        let i64_t = self.ctx.b.i64_type();
        let ty = RankedTensorType::new(&[rows as u64, 1], i64_t, None).into();
        let elements: Vec<Attribute> = (0..rows).map(|k| IntegerAttribute::new(i64_t, k as i64).into()).collect();
        self.ctx.b.constant(ty, &elements)
    }

    /// Swaps the last two dims of a tensor of rank `rank`.
    pub fn transpose(&self, x: Value<'c, '_>, rank: usize) -> Result<Value<'c, 'a>, String> {
        let mut perm: Vec<i64> = (0..rank as i64).collect();
        perm.swap(rank - 2, rank - 1);
        let ty = self.ctx.b.unranked(builder::element_type(x.r#type()).ok_or("Transpose of a non-tensor")?);
        self.ctx.b.onnx().transpose(x, Some(&perm)).typed(ty)
    }

    /// The diagonal `[*, k]` of the last two dims of `x` (`[*, rows, cols]`
    /// with a batch of rank `batch`), `k = min(rows, cols)`.
    pub fn diagonal(&self, x: Value<'c, '_>, rows: usize, cols: usize, batch: usize) -> Result<Value<'c, 'a>, String> {
        let b = &self.ctx.b;
        let mut shape = vec![0i64; batch];
        shape.push((rows * cols) as i64);
        let shape = b.const_i64s(&shape)?;
        let flat = b.onnx().reshape(x, shape, None).typed(self.float_t())?;
        let idx: Vec<i64> = (0..rows.min(cols)).map(|k| (k * cols + k) as i64).collect();
        let idx = b.const_i64s(&idx)?;
        b.onnx().gather(flat, idx, Some(-1)).typed(self.float_t())
    }

    /// `Expand(x, broadcast(shape(x)[:-2], shape(other)[:-2]) + shape(x)[-2:])`:
    /// `x` with the batch dims broadcast against `other`'s.
    pub fn expand_batch(&self, x: Value<'c, '_>, other: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let b = &self.ctx.b;
        let other_batch = b.onnx().shape(other, Some(-2), None).typed(self.i64_t())?;
        let ones = b.const_i64s(&[1, 1])?;
        let target = b.onnx().concat(&[other_batch, ones], 0).typed(self.i64_t())?;
        let ty = b.unranked(builder::element_type(x.r#type()).ok_or("Expand of a non-tensor")?);
        b.onnx().expand(x, target).typed(ty)
    }

    /// Index of the first `true` along the last axis plus one, or 0 when
    /// none (LAPACK's `info`), as int32 `[*]`.
    pub fn first_true_1based(&self, flags: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let b = &self.ctx.b;
        let i32_t: Type = IntegerType::new(b.context, 32).into();
        let as_int = b.cast(flags, b.i64_type())?;
        let first = b.onnx().arg_max(as_int, Some(-1), Some(0), None).typed(self.i64_t())?;
        let any = self.ctx.reduce(crate::Reduction::Max, as_int, Some(&[-1]), false, self.i64_t())?;
        let one = b.const_scalar(b.i64_type(), 1.0)?;
        let plus = b.onnx().add(first, one).typed(self.i64_t())?;
        let info = b.onnx().mul(plus, any).typed(self.i64_t())?;
        b.cast(info, i32_t)
    }
}

/// The result of [`lu`].
pub struct Lu<'c, 'a> {
    /// `[*, m, n]`: U on and above the diagonal, the multipliers of the
    /// unit-lower L below it (LAPACK's packed form).
    pub lu: Value<'c, 'a>,
    /// The pivot row of each step (0-based), `[*, 1, 1]` int64.
    pub pivots: Vec<Value<'c, 'a>>,
    /// False when every pivot is its own row (no exchange to apply).
    pub exchanges: bool,
}

/// LU factorization with partial pivoting of `a` (`[*, m, n]`), LAPACK
/// `getf2`; `pivot = false` skips the row exchanges (torch's
/// `linalg.lu_factor(pivot=False)`).
pub fn lu<'c, 'a>(la: &La<'_, 'c, 'a>, a: Value<'c, 'a>, m: usize, n: usize, pivot: bool) -> Result<Lu<'c, 'a>, String> {
    let b = &la.ctx.b;
    // An empty batch: no row to exchange (ORT refuses GatherElements there).
    let pivot = pivot && !has_zero_dim(a);
    let mut x = a;
    let mut pivots = Vec::new();
    let rows = la.row_numbers(m)?;
    for k in 0..m.min(n) {
        let p = if pivot && m - k > 1 {
            let col = la.slice(x, -1, k, k + 1)?;
            let cand = la.slice(col, -2, k, m)?;
            let abs = la.f(la.on().abs(cand))?;
            let arg = b.onnx().arg_max(abs, Some(-2), Some(1), None).typed(b.unranked(b.i64_type()))?;
            let kk = b.const_scalar(b.i64_type(), k as f64)?;
            let p = b.onnx().add(arg, kk).typed(b.unranked(b.i64_type()))?;
            // idx[r] = p if r == k, k if r == p, else r; then gather rows.
            let is_k = la.cmp(la.on().equal(rows, kk))?;
            let is_p = la.cmp(la.on().equal(rows, p))?;
            let inner = la.where_(is_p, kk, rows)?;
            let idx = la.where_(is_k, p, inner)?;
            let shape = b.shape(x)?;
            let idx = b.onnx().expand(idx, shape).typed(b.unranked(b.i64_type()))?;
            x = b.onnx().gather_elements(x, idx, Some(-2)).typed(b.unranked(la.element))?;
            p
        } else {
            // No search: the pivot is row k itself (shape [1, 1], broadcast).
            let i64_t = b.i64_type();
            let ty = RankedTensorType::new(&[1, 1], i64_t, None).into();
            b.constant(ty, &[IntegerAttribute::new(i64_t, k as i64).into()])?
        };
        pivots.push(p);
        if k + 1 >= m {
            continue;
        }
        let piv = la.entry(x, k, k)?;
        let col = la.slice(x, -1, k, k + 1)?;
        // LAPACK scales by the reciprocal and leaves a zero column as is.
        let one = la.scalar(1.0)?;
        let zero = la.scalar(0.0)?;
        let recip = la.f(la.on().div(one, piv))?;
        let scaled = la.f(la.on().mul(col, recip))?;
        let is_zero = la.cmp(la.on().equal(piv, zero))?;
        let l = la.where_(is_zero, col, scaled)?;
        let row = la.slice(x, -2, k, k + 1)?;
        let prod = la.f(la.on().mul(l, row))?;
        let updated = la.f(la.on().sub(x, prod))?;
        let trailing = la.mask(m, n, |i, j| i > k && j > k)?;
        let below = la.mask(m, n, |i, j| i > k && j == k)?;
        let keep = la.where_(below, l, x)?;
        x = la.where_(trailing, updated, keep)?;
    }
    Ok(Lu { lu: x, pivots, exchanges: pivot })
}

impl<'c, 'a> Lu<'c, 'a> {
    /// The pivots as LAPACK's 1-based int32 `[*, k]`.
    pub fn pivots_i32(&self, la: &La<'_, 'c, 'a>, batch: usize) -> Result<Value<'c, 'a>, String> {
        let b = &la.ctx.b;
        let i32_t: Type = IntegerType::new(b.context, 32).into();
        if self.pivots.is_empty() {
            // k = 0: an empty [*, 0] tensor.
            let shape = b.onnx().shape(self.lu, Some(-2), None).typed(b.unranked(b.i64_type()))?;
            let zero = b.const_i64s(&[0])?;
            let shape = b.onnx().concat(&[shape, zero], 0).typed(b.unranked(b.i64_type()))?;
            let fill = b.const_scalar(i32_t, 0.0)?;
            return b.onnx().expand(fill, shape).typed(b.unranked(i32_t));
        }
        // Each pivot [*, 1, 1] (or a constant [1, 1]) broadcast to the batch.
        let batch_ones = {
            let shape = b.onnx().shape(self.lu, Some(-2), None).typed(b.unranked(b.i64_type()))?;
            let ones = b.const_i64s(&[1, 1])?;
            b.onnx().concat(&[shape, ones], 0).typed(b.unranked(b.i64_type()))?
        };
        let one = b.const_scalar(b.i64_type(), 1.0)?;
        let mut parts = Vec::new();
        for p in &self.pivots {
            let p = b.onnx().expand(*p, batch_ones).typed(b.unranked(b.i64_type()))?;
            parts.push(b.onnx().add(p, one).typed(b.unranked(b.i64_type()))?);
        }
        let all = b.onnx().concat(&parts, -1).typed(b.unranked(b.i64_type()))?;
        // [*, 1, k] -> [*, k]
        let axes = b.const_i64s(&[batch as i64])?;
        let squeezed = b.onnx().squeeze(all, Some(axes)).typed(b.unranked(b.i64_type()))?;
        b.cast(squeezed, i32_t)
    }

    /// `(-1)^(number of row exchanges)`, `[*, 1, 1]` (or `[1, 1]`).
    pub fn permutation_sign(&self, la: &La<'_, 'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let b = &la.ctx.b;
        let mut sign = la.scalar(1.0)?;
        let (plus, minus) = (la.scalar(1.0)?, la.scalar(-1.0)?);
        for (k, p) in self.pivots.iter().enumerate() {
            let kk = b.const_scalar(b.i64_type(), k as f64)?;
            let same = la.cmp(la.on().equal(*p, kk))?;
            let s = la.where_(same, plus, minus)?;
            sign = la.f(la.on().mul(sign, s))?;
        }
        Ok(sign)
    }

    /// Applies the row exchanges to `rhs` (`[*, m, k]`, batch already
    /// broadcast with the LU's): `P^T rhs` as LAPACK `laswp`, or `P rhs`
    /// (the exchanges in reverse order) when `reverse`.
    pub fn permute_rows(
        &self,
        la: &La<'_, 'c, 'a>,
        rhs: Value<'c, 'a>,
        m: usize,
        reverse: bool,
    ) -> Result<Value<'c, 'a>, String> {
        let b = &la.ctx.b;
        let rows = la.row_numbers(m)?;
        let mut x = rhs;
        if !self.exchanges {
            return Ok(x);
        }
        let mut steps: Vec<(usize, &Value<'c, 'a>)> = self.pivots.iter().enumerate().collect();
        if reverse {
            steps.reverse();
        }
        for (k, p) in steps {
            let kk = b.const_scalar(b.i64_type(), k as f64)?;
            let is_k = la.cmp(la.on().equal(rows, kk))?;
            let is_p = la.cmp(la.on().equal(rows, *p))?;
            let inner = la.where_(is_p, kk, rows)?;
            let idx = la.where_(is_k, *p, inner)?;
            let shape = b.shape(x)?;
            let idx = b.onnx().expand(idx, shape).typed(b.unranked(b.i64_type()))?;
            x = b.onnx().gather_elements(x, idx, Some(-2)).typed(b.unranked(la.element))?;
        }
        Ok(x)
    }
}

/// Solves `T X = Y` for a triangular `T` (`[*, n, n]`, only its `lower` or
/// upper triangle read, its diagonal taken as ones when `unit`) and `Y`
/// (`[*, n, k]`), batch dims broadcast (LAPACK `trsm`, left side).
pub fn triangular_solve<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    t: Value<'c, 'a>,
    y: Value<'c, 'a>,
    n: usize,
    lower: bool,
    unit: bool,
) -> Result<Value<'c, 'a>, String> {
    let mut y = y;
    let order: Vec<usize> = if lower { (0..n).collect() } else { (0..n).rev().collect() };
    for k in order {
        let yk = la.slice(y, -2, k, k + 1)?;
        let xk = if unit {
            yk
        } else {
            let tkk = la.entry(t, k, k)?;
            la.f(la.on().div(yk, tkk))?
        };
        let this_row = la.mask(n, 1, |i, _| i == k)?;
        let rest = if lower { la.mask(n, 1, |i, _| i > k)? } else { la.mask(n, 1, |i, _| i < k)? };
        let col = la.slice(t, -1, k, k + 1)?;
        let prod = la.f(la.on().mul(col, xk))?;
        let updated = la.f(la.on().sub(y, prod))?;
        let set = la.where_(this_row, xk, y)?;
        let last = if lower { k + 1 == n } else { k == 0 };
        y = if last { set } else { la.where_(rest, updated, set)? };
    }
    Ok(y)
}

/// Solves `A X = B` (or `A^T X = B` when `adjoint`) from the LU
/// factorization `P L U` of `A` (LAPACK `getrs` with trans 'N' / 'T'):
/// `U^-1 L^-1 P^T B`, or `P L^-T U^-T B`. `rhs` is `[*, n, k]`; the batch
/// dims of the LU and `rhs` are broadcast. `rank` is the rank of the LU.
pub fn lu_solve<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    f: &Lu<'c, 'a>,
    rhs: Value<'c, 'a>,
    n: usize,
    rank: usize,
    adjoint: bool,
) -> Result<Value<'c, 'a>, String> {
    let rhs = la.expand_batch(rhs, f.lu)?;
    if !adjoint {
        let y = f.permute_rows(la, rhs, n, false)?;
        let y = triangular_solve(la, f.lu, y, n, true, true)?;
        return triangular_solve(la, f.lu, y, n, false, false);
    }
    // (P L U)^T = U^T L^T P^T: the transposed LU holds U^T below (non-unit)
    // and L^T above (unit).
    let t = la.transpose(f.lu, rank)?;
    let y = triangular_solve(la, t, rhs, n, true, false)?;
    let y = triangular_solve(la, t, y, n, false, true)?;
    f.permute_rows(la, y, n, true)
}

/// `det` and the pieces of `slogdet` from an LU factorization of a square
/// `[*, n, n]` (n >= 1), like torch: `det = sign(P) prod(diag U)`,
/// `sign = sign(P) prod(sgn(diag U))`, `logabsdet = sum(log|diag U|)`.
pub fn det_from_lu<'c, 'a>(la: &La<'_, 'c, 'a>, f: &Lu<'c, 'a>, n: usize, batch: usize) -> Result<Value<'c, 'a>, String> {
    let diag = la.diagonal(f.lu, n, n, batch)?;
    let prod = la.ctx.reduce(crate::Reduction::Prod, diag, Some(&[-1]), false, la.ctx.b.unranked(la.element))?;
    let sign = squeeze_matrix_dims(la, f.permutation_sign(la)?)?;
    la.f(la.on().mul(sign, prod))
}

/// `(sign, logabsdet)` of a square `[*, n, n]` (n >= 1) from its LU.
pub fn slogdet_from_lu<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    f: &Lu<'c, 'a>,
    n: usize,
    batch: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let diag = la.diagonal(f.lu, n, n, batch)?;
    let unranked = la.ctx.b.unranked(la.element);
    let signs = la.f(la.on().sign(diag))?;
    let sign_u = la.ctx.reduce(crate::Reduction::Prod, signs, Some(&[-1]), false, unranked)?;
    let sign_p = squeeze_matrix_dims(la, f.permutation_sign(la)?)?;
    let sign = la.f(la.on().mul(sign_u, sign_p))?;
    let abs = la.f(la.on().abs(diag))?;
    let logs = la.f(la.on().log(abs))?;
    let logabsdet = la.ctx.reduce(crate::Reduction::Sum, logs, Some(&[-1]), false, unranked)?;
    Ok((sign, logabsdet))
}

/// `[*, 1, 1]` -> `[*]`.
fn squeeze_matrix_dims<'c, 'a>(la: &La<'_, 'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let axes = la.ctx.b.const_i64s(&[-2, -1])?;
    la.ctx.b.onnx().squeeze(x, Some(axes)).typed(la.ctx.b.unranked(la.element))
}

/// A tensor of the batch shape of `like` (`[*, m, n]` -> `[*]`) filled with
/// `value` of the element type.
pub fn batch_filled<'c, 'a>(la: &La<'_, 'c, 'a>, like: Value<'c, 'a>, value: f64) -> Result<Value<'c, 'a>, String> {
    let b = &la.ctx.b;
    let shape = b.onnx().shape(like, Some(-2), None).typed(b.unranked(b.i64_type()))?;
    let fill = la.scalar(value)?;
    b.onnx().expand(fill, shape).typed(b.unranked(la.element))
}

/// An identity matrix `[n, n]` of the element type (broadcast as a batch).
pub fn identity<'c, 'a>(la: &La<'_, 'c, 'a>, n: usize) -> Result<Value<'c, 'a>, String> {
    let ty = RankedTensorType::new(&[n as u64, n as u64], la.element, None).into();
    let elements: Vec<Attribute> = (0..n * n)
        .map(|k| crate::builder::float_attr(la.ctx.b.context, la.element, (k / n == k % n) as i64 as f64).into())
        .collect();
    la.ctx.b.constant(ty, &elements)
}

/// Cholesky factor `L` (lower, `L L^T = A`) of `[*, n, n]`, reading the lower
/// triangle only (LAPACK `potf2`), and the per-step flags "pivot not > 0"
/// (`[*, n]` bool, for `info`). The upper triangle of the result is 0.
pub fn cholesky<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    a: Value<'c, 'a>,
    n: usize,
    batch: usize,
) -> Result<(Value<'c, 'a>, Option<Value<'c, 'a>>), String> {
    let b = &la.ctx.b;
    let mut x = a;
    let zero = la.scalar(0.0)?;
    let mut bad = Vec::new();
    for k in 0..n {
        let d2 = la.entry(x, k, k)?;
        let positive = la.cmp(la.on().greater(d2, zero))?;
        bad.push(la.cmp(la.on().not(positive))?);
        let d = la.f(la.on().sqrt(d2))?;
        let diag = la.mask(n, n, |i, j| i == k && j == k)?;
        if k + 1 == n {
            x = la.where_(diag, d, x)?;
            continue;
        }
        let col = la.slice(x, -1, k, k + 1)?;
        let one = la.scalar(1.0)?;
        let recip = la.f(la.on().div(one, d))?;
        let l = la.f(la.on().mul(col, recip))?;
        let lt = la.transpose(l, batch + 2)?;
        let prod = la.f(la.on().mul(l, lt))?;
        let updated = la.f(la.on().sub(x, prod))?;
        let trailing = la.mask(n, n, |i, j| i > k && j > k)?;
        let below = la.mask(n, n, |i, j| i > k && j == k)?;
        let set_d = la.where_(diag, d, x)?;
        let set_l = la.where_(below, l, set_d)?;
        x = la.where_(trailing, updated, set_l)?;
    }
    let upper = la.mask(n, n, |i, j| j > i)?;
    let x = la.where_(upper, zero, x)?;
    let flags = if bad.is_empty() {
        None
    } else {
        // Each flag is [*, 1, 1]: concat on the last axis, drop the other.
        let all = b.onnx().concat(&bad, -1).typed(b.unranked(la.bool_t()))?;
        let axes = b.const_i64s(&[batch as i64])?;
        Some(b.onnx().squeeze(all, Some(axes)).typed(b.unranked(la.bool_t()))?)
    };
    Ok((x, flags))
}

/// `info` from per-step failure flags `[*, n]` (or zeros of `shape_of`'s
/// batch when n = 0), int32 `[*]`.
pub fn info_from_flags<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    flags: Option<Value<'c, 'a>>,
    shape_of: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    match flags {
        Some(flags) => la.first_true_1based(flags),
        None => {
            let b = &la.ctx.b;
            let i32_t: Type = IntegerType::new(b.context, 32).into();
            let shape = b.onnx().shape(shape_of, Some(-2), None).typed(b.unranked(b.i64_type()))?;
            let fill = b.const_scalar(i32_t, 0.0)?;
            b.onnx().expand(fill, shape).typed(b.unranked(i32_t))
        }
    }
}

/// `info` of an LU factorization: first zero on U's diagonal (1-based), 0
/// when none. `lu` is `[*, m, n]`.
pub fn lu_info<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    lu: Value<'c, 'a>,
    m: usize,
    n: usize,
    batch: usize,
) -> Result<Value<'c, 'a>, String> {
    if m.min(n) == 0 {
        return info_from_flags(la, None, lu);
    }
    let diag = la.diagonal(lu, m, n, batch)?;
    let zero = la.scalar(0.0)?;
    let flags = la.cmp(la.on().equal(diag, zero))?;
    la.first_true_1based(flags)
}

/// The per-step pivots (`[*, 1, 1]` int64, 0-based) of LAPACK's 1-based
/// int32 pivots `[*, k]` (a `lu_factor` result given back to a solve).
pub fn lu_from_parts<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    lu: Value<'c, 'a>,
    pivots: Value<'c, 'a>,
    steps: usize,
) -> Result<Lu<'c, 'a>, String> {
    let b = &la.ctx.b;
    let as_i64 = b.cast(pivots, b.i64_type())?;
    let one = b.const_scalar(b.i64_type(), 1.0)?;
    let zero_based = b.onnx().sub(as_i64, one).typed(b.unranked(b.i64_type()))?;
    let mut out = Vec::new();
    for k in 0..steps {
        let p = la.slice(zero_based, -1, k, k + 1)?;
        let axes = b.const_i64s(&[-1])?;
        out.push(b.onnx().unsqueeze(p, axes).typed(b.unranked(b.i64_type()))?);
    }
    Ok(Lu { lu, pivots: out, exchanges: true })
}

/// True when a dim of `x`'s type is statically 0.
pub fn has_zero_dim(x: Value<'_, '_>) -> bool {
    builder::dims(x.r#type()).is_some_and(|d| d.contains(&Some(0)))
}

/// `linalg.lu_solve`: `X` with `M X = B` (`left`, `M^T X = B` when
/// `adjoint`) or `X M = B` / `X M^T = B`, `M = P L U` given by `f` (`[*, n, n]`
/// of rank `rank`), `b` a matrix `[*, n, k]` (`[*, k, n]` when not `left`).
pub fn lu_solve_sided<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    f: &Lu<'c, 'a>,
    b: Value<'c, 'a>,
    n: usize,
    rank: usize,
    b_rank: usize,
    left: bool,
    adjoint: bool,
) -> Result<Value<'c, 'a>, String> {
    if has_zero_dim(b) || has_zero_dim(f.lu) {
        // Nothing to solve: X has B's shape over the broadcast batch.
        return la.expand_batch(b, f.lu);
    }
    if left {
        return lu_solve(la, f, b, n, rank, adjoint);
    }
    // X M = B  <=>  M^T X^T = B^T.
    let bt = la.transpose(b, b_rank)?;
    let xt = lu_solve(la, f, bt, n, rank, !adjoint)?;
    let out_rank = b_rank.max(rank);
    la.transpose(xt, out_rank)
}

/// torch's `linalg.solve(A, B, left)` rhs kinds: `B` is a batch of vectors
/// when `B.ndim == 1` or `B.shape == A.shape[:-1]`.
pub fn is_vector_rhs(a: Value<'_, '_>, b: Value<'_, '_>) -> Result<bool, String> {
    let (ad, bd) = (
        builder::dims(a.r#type()).ok_or("A has an unknown rank")?,
        builder::dims(b.r#type()).ok_or("B has an unknown rank")?,
    );
    if bd.len() == 1 {
        return Ok(true);
    }
    if bd.len() + 1 != ad.len() {
        return Ok(false);
    }
    let head = &ad[..ad.len() - 1];
    if head.iter().chain(bd.iter()).any(Option::is_none) {
        if head.iter().zip(&bd).any(|(x, y)| x.is_some() && y.is_some() && x != y) {
            return Ok(false);
        }
        return Err("cannot tell whether B is a batch of vectors or of matrices: its shape has dynamic dims".into());
    }
    Ok(head == bd.as_slice())
}

/// `linalg.solve_ex(A, B, left)` as torch computes it: the LU factorization
/// of `A`, then `linalg.lu_solve(LU, pivots, B, left)`. Returns the solution,
/// the factorization and `A`'s batch rank.
pub fn solve<'c, 'a>(
    la: &La<'_, 'c, 'a>,
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
    left: bool,
) -> Result<(Value<'c, 'a>, Lu<'c, 'a>, usize), String> {
    let (n, batch) = square_dims(a, "A")?;
    let vector = is_vector_rhs(a, b)?;
    let b_rank = builder::rank(b.r#type()).ok_or("B has an unknown rank")?;
    let (bm, bm_rank) = if vector {
        let axis = if left { -1 } else { -2 };
        (la.ctx.unsqueeze(b, &[axis])?, b_rank + 1)
    } else {
        (b, b_rank)
    };
    let f = lu(la, a, n, n, true)?;
    let x = if has_zero_dim(a) {
        la.expand_batch(bm, a)?
    } else {
        lu_solve_sided(la, &f, bm, n, batch + 2, bm_rank, left, false)?
    };
    let x = if vector { la.ctx.squeeze(x, &[if left { -1 } else { -2 }])? } else { x };
    Ok((x, f, batch))
}
