//! LDL^T factorization with Bunch-Kaufman diagonal pivoting and its solve,
//! unrolled over a static matrix size like the LU family (linalg_common.rs).
//!
//! torch's CPU `linalg.ldl_factor(_ex)` copies the lower triangle of `A` and
//! calls LAPACK `sytrf` with `uplo = 'L'` (`hermitian` changes nothing for
//! real input); for the sizes unrolled here (n <= 16, below LAPACK's block
//! size) that is the unblocked `sytf2`, step `k` (0-based):
//!
//! - `absakk = |a_kk|`, `colmax` the largest `|a_ik|` below the diagonal and
//!   `imax` its first row; `alpha = (1 + sqrt(17)) / 8` in the working
//!   precision.
//! - `max(absakk, colmax) == 0` (or `a_kk` NaN): `info` = first such `k + 1`,
//!   no pivoting, no update.
//! - else a 1x1 pivot on `k` when `absakk >= alpha colmax` or `absakk >=
//!   alpha colmax (colmax / rowmax)` (`rowmax` the largest off-diagonal
//!   `|a_{imax,j}|`, `j >= k`, of the trailing symmetric matrix); a 1x1 pivot
//!   on `imax` (rows and columns `k`, `imax` of the trailing block
//!   interchanged) when `|a_{imax,imax}| >= alpha rowmax`; else a 2x2 pivot
//!   on `k, k+1` after interchanging `k+1` and `imax`.
//! - the trailing block gets LAPACK's rank-1 (`syr`, then the column scaled
//!   by `1 / d`) or rank-2 update, in LAPACK's order of operations. Columns
//!   left of `k` (earlier columns of L) are never permuted.
//!
//! Pivots are 1-based int32: `kp + 1` for a 1x1 pivot, `-(kp + 1)` on both
//! rows of a 2x2 one. The upper triangle of `LD` is 0 (torch's `tril`).
//! Whether a position starts a 2x2 block depends on the values, so the
//! graph keeps a per-matrix "second row of a 2x2 block" flag and computes
//! every step's alternatives, selected with `Where`. The pivots are
//! LAPACK's choices wherever the comparisons above come out the same in
//! onnxruntime (same IEEE operations in the same order; only exact near-ties
//! rounded differently, e.g. by an FMA inside MKL, could choose otherwise).
//! MKL's `sytrf` (torch 2.13's pip wheel) follows reference `sytf2` here: the
//! converted graphs matched eager torch on 43,000 random matrices, n = 1..16,
//! f32 and f64, batched (scaled over 7 decades, integer valued with ties,
//! tiny diagonals forcing 2x2 blocks, sparse, rank-1 with zero columns and
//! `info` > 0): identical pivots and `info`, LD and the solves within
//! rounding. NaN inputs are not covered: MKL's `sytrf` departs from
//! reference LAPACK there (its pivots on a NaN match neither `sytf2`
//! variant), so a NaN in `A` can give other pivots than torch's.
//!
//! `ldl_solve` is LAPACK `sytrs` (`uplo = 'L'`): forward over `k` (swap,
//! eliminate with column `k` of L, divide by the 1x1 or 2x2 block of D),
//! then backward (subtract column `k` of L times the solved rows, swap). The
//! block structure is read from the signs of the given pivots at run time.

use super::linalg_common::{self as lc, La};
use crate::{builder, Ctx};
use melior::ir::{
    attribute::IntegerAttribute,
    r#type::{IntegerType, RankedTensorType},
    Attribute, Type, Value, ValueLike,
};

/// `(LD, pivots, info)` of the tensor argument `name` (`[*, n, n]`).
pub fn factor<'c, 'a>(c: &Ctx<'c, 'a>, name: &str) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
    // hermitian: sytrf or hetrf, the same on real matrices.
    c.args.bool("hermitian")?;
    let a = c.args.tensor(name)?;
    let element = real_element(c, a, name)?;
    let (n, batch) = lc::square_dims(a, name)?;
    let la = La::new(c, element);
    if n == 0 || lc::has_zero_dim(a) {
        // Nothing to factor: LD is the (empty) input, pivots [*, n] and info
        // [*] are zeros of the batch shape.
        let pivots = zeros_i32(c, a, Some(n))?;
        let info = lc::info_from_flags(&la, None, a)?;
        return Ok((a, pivots, info));
    }
    let g = Graph::new(&la, n, batch)?;
    g.factor(a)
}

/// `X` with `A X = B` from `A`'s `(LD, pivots)` (LAPACK `sytrs`).
pub fn solve<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    c.args.bool("hermitian")?;
    let ld = c.args.tensor("LD")?;
    let pivots = c.args.tensor("pivots")?;
    let b = c.args.tensor("B")?;
    let element = real_element(c, ld, "LD")?;
    let (n, batch) = lc::square_dims(ld, "LD")?;
    let (rows, _, _) = lc::matrix_dims(b, "B")?;
    if rows != n {
        return Err(format!("B has {rows} rows, LD is {n}x{n}"));
    }
    check_solve_batch(c, ld, batch)?;
    let la = La::new(c, element);
    let b = c.b.cast_like_type(b, element)?;
    if lc::has_zero_dim(b) || lc::has_zero_dim(ld) {
        // Nothing to solve: X has B's shape over the broadcast batch.
        return la.expand_batch(b, ld);
    }
    let g = Graph::new(&la, n, batch)?;
    g.solve(ld, pivots, b)
}

/// float32 / float64 (torch's CPU kernels have no other real dtype).
fn real_element<'c>(c: &Ctx<'c, '_>, x: Value<'c, '_>, what: &str) -> Result<Type<'c>, String> {
    let element = lc::float_element(x, what)?;
    if element != Type::float32(c.b.context) && element != Type::float64(c.b.context) {
        return Err(format!("{what} is {element}: torch's LDL kernels take float32 and float64 only"));
    }
    Ok(element)
}

/// torch's CPU `ldl_solve` kernel walks the batch of the (broadcast) result
/// and reads the `i`-th LD matrix for the `i`-th right-hand side: LD is not
/// broadcast. That is the broadcast result when LD has no batch dims or its
/// batch dims are the result's; otherwise torch reads past LD (undefined
/// values or a crash), which is refused.
fn check_solve_batch(c: &Ctx<'_, '_>, ld: Value<'_, '_>, batch: usize) -> Result<(), String> {
    if batch == 0 {
        return Ok(());
    }
    let ld_dims = builder::dims(ld.r#type()).ok_or("LD has an unknown rank")?;
    let out_dims = builder::dims(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    let ld_batch = &ld_dims[..batch];
    let out_batch = &out_dims[..out_dims.len().saturating_sub(2)];
    let same = ld_batch.len() == out_batch.len()
        && ld_batch.iter().zip(out_batch).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => x == y,
            _ => true,
        });
    if !same {
        return Err(format!(
            "LD's batch dims {} differ from the broadcast batch {} of the result: torch's CPU kernel pairs the i-th \
             right-hand side with the i-th LD matrix without broadcasting LD (it reads past LD); broadcast LD to B's \
             batch first",
            show(ld_batch),
            show(out_batch)
        ));
    }
    Ok(())
}

fn show(dims: &[Option<i64>]) -> String {
    let items: Vec<String> = dims.iter().map(|d| d.map_or("?".to_string(), |d| d.to_string())).collect();
    format!("[{}]", items.join(", "))
}

/// Zeros int32 of shape `x.shape[:-2]` (+ `[last]`).
fn zeros_i32<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>, last: Option<usize>) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let i32_t: Type = IntegerType::new(b.context, 32).into();
    let i64_u = b.unranked(b.i64_type());
    let mut shape = b.onnx().shape(x, Some(-2), None).typed(i64_u)?;
    if let Some(last) = last {
        let tail = b.const_i64s(&[last as i64])?;
        shape = b.onnx().concat(&[shape, tail], 0).typed(i64_u)?;
    }
    let fill = b.const_scalar(i32_t, 0.0)?;
    b.onnx().expand(fill, shape).typed(b.unranked(i32_t))
}

/// Op builders for one matrix size.
struct Graph<'x, 'c, 'a> {
    la: &'x La<'x, 'c, 'a>,
    n: usize,
    /// Batch rank of the operand matrices.
    batch: usize,
    /// `[n, 1]` int64 row numbers, `[1, n]` column numbers.
    rows: Value<'c, 'a>,
    cols: Value<'c, 'a>,
    zero: Value<'c, 'a>,
    one: Value<'c, 'a>,
}

impl<'x, 'c, 'a> Graph<'x, 'c, 'a> {
    fn new(la: &'x La<'x, 'c, 'a>, n: usize, batch: usize) -> Result<Self, String> {
        let b = &la.ctx.b;
        let i64_t = b.i64_type();
        let ty = RankedTensorType::new(&[1, n as u64], i64_t, None).into();
        let elements: Vec<Attribute> = (0..n).map(|k| IntegerAttribute::new(i64_t, k as i64).into()).collect();
        let cols = b.constant(ty, &elements)?;
        Ok(Graph { la, n, batch, rows: la.row_numbers(n)?, cols, zero: la.scalar(0.0)?, one: la.scalar(1.0)? })
    }

    fn on(&self) -> crate::onnx_ops::Ops<'_, 'c, 'a> {
        self.la.on()
    }

    fn f(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        self.la.f(node)
    }

    fn cmp(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        self.la.cmp(node)
    }

    fn int(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        let b = &self.la.ctx.b;
        node.typed(b.unranked(b.i64_type()))
    }

    fn int_const(&self, v: i64) -> Result<Value<'c, 'a>, String> {
        self.la.ctx.b.const_scalar(self.la.ctx.b.i64_type(), v as f64)
    }

    fn not(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        self.cmp(self.on().not(x))
    }

    fn and(&self, x: Value<'c, '_>, y: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        self.cmp(self.on().and(x, y))
    }

    fn or(&self, x: Value<'c, '_>, y: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        self.cmp(self.on().or(x, y))
    }

    /// `cond` AND NOT `flag` (`cond` alone when there is no flag).
    fn and_not(&self, cond: Value<'c, 'a>, flag: Option<Value<'c, 'a>>) -> Result<Value<'c, 'a>, String> {
        match flag {
            Some(f) => {
                let nf = self.not(f)?;
                self.and(cond, nf)
            }
            None => Ok(cond),
        }
    }

    fn transpose(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        self.la.transpose(x, self.batch + 2)
    }

    /// A constant bool `[n, n]` mask.
    fn mask(&self, f: impl Fn(usize, usize) -> bool) -> Result<Value<'c, 'a>, String> {
        self.la.mask(self.n, self.n, f)
    }

    /// A constant bool `[n, 1]` mask of rows.
    fn row_mask(&self, f: impl Fn(usize) -> bool) -> Result<Value<'c, 'a>, String> {
        self.la.mask(self.n, 1, |i, _| f(i))
    }

    /// Rows of `x` (`[*, n, m]`) gathered by `idx` (`[*, n, 1]`).
    fn gather_rows(&self, x: Value<'c, 'a>, idx: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let b = &self.la.ctx.b;
        let shape = b.shape(x)?;
        let idx = b.onnx().expand(idx, shape).typed(b.unranked(b.i64_type()))?;
        b.onnx().gather_elements(x, idx, Some(-2)).typed(b.unranked(self.la.element))
    }

    /// Columns of `x` (`[*, m, n]`) gathered by `idx` (`[*, 1, n]`).
    fn gather_cols(&self, x: Value<'c, 'a>, idx: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let b = &self.la.ctx.b;
        let shape = b.shape(x)?;
        let idx = b.onnx().expand(idx, shape).typed(b.unranked(b.i64_type()))?;
        b.onnx().gather_elements(x, idx, Some(-1)).typed(b.unranked(self.la.element))
    }

    /// The index vector `[*, n, 1]` exchanging rows `r` and `p` (`[*, 1, 1]`
    /// or constants; the identity when they are equal).
    fn exchange(&self, r: Value<'c, 'a>, p: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let is_r = self.cmp(self.on().equal(self.rows, r))?;
        let is_p = self.cmp(self.on().equal(self.rows, p))?;
        let inner = self.la.where_(is_p, r, self.rows)?;
        self.la.where_(is_r, p, inner)
    }

    /// `Where(lower, x, x^T)`: the symmetric matrix whose lower triangle `x` holds.
    fn symmetric(&self, x: Value<'c, 'a>, lower: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let xt = self.transpose(x)?;
        self.la.where_(lower, x, xt)
    }

    /// `sytf2` with `uplo = 'L'` on `a` (`[*, n, n]`, n >= 1, no empty dim).
    fn factor(&self, a: Value<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>), String> {
        let (la, n) = (self.la, self.n);
        let b = &la.ctx.b;
        let alpha = la.scalar(if la.element == Type::float32(b.context) {
            // LAPACK's ALPHA computed in single precision.
            ((1.0f32 + 17.0f32.sqrt()) / 8.0f32) as f64
        } else {
            (1.0f64 + 17.0f64.sqrt()) / 8.0f64
        })?;
        let lower = self.mask(|i, j| i >= j)?;
        // torch factors tril(A): the upper triangle of LD stays 0.
        let mut x = la.where_(lower, a, self.zero)?;
        // Per matrix: step k is the second row of a 2x2 block (no bool at k = 0).
        let mut skip: Option<Value<'c, 'a>> = None;
        let mut pivots: Vec<Value<'c, 'a>> = Vec::new();
        let mut flags: Vec<Value<'c, 'a>> = Vec::new();
        for k in 0..n {
            let akk = la.entry(x, k, k)?;
            let absakk = self.f(self.on().abs(akk))?;
            let nan = self.cmp(self.on().is_na_n(akk))?;
            let kc = self.int_const(k as i64)?;
            let sym = if k + 1 < n { Some(self.symmetric(x, lower)?) } else { None };
            // (zero column, pivot row kp, 2x2 block) of this step, where
            // the step is not the second row of a 2x2 block.
            let (is_zero, kp, two) = if k + 1 < n {
                let col = la.slice(x, -1, k, k + 1)?;
                let cand = la.slice(col, -2, k + 1, n)?;
                let acand = self.f(self.on().abs(cand))?;
                let arg = b.onnx().arg_max(acand, Some(-2), Some(1), None).typed(b.unranked(b.i64_type()))?;
                let k1 = self.int_const(k as i64 + 1)?;
                let imax = self.int(self.on().add(arg, k1))?;
                let colmax = la.ctx.reduce(crate::Reduction::Max, acand, Some(&[-2]), true, b.unranked(la.element))?;
                // Row imax of the trailing symmetric matrix, columns >= k.
                let sym = sym.ok_or("no symmetric matrix")?;
                let width = b.const_i64s(&[1, n as i64])?;
                let row_idx = b.onnx().expand(imax, width).typed(b.unranked(b.i64_type()))?;
                let row =
                    b.onnx().gather_elements(sym, row_idx, Some(-2)).typed(b.unranked(la.element))?;
                let arow = self.f(self.on().abs(row))?;
                let from_k = la.mask(1, n, |_, j| j >= k)?;
                let is_imax = self.cmp(self.on().equal(self.cols, imax))?;
                let keep = self.and_not(from_k, Some(is_imax))?;
                let off = la.where_(keep, arow, self.zero)?;
                let rowmax = la.ctx.reduce(crate::Reduction::Max, off, Some(&[-1]), true, b.unranked(la.element))?;
                let aimax =
                    b.onnx().gather_elements(arow, imax, Some(-1)).typed(b.unranked(la.element))?;
                let biggest = self.f(self.on().max(&[absakk, colmax]))?;
                let zero_col = self.cmp(self.on().equal(biggest, self.zero))?;
                let is_zero = self.or(zero_col, nan)?;
                let acol = self.f(self.on().mul(alpha, colmax))?;
                let c1 = self.cmp(self.on().greater_or_equal(absakk, acol))?;
                let ratio = self.f(self.on().div(colmax, rowmax))?;
                let bound = self.f(self.on().mul(acol, ratio))?;
                let c2 = self.cmp(self.on().greater_or_equal(absakk, bound))?;
                let arowmax = self.f(self.on().mul(alpha, rowmax))?;
                let c3 = self.cmp(self.on().greater_or_equal(aimax, arowmax))?;
                let c12 = self.or(c1, c2)?;
                let stay = self.or(is_zero, c12)?;
                let kp = la.where_(stay, kc, imax)?;
                let moved = self.not(stay)?;
                let two = self.and_not(moved, Some(c3))?;
                let two = self.and_not(two, skip)?;
                (is_zero, kp, Some(two))
            } else {
                // The last row: colmax = 0, a 1x1 pivot on itself.
                let zero_col = self.cmp(self.on().equal(absakk, self.zero))?;
                (self.or(zero_col, nan)?, kc, None)
            };
            // A second row of a 2x2 block is left as it is.
            let kp = match skip {
                Some(s) => la.where_(s, kc, kp)?,
                None => kp,
            };
            flags.push(self.and_not(is_zero, skip)?);
            // Exchange rows and columns kk and kp of the trailing block.
            let x1 = if k + 1 < n {
                let kk = match two {
                    Some(t) => {
                        let k1 = self.int_const(k as i64 + 1)?;
                        la.where_(t, k1, kc)?
                    }
                    None => kc,
                };
                let idx = self.exchange(kk, kp)?;
                let sym = sym.ok_or("no symmetric matrix")?;
                let swapped = self.gather_rows(sym, idx)?;
                let idx_t = self.transpose(idx)?;
                let swapped = self.gather_cols(swapped, idx_t)?;
                let trailing = self.mask(|i, j| i >= j && j >= k)?;
                la.where_(trailing, swapped, x)?
            } else {
                x
            };
            // 1x1 pivot: rank-1 update (syr), then the column times 1 / d.
            let one_step = if k + 1 < n {
                let d = la.entry(x1, k, k)?;
                let d11 = self.f(self.on().div(self.one, d))?;
                let col = la.slice(x1, -1, k, k + 1)?;
                let col_t = self.transpose(col)?;
                let t = self.f(self.on().mul(d11, col_t))?;
                let prod = self.f(self.on().mul(col, t))?;
                let updated = self.f(self.on().sub(x1, prod))?;
                let scaled = self.f(self.on().mul(col, d11))?;
                let trailing = self.mask(|i, j| i >= j && j > k)?;
                let below = self.mask(|i, j| i > k && j == k)?;
                let keep = la.where_(below, scaled, x1)?;
                Some(la.where_(trailing, updated, keep)?)
            } else {
                None
            };
            // 2x2 pivot: rank-2 update with LAPACK's scaled inverse of D.
            let two_step = match two {
                Some(_) if k + 2 < n => {
                    let d21 = la.entry(x1, k + 1, k)?;
                    let a11 = la.entry(x1, k + 1, k + 1)?;
                    let a00 = la.entry(x1, k, k)?;
                    let e11 = self.f(self.on().div(a11, d21))?;
                    let e22 = self.f(self.on().div(a00, d21))?;
                    let prod = self.f(self.on().mul(e11, e22))?;
                    let den = self.f(self.on().sub(prod, self.one))?;
                    let t = self.f(self.on().div(self.one, den))?;
                    let d21 = self.f(self.on().div(t, d21))?;
                    let w0 = la.slice(x1, -1, k, k + 1)?;
                    let w1 = la.slice(x1, -1, k + 1, k + 2)?;
                    let p0 = self.f(self.on().mul(e11, w0))?;
                    let s0 = self.f(self.on().sub(p0, w1))?;
                    let wk = self.f(self.on().mul(d21, s0))?;
                    let p1 = self.f(self.on().mul(e22, w1))?;
                    let s1 = self.f(self.on().sub(p1, w0))?;
                    let wk1 = self.f(self.on().mul(d21, s1))?;
                    let wk_t = self.transpose(wk)?;
                    let wk1_t = self.transpose(wk1)?;
                    let u0 = self.f(self.on().mul(w0, wk_t))?;
                    let u1 = self.f(self.on().mul(w1, wk1_t))?;
                    let r0 = self.f(self.on().sub(x1, u0))?;
                    let updated = self.f(self.on().sub(r0, u1))?;
                    let trailing = self.mask(|i, j| i >= j && j > k + 1)?;
                    let c0 = self.mask(|i, j| i > k + 1 && j == k)?;
                    let c1 = self.mask(|i, j| i > k + 1 && j == k + 1)?;
                    let keep = la.where_(c1, wk1, x1)?;
                    let keep = la.where_(c0, wk, keep)?;
                    Some(la.where_(trailing, updated, keep)?)
                }
                _ => None,
            };
            // Select this step's result.
            let not_zero = self.not(is_zero)?;
            let mut next = x1;
            if let (Some(t), Some(two_x)) = (two, two_step) {
                next = la.where_(t, two_x, next)?;
            }
            if let Some(one_x) = one_step {
                let do_one = self.and_not(not_zero, two)?;
                let do_one = self.and_not(do_one, skip)?;
                next = la.where_(do_one, one_x, next)?;
            }
            x = next;
            // Pivot: kp + 1, or -(kp + 1) on both rows of a 2x2 block.
            let one_i = self.int_const(1)?;
            let kp1 = self.int(self.on().add(kp, one_i))?;
            let mut piv = match two {
                Some(t) => {
                    let neg = self.int(self.on().neg(kp1))?;
                    la.where_(t, neg, kp1)?
                }
                None => kp1,
            };
            if let (Some(s), Some(prev)) = (skip, pivots.last()) {
                piv = la.where_(s, *prev, piv)?;
            }
            pivots.push(piv);
            skip = two;
        }
        let pivots = self.pivots_i32(&pivots, a)?;
        let all =
            b.onnx().concat(&flags, -1).typed(b.unranked(IntegerType::new(b.context, 1).into()))?;
        let axes = b.const_i64s(&[self.batch as i64])?;
        let flags = b.onnx().squeeze(all, Some(axes)).typed(b.unranked(IntegerType::new(b.context, 1).into()))?;
        let info = la.first_true_1based(flags)?;
        Ok((x, pivots, info))
    }

    /// The per-step pivots (`[*, 1, 1]` int64 or constants) as int32 `[*, n]`.
    fn pivots_i32(&self, pivots: &[Value<'c, 'a>], like: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let b = &self.la.ctx.b;
        let i64_u = b.unranked(b.i64_type());
        let shape = b.onnx().shape(like, Some(-2), None).typed(i64_u)?;
        let ones = b.const_i64s(&[1, 1])?;
        let batch_ones = b.onnx().concat(&[shape, ones], 0).typed(i64_u)?;
        let mut parts = Vec::new();
        for p in pivots {
            parts.push(b.onnx().expand(*p, batch_ones).typed(i64_u)?);
        }
        let all = b.onnx().concat(&parts, -1).typed(i64_u)?;
        let axes = b.const_i64s(&[self.batch as i64])?;
        let squeezed = b.onnx().squeeze(all, Some(axes)).typed(i64_u)?;
        b.cast(squeezed, IntegerType::new(b.context, 32).into())
    }

    /// `sytrs` with `uplo = 'L'`: `ld` `[*, n, n]`, `pivots` `[*, n]` (any
    /// integer type), `rhs` `[*, n, m]` (batch broadcast with LD's).
    fn solve(&self, ld: Value<'c, 'a>, pivots: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let (la, n) = (self.la, self.n);
        let b = &la.ctx.b;
        let mut x = la.expand_batch(rhs, ld)?;
        let p = b.cast(pivots, b.i64_type())?;
        let p = la.ctx.unsqueeze(p, &[-2])?; // [*, 1, n]
        let zero_i = self.int_const(0)?;
        let one_i = self.int_const(1)?;
        let last_i = self.int_const(n as i64 - 1)?;
        // Block structure: starts[k] (a 2x2 block on k, k+1) and seconds[k]
        // (the second row of one), from the signs of the pivots.
        let mut starts: Vec<Option<Value<'c, 'a>>> = Vec::new();
        let mut seconds: Vec<Option<Value<'c, 'a>>> = Vec::new();
        // The exchange of each step: rows r (k, or k + 1 on a 2x2 block) and kp.
        let mut exchanges = Vec::new();
        for k in 0..n {
            let pk = la.slice(p, -1, k, k + 1)?;
            let second = if k > 0 { starts[k - 1] } else { None };
            let start = if k + 1 < n {
                let neg = self.cmp(self.on().less(pk, zero_i))?;
                Some(self.and_not(neg, second)?)
            } else {
                None
            };
            let kc = self.int_const(k as i64)?;
            let r = match start {
                Some(s) => {
                    let k1 = self.int_const(k as i64 + 1)?;
                    la.where_(s, k1, kc)?
                }
                None => kc,
            };
            let abs = self.int(self.on().abs(pk))?;
            let kp = self.int(self.on().sub(abs, one_i))?;
            // Rows outside 0..n (pivots not from ldl_factor) are clamped.
            let kp = self.int(self.on().max(&[kp, zero_i]))?;
            let kp = self.int(self.on().min(&[kp, last_i]))?;
            let kp = match second {
                Some(s) => la.where_(s, kc, kp)?,
                None => kp,
            };
            exchanges.push(self.exchange(r, kp)?);
            starts.push(start);
            seconds.push(second);
        }
        // Rows eliminated with column k of L: i > k, but not k + 1 when k
        // starts a 2x2 block (there L[k+1, k] is D's off-diagonal entry).
        let elimination = |k: usize| -> Result<Value<'c, 'a>, String> {
            let below = self.row_mask(|i| i > k)?;
            match starts[k] {
                Some(s) => {
                    let next = self.row_mask(|i| i == k + 1)?;
                    let skip = self.and(next, s)?;
                    self.and_not(below, Some(skip))
                }
                None => Ok(below),
            }
        };
        // L D Y = P^T B.
        for k in 0..n {
            x = self.gather_rows(x, exchanges[k])?;
            let xk = la.slice(x, -2, k, k + 1)?;
            if k + 1 < n {
                let lcol = la.slice(ld, -1, k, k + 1)?;
                let prod = self.f(self.on().mul(lcol, xk))?;
                let updated = self.f(self.on().sub(x, prod))?;
                x = la.where_(elimination(k)?, updated, x)?;
            }
            // 1x1 block: times 1 / d (scal).
            let d = la.entry(ld, k, k)?;
            let recip = self.f(self.on().div(self.one, d))?;
            let mut new_k = self.f(self.on().mul(xk, recip))?;
            if let Some(s) = starts[k] {
                new_k = la.where_(s, xk, new_k)?;
            }
            if let Some(s) = seconds[k] {
                // The 2x2 block on k - 1, k, as sytrs scales it.
                let akm1k = la.entry(ld, k, k - 1)?;
                let akm1_d = la.entry(ld, k - 1, k - 1)?;
                let akm1 = self.f(self.on().div(akm1_d, akm1k))?;
                let ak = self.f(self.on().div(d, akm1k))?;
                let prod = self.f(self.on().mul(akm1, ak))?;
                let den = self.f(self.on().sub(prod, self.one))?;
                let xkm1 = la.slice(x, -2, k - 1, k)?;
                let bkm1 = self.f(self.on().div(xkm1, akm1k))?;
                let bk = self.f(self.on().div(xk, akm1k))?;
                let t0 = self.f(self.on().mul(ak, bkm1))?;
                let t0 = self.f(self.on().sub(t0, bk))?;
                let new_km1 = self.f(self.on().div(t0, den))?;
                let t1 = self.f(self.on().mul(akm1, bk))?;
                let t1 = self.f(self.on().sub(t1, bkm1))?;
                let solved_k = self.f(self.on().div(t1, den))?;
                new_k = la.where_(s, solved_k, new_k)?;
                let new_km1 = la.where_(s, new_km1, xkm1)?;
                let row = self.row_mask(|i| i + 1 == k)?;
                x = la.where_(row, new_km1, x)?;
            }
            let row = self.row_mask(|i| i == k)?;
            x = la.where_(row, new_k, x)?;
        }
        // L^T P^T X = Y, backward.
        for k in (0..n).rev() {
            if k + 1 < n {
                let lcol = la.slice(ld, -1, k, k + 1)?;
                let prod = self.f(self.on().mul(lcol, x))?;
                let terms = la.where_(elimination(k)?, prod, self.zero)?;
                let sum = la.ctx.reduce(crate::Reduction::Sum, terms, Some(&[-2]), true, b.unranked(la.element))?;
                let updated = self.f(self.on().sub(x, sum))?;
                let row = self.row_mask(|i| i == k)?;
                x = la.where_(row, updated, x)?;
            }
            x = self.gather_rows(x, exchanges[k])?;
        }
        Ok(x)
    }
}
