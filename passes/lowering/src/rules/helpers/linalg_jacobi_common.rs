//! Singular values and symmetric eigenvalues by Jacobi rotations in an ONNX
//! `Loop`, shared by the svdvals / svd (values only) / eigvalsh / pinv /
//! matrix_rank / cond / spectral and nuclear norm rules. Not a rule file.
//!
//! ONNX has no SVD or eigen-solver, but the results these ops return are
//! unique (singular values, eigenvalues of a symmetric matrix, and what is
//! computed from them: the pseudo-inverse, the rank, norms and condition
//! numbers), so any accurate algorithm gives torch's numbers up to rounding.
//! Singular and eigen-VECTORS are not unique (signs, bases of repeated
//! values): the rules refuse them whenever they are used.
//!
//! - Singular values: one-sided Jacobi (Hestenes) on `A` (or `A^T` when `A`
//!   is wide, so the `k = min(m, n)` columns are orthogonalized): pairs of
//!   columns `(p, q)` are rotated until orthogonal; the singular values are
//!   the final column norms, `W = A V` with `V` the accumulated rotations
//!   gives `U = W / sigma`. `A^T A` is never formed (it would square the
//!   condition number and make tiny singular values noise).
//! - Symmetric eigenvalues: two-sided cyclic Jacobi `A <- J^T A J`; the
//!   eigenvalues are the final diagonal.
//!
//! Both are vectorized with the round-robin (tournament) ordering: the `k`
//! columns (padded with a zero column to an even `np`) form `np / 2`
//! disjoint pairs in each of `np - 1` rounds, so one `Loop` iteration
//! applies `np / 2` rotations at once (Gather the `p` and `q` columns, rotate,
//! Gather back with the inverse permutation). The pair tables are constants
//! built at conversion time from the static matrix size (dynamic matrix
//! sizes are refused). A rotation is skipped when the pair is already
//! orthogonal to working precision; the `Loop` condition stops at the end of
//! a sweep (`np - 1` rounds) in which no pair was more than `tol` off, with a
//! cap of [`MAX_SWEEPS`] sweeps. Everything runs in float64 (cast in, cast
//! out), on the matrix scaled by its largest magnitude (so squares neither
//! overflow nor underflow), batched over any leading dims.
//!
//! torch raises on non-finite inputs (LAPACK reports them); these lowerings
//! then return NaN or inf.

use crate::{builder, builder::Builder, Ctx};
use melior::ir::operation::OperationLike;
use melior::ir::{
    attribute::IntegerAttribute,
    r#type::{IntegerType, RankedTensorType},
    Attribute, Type, Value, ValueLike,
};

use super::polynomial_common::build_loop_while;

/// Sweep cap of the Jacobi loops (quadratic convergence: a handful of
/// sweeps is the usual).
pub const MAX_SWEEPS: i64 = 40;

/// Largest matrix size (the smaller side for SVDs) the rules accept: the
/// graph does not grow with the size, but every sweep costs `O(n^3)`.
pub const MAX_N: usize = 256;

/// float64 machine epsilon.
const EPS64: f64 = f64::EPSILON;

/// Op helpers over a builder (the rule's, or a loop body's).
#[derive(Clone, Copy)]
pub struct Ops<'x, 'c, 'a> {
    pub b: &'x Builder<'c, 'a>,
}

impl<'x, 'c, 'a> Ops<'x, 'c, 'a> {
    pub fn f64t(&self) -> Type<'c> {
        Type::float64(self.b.context)
    }
    fn booln(&self) -> Type<'c> {
        IntegerType::new(self.b.context, 1).into()
    }
    /// The typed ops of the builder (`o.f(o.on().mul(a, b))`).
    pub fn on(&self) -> crate::onnx_ops::Ops<'_, 'c, 'a> {
        self.b.onnx()
    }
    /// An f64 op.
    pub fn f(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.b.unranked(self.f64t()))
    }
    /// An int64 op.
    pub fn i(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.b.unranked(self.b.i64_type()))
    }
    /// A bool op.
    pub fn bo(&self, node: crate::onnx_ops::Node<'_, 'c, 'a, '_>) -> Result<Value<'c, 'a>, String> {
        node.typed(self.b.unranked(self.booln()))
    }
    pub fn k(&self, v: f64) -> Result<Value<'c, 'a>, String> {
        self.b.const_scalar(self.f64t(), v)
    }
    pub fn where_(&self, c: Value<'c, '_>, x: Value<'c, '_>, y: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let e = builder::element_type(x.r#type()).ok_or("Where of a non-tensor")?;
        self.b.onnx().where_(c, x, y).typed(self.b.unranked(e))
    }
    /// Gather along `axis` (element type kept).
    pub fn gather(&self, x: Value<'c, '_>, idx: Value<'c, '_>, axis: i64) -> Result<Value<'c, 'a>, String> {
        let e = builder::element_type(x.r#type()).ok_or("Gather of a non-tensor")?;
        self.b.onnx().gather(x, idx, Some(axis)).typed(self.b.unranked(e))
    }
    pub fn concat(&self, xs: &[Value<'c, '_>], axis: i64) -> Result<Value<'c, 'a>, String> {
        let e = builder::element_type(xs[0].r#type()).ok_or("Concat of a non-tensor")?;
        self.b.onnx().concat(xs, axis).typed(self.b.unranked(e))
    }
    /// The result type of a reduction of `x` (its element type).
    fn reduced_type(&self, x: Value<'c, '_>) -> Result<Type<'c>, String> {
        Ok(self.b.unranked(builder::element_type(x.r#type()).ok_or("reduction of a non-tensor")?))
    }
    /// `ReduceSum` over `axes` (`None`: all), axes an input (opset 13).
    pub fn reduce_sum(&self, x: Value<'c, '_>, axes: Option<&[i64]>, keep: bool) -> Result<Value<'c, 'a>, String> {
        let ty = self.reduced_type(x)?;
        let axes = axes.map(|axes| self.b.const_i64s(axes)).transpose()?;
        self.b.onnx().reduce_sum(x, axes, Some(keep as i64), None).typed(ty)
    }
    /// The axes of a `ReduceMax` / `ReduceMin`: an input from opset 18, an
    /// attribute before.
    fn extremum_axes<'s>(&self, axes: Option<&'s [i64]>) -> Result<(Option<Value<'c, 'a>>, Option<&'s [i64]>), String> {
        match axes {
            Some(axes) if self.b.opset >= 18 => Ok((Some(self.b.const_i64s(axes)?), None)),
            axes => Ok((None, axes)),
        }
    }
    /// `ReduceMax` over `axes` (`None`: all).
    pub fn reduce_max(&self, x: Value<'c, '_>, axes: Option<&[i64]>, keep: bool) -> Result<Value<'c, 'a>, String> {
        let ty = self.reduced_type(x)?;
        let (input, attr) = self.extremum_axes(axes)?;
        self.b.onnx().reduce_max(x, input, attr, Some(keep as i64), None).typed(ty)
    }
    /// `ReduceMin` over `axes` (`None`: all).
    pub fn reduce_min(&self, x: Value<'c, '_>, axes: Option<&[i64]>, keep: bool) -> Result<Value<'c, 'a>, String> {
        let ty = self.reduced_type(x)?;
        let (input, attr) = self.extremum_axes(axes)?;
        self.b.onnx().reduce_min(x, input, attr, Some(keep as i64), None).typed(ty)
    }
    /// Swaps the last two dims of a rank-`rank` tensor.
    pub fn transpose(&self, x: Value<'c, '_>, rank: usize) -> Result<Value<'c, 'a>, String> {
        let mut perm: Vec<i64> = (0..rank as i64).collect();
        perm.swap(rank - 2, rank - 1);
        let e = builder::element_type(x.r#type()).ok_or("Transpose of a non-tensor")?;
        self.b.onnx().transpose(x, Some(&perm)).typed(self.b.unranked(e))
    }
    /// An int64 constant of shape `dims`.
    pub fn const_i64(&self, dims: &[usize], values: &[i64]) -> Result<Value<'c, 'a>, String> {
        let t = self.b.i64_type();
        let shape: Vec<u64> = dims.iter().map(|d| *d as u64).collect();
        let ty = RankedTensorType::new(&shape, t, None).into();
        let elements: Vec<Attribute> = values.iter().map(|v| IntegerAttribute::new(t, *v).into()).collect();
        self.b.constant(ty, &elements)
    }
    /// The `n x n` identity in f64.
    pub fn eye(&self, n: usize) -> Result<Value<'c, 'a>, String> {
        let t = self.booln();
        let ty = RankedTensorType::new(&[n as u64, n as u64], t, None).into();
        let elements: Vec<Attribute> =
            (0..n * n).map(|k| IntegerAttribute::new(t, (k / n == k % n) as i64).into()).collect();
        let mask = self.b.constant(ty, &elements)?;
        self.b.cast(mask, self.f64t())
    }
    /// A constant bool `[n, n]` mask, `f(i, j)`.
    pub fn mask(&self, n: usize, f: impl Fn(usize, usize) -> bool) -> Result<Value<'c, 'a>, String> {
        let t = self.booln();
        let ty = RankedTensorType::new(&[n as u64, n as u64], t, None).into();
        let elements: Vec<Attribute> =
            (0..n * n).map(|k| IntegerAttribute::new(t, f(k / n, k % n) as i64).into()).collect();
        self.b.constant(ty, &elements)
    }
    /// Pads the last `dims` axes of a rank-`rank` tensor with `extra` zeros
    /// at the end.
    pub fn pad_end(&self, x: Value<'c, '_>, rank: usize, dims: usize, extra: usize) -> Result<Value<'c, 'a>, String> {
        if extra == 0 {
            return self.f(self.on().identity(x));
        }
        let mut pads = vec![0i64; 2 * rank];
        for d in rank - dims..rank {
            pads[rank + d] = extra as i64;
        }
        let pads = self.b.const_i64s(&pads)?;
        self.f(self.on().pad(x, pads, None, None, None))
    }
    /// `shape(x)[:-2] ++ tail` (1-D int64).
    pub fn batch_shape_with(&self, x: Value<'c, '_>, tail: &[i64]) -> Result<Value<'c, 'a>, String> {
        let batch = self.b.onnx().shape(x, Some(-2), None).typed(self.b.unranked(self.b.i64_type()))?;
        let tail = self.b.const_i64s(tail)?;
        self.concat(&[batch, tail], 0)
    }
    /// Sorts the last axis (length `k`): descending or ascending.
    pub fn sort_last(&self, x: Value<'c, '_>, k: usize, descending: bool) -> Result<Value<'c, 'a>, String> {
        if k <= 1 {
            return self.f(self.on().identity(x));
        }
        let kk = self.b.const_i64s(&[k as i64])?;
        let ty = self.b.unranked(self.f64t());
        let ity = self.b.unranked(self.b.i64_type());
        Ok(self.b.onnx().top_k(x, kk, Some(-1), Some(descending as i64), Some(1)).results(&[ty, ity])?.remove(0))
    }
    /// The `n x n` identity for every matrix of the batch of `like` (the
    /// start of an accumulated rotation).
    pub fn batch_eye(&self, like: Value<'c, '_>, n: usize) -> Result<Value<'c, 'a>, String> {
        let eye = if n == 1 { self.k(1.0)? } else { self.eye(n)? };
        self.f(self.on().expand(eye, self.batch_shape_with(like, &[n as i64, n as i64])?))
    }
    /// The leading `k x k` block of the last two dims (an accumulated
    /// rotation of the padded matrix, without the padding).
    pub fn leading_square(&self, x: Value<'c, '_>, k: usize) -> Result<Value<'c, 'a>, String> {
        let s0 = self.b.const_i64s(&[0, 0])?;
        let s1 = self.b.const_i64s(&[k as i64, k as i64])?;
        let ax = self.b.const_i64s(&[-2, -1])?;
        self.f(self.on().slice(x, s0, s1, Some(ax), None))
    }
    /// Per-matrix largest magnitude `[*, 1, 1]`, 1 where it is 0.
    pub fn matrix_scale(&self, a: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let abs = self.f(self.on().abs(a))?;
        let m = self.reduce_max(abs, Some(&[-2, -1]), true)?;
        let pos = self.bo(self.on().greater(m, self.k(0.0)?))?;
        self.where_(pos, m, self.k(1.0)?)
    }
}

/// Static `(rows, cols, batch rank)` of the aten operand `name` (from the
/// op's own operand types, which are ranked even when the lowered value is
/// not).
pub fn operand_dims(c: &Ctx<'_, '_>, name: &str, what: &str) -> Result<(usize, usize, usize), String> {
    let range = c.args.operand_range(name)?.ok_or_else(|| format!("argument '{name}' is not a tensor"))?;
    let ty = *c.aten_operand_types.get(range.start).ok_or("missing operand type")?;
    let lowered = c.args.tensor(name)?;
    let dims = builder::dims(ty).or_else(|| builder::dims(lowered.r#type()));
    let dims = dims.ok_or_else(|| format!("{what} has an unknown rank"))?;
    static_matrix(&dims, what)
}

/// `(rows, cols, batch rank)` of a shape whose last two dims must be static.
pub fn static_matrix(dims: &[Option<i64>], what: &str) -> Result<(usize, usize, usize), String> {
    if dims.len() < 2 {
        return Err(format!("{what} must have at least 2 dimensions, got {}", dims.len()));
    }
    let (Some(r), Some(cc)) = (dims[dims.len() - 2], dims[dims.len() - 1]) else {
        return Err(format!(
            "{what} has a dynamic matrix size: the Jacobi lowering builds its rotation schedule from a matrix size \
             known at conversion time"
        ));
    };
    if (r.min(cc)) as usize > MAX_N {
        return Err(format!("{what} is {r}x{cc}: the Jacobi lowering supports matrices up to min(m, n) = {MAX_N}"));
    }
    Ok((r as usize, cc as usize, dims.len() - 2))
}

/// The round-robin schedule of `np` (even) players: `np - 1` rounds of
/// `np / 2` pairs: `(p table, q table, inverse-permutation table)`.
fn schedule(np: usize) -> (Vec<i64>, Vec<i64>, Vec<i64>) {
    let h = np / 2;
    let mut players: Vec<usize> = (0..np).collect();
    let (mut ps, mut qs, mut invs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..np - 1 {
        let p: Vec<usize> = (0..h).map(|i| players[i]).collect();
        let q: Vec<usize> = (0..h).map(|i| players[np - 1 - i]).collect();
        let perm: Vec<usize> = p.iter().chain(q.iter()).copied().collect();
        let mut inv = vec![0i64; np];
        for (x, &col) in perm.iter().enumerate() {
            inv[col] = x as i64;
        }
        ps.extend(p.iter().map(|v| *v as i64));
        qs.extend(q.iter().map(|v| *v as i64));
        invs.extend(inv);
        // Keep player 0, rotate the others.
        let last = players.pop().unwrap_or(0);
        players.insert(1, last);
    }
    (ps, qs, invs)
}

/// `t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2))`, `c = 1 / sqrt(1 + t^2)`,
/// `s = c t`, with `zeta = (y - x) / (2 g)`: the rotation making the pair
/// orthogonal; identity (c = 1, s = 0) where `rotate` is false.
fn rotation<'c, 'a>(
    o: Ops<'_, 'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    g: Value<'c, 'a>,
    rotate: Value<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let one = o.k(1.0)?;
    let g_safe = o.where_(rotate, g, one)?;
    let zeta = o.f(o.on().div(o.f(o.on().sub(y, x))?, o.f(o.on().add(g_safe, g_safe))?))?;
    let nonneg = o.bo(o.on().greater_or_equal(zeta, o.k(0.0)?))?;
    let sign = o.where_(nonneg, one, o.k(-1.0)?)?;
    let root = o.f(o.on().sqrt(o.f(o.on().add(one, o.f(o.on().mul(zeta, zeta))?))?))?;
    let t = o.f(o.on().div(sign, o.f(o.on().add(o.f(o.on().abs(zeta))?, root))?))?;
    let c = o.f(o.on().div(one, o.f(o.on().sqrt(o.f(o.on().add(one, o.f(o.on().mul(t, t))?))?))?))?;
    let s = o.f(o.on().mul(c, t))?;
    Ok((o.where_(rotate, c, one)?, o.where_(rotate, s, o.k(0.0)?)?))
}

/// Rotates the pairs of slices `(p, q)` along `axis` of `x`:
/// `x_p <- c x_p - s x_q`, `x_q <- s x_p + c x_q` (`c`, `s` broadcast
/// against the gathered slices), then puts them back in place.
#[allow(clippy::too_many_arguments)]
fn rotate_pairs<'c, 'a>(
    o: Ops<'_, 'c, 'a>,
    x: Value<'c, '_>,
    p: Value<'c, '_>,
    q: Value<'c, '_>,
    inv: Value<'c, '_>,
    axis: i64,
    c: Value<'c, '_>,
    s: Value<'c, '_>,
) -> Result<Value<'c, 'a>, String> {
    let xp = o.gather(x, p, axis)?;
    let xq = o.gather(x, q, axis)?;
    let np = o.f(o.on().sub(o.f(o.on().mul(c, xp))?, o.f(o.on().mul(s, xq))?))?;
    let nq = o.f(o.on().add(o.f(o.on().mul(s, xp))?, o.f(o.on().mul(c, xq))?))?;
    let both = o.concat(&[np, nq], axis)?;
    o.gather(both, inv, axis)
}

/// The stop logic shared by both loops: `off` is the running maximum of the
/// pair measures over the current sweep; returns `(cond, off')`.
fn sweep_end<'c, 'a>(
    o: Ops<'_, 'c, 'a>,
    r: Value<'c, 'a>,
    rounds: usize,
    off: Value<'c, 'a>,
    measure: Value<'c, 'a>,
    tol: f64,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let flat = o.f(o.on().reshape(measure, o.b.const_i64s(&[-1])?, None))?;
    let zero1 = o.f(o.on().reshape(o.k(0.0)?, o.b.const_i64s(&[1])?, None))?;
    let round_max = o.reduce_max(o.concat(&[flat, zero1], 0)?, None, false)?;
    let first = o.bo(o.on().equal(r, o.b.const_i64_scalar(0)?))?;
    let off_in = o.where_(first, o.k(0.0)?, off)?;
    let off = o.f(o.on().max(&[off_in, round_max]))?;
    let last = o.bo(o.on().equal(r, o.b.const_i64_scalar(rounds as i64 - 1)?))?;
    let converged = o.bo(o.on().less_or_equal(off, o.k(tol)?))?;
    let stop = o.bo(o.on().and(last, converged))?;
    Ok((o.bo(o.on().not(stop))?, off))
}

/// The result of [`one_sided`]: `A = U diag(sigma) V^T` (thin), for `A` or,
/// when `transposed`, for `A^T`.
pub struct OneSided<'c, 'a> {
    /// `[*, k]` singular values, unsorted (column order), f64.
    pub sigma: Value<'c, 'a>,
    /// `[*, big, k]` left singular vectors (of `A^T` when transposed); a
    /// column is 0 where its singular value is 0. Only with vectors.
    pub u: Option<Value<'c, 'a>>,
    /// `[*, k, k]` right singular vectors. Only with vectors.
    pub v: Option<Value<'c, 'a>>,
    pub transposed: bool,
    pub k: usize,
}

/// One-sided Jacobi SVD of `a` (`[*, m, n]`, any float type; batch rank
/// `batch`): `vectors` also gives `U` and `V` (for the pseudo-inverse).
pub fn one_sided<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    m: usize,
    n: usize,
    batch: usize,
    vectors: bool,
) -> Result<OneSided<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    let rank = batch + 2;
    let a = o.b.cast(a, o.f64t())?;
    let transposed = m < n;
    let (big, k) = if transposed { (n, m) } else { (m, n) };
    let w0 = if transposed { o.transpose(a, rank)? } else { o.f(o.on().identity(a))? };
    if k == 0 {
        let sigma = o.reduce_sum(w0, Some(&[-2]), false)?;
        return Ok(OneSided { sigma, u: None, v: None, transposed, k });
    }
    let scale = o.matrix_scale(w0)?;
    let w0 = o.f(o.on().div(w0, scale))?;
    let np = k + k % 2;
    let (w, v) = if k == 1 {
        let v = if vectors { Some(o.batch_eye(w0, 1)?) } else { None };
        (w0, v)
    } else {
        let rounds = np - 1;
        let h = np / 2;
        let (ps, qs, invs) = schedule(np);
        let ptab = o.const_i64(&[rounds, h], &ps)?;
        let qtab = o.const_i64(&[rounds, h], &qs)?;
        let itab = o.const_i64(&[rounds, np], &invs)?;
        let wp = o.pad_end(w0, rank, 1, np - k)?;
        let mut init = vec![wp];
        if vectors {
            init.push(o.batch_eye(w0, np)?);
        }
        init.push(o.k(0.0)?);
        let trips = o.b.const_i64_scalar(MAX_SWEEPS * rounds as i64)?;
        let types = vec![o.f64t(); init.len()];
        let tol = EPS64 * big as f64;
        let out = build_loop_while(c, &types, trips, &init, |b, iter, _cond, carried| {
            let o = Ops { b };
            let r = o.i(o.on().mod_(iter, b.const_i64_scalar(rounds as i64)?, None))?;
            let p = o.gather(ptab, r, 0)?;
            let q = o.gather(qtab, r, 0)?;
            let inv = o.gather(itab, r, 0)?;
            let w = carried[0];
            let wpc = o.gather(w, p, -1)?;
            let wqc = o.gather(w, q, -1)?;
            let dot =
                |x: Value<'c, 'a>, y: Value<'c, 'a>| o.reduce_sum(o.f(o.on().mul(x, y))?, Some(&[-2]), true);
            let alpha = dot(wpc, wpc)?;
            let beta = dot(wqc, wqc)?;
            let gamma = dot(wpc, wqc)?;
            // |cos| of the angle between the two columns (0 for a zero column).
            let den = o.f(o.on().mul(o.f(o.on().sqrt(alpha))?, o.f(o.on().sqrt(beta))?))?;
            let pos = o.bo(o.on().greater(den, o.k(0.0)?))?;
            let den = o.where_(pos, den, o.k(1.0)?)?;
            let measure = o.f(o.on().div(o.f(o.on().abs(gamma))?, den))?;
            let rotate = o.bo(o.on().greater(measure, o.k(tol)?))?;
            let (cs, sn) = rotation(o, alpha, beta, gamma, rotate)?;
            let mut next = vec![rotate_pairs(o, w, p, q, inv, -1, cs, sn)?];
            if vectors {
                next.push(rotate_pairs(o, carried[1], p, q, inv, -1, cs, sn)?);
            }
            let (cond, off) = sweep_end(o, r, rounds, carried[carried.len() - 1], measure, tol)?;
            next.push(off);
            Ok((cond, next))
        })?;
        let w = o.b.onnx().slice(out[0], o.b.const_i64s(&[0])?, o.b.const_i64s(&[k as i64])?, Some(o.b.const_i64s(&[-1])?), None).typed(o.b.unranked(o.f64t()))?;
        let v = if vectors { Some(o.leading_square(out[1], k)?) } else { None };
        (w, v)
    };
    let norms = o.f(o.on().sqrt(o.reduce_sum(o.f(o.on().mul(w, w))?, Some(&[-2]), true)?))?;
    let u = if vectors {
        let pos = o.bo(o.on().greater(norms, o.k(0.0)?))?;
        let safe = o.where_(pos, norms, o.k(1.0)?)?;
        Some(o.where_(pos, o.f(o.on().div(w, safe))?, o.k(0.0)?)?)
    } else {
        None
    };
    // sigma = norms * scale, [*, k].
    let sigma = o.f(o.on().mul(norms, scale))?;
    let sigma = o.reduce_max(sigma, Some(&[-2]), false)?;
    Ok(OneSided { sigma, u, v, transposed, k })
}

/// Singular values `[*, min(m, n)]` of `a`, descending, f64.
pub fn singular_values<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    m: usize,
    n: usize,
    batch: usize,
) -> Result<Value<'c, 'a>, String> {
    let svd = one_sided(c, a, m, n, batch, false)?;
    Ops { b: &c.b }.sort_last(svd.sigma, svd.k, true)
}

/// The symmetric matrix `torch.linalg.eigh(a, UPLO)` sees: the lower
/// (`"L"`) or upper (`"U"`) triangle of `a` mirrored, f64.
pub fn symmetric_from<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a: Value<'c, 'a>,
    n: usize,
    batch: usize,
    uplo: &str,
) -> Result<Value<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    let lower = match uplo {
        "L" | "l" => true,
        "U" | "u" => false,
        _ => return Err(format!("UPLO must be 'L' or 'U', got '{uplo}'")),
    };
    let a = o.b.cast(a, o.f64t())?;
    if n == 0 {
        return Ok(a);
    }
    let mask = o.mask(n, |i, j| if lower { i >= j } else { i <= j })?;
    let t = o.transpose(a, batch + 2)?;
    o.where_(mask, a, t)
}

/// Eigenvalues `[*, n]` of the symmetric `s` (`[*, n, n]`, f64), ascending,
/// by cyclic two-sided Jacobi.
pub fn symmetric_eigenvalues<'c, 'a>(
    c: &Ctx<'c, 'a>,
    s: Value<'c, 'a>,
    n: usize,
    batch: usize,
) -> Result<Value<'c, 'a>, String> {
    let (d, _) = symmetric_eigen(c, s, n, batch, false)?;
    Ops { b: &c.b }.sort_last(d, n, false)
}

/// `s = V diag(d) V^T` for the symmetric `s` (`[*, n, n]`, f64, `n > 0`):
/// the eigenvalues `d` (`[*, n]`, unsorted) and, with `vectors`, the
/// orthogonal `V` (`[*, n, n]`, column `i` for `d[i]`), by cyclic two-sided
/// Jacobi (`V` accumulates the column rotations). `V` itself is not unique;
/// what the rules compute from it (`V f(d) V^T`) is.
pub fn symmetric_eigen<'c, 'a>(
    c: &Ctx<'c, 'a>,
    s: Value<'c, 'a>,
    n: usize,
    batch: usize,
    vectors: bool,
) -> Result<(Value<'c, 'a>, Option<Value<'c, 'a>>), String> {
    let o = Ops { b: &c.b };
    let rank = batch + 2;
    let mut flat_shape = vec![0i64; batch];
    if n == 0 {
        return Ok((o.reduce_sum(s, Some(&[-1]), false)?, vectors.then_some(s)));
    }
    if n == 1 {
        flat_shape.push(1);
        let v = if vectors { Some(o.batch_eye(s, 1)?) } else { None };
        return Ok((o.f(o.on().reshape(s, o.b.const_i64s(&flat_shape)?, None))?, v));
    }
    let scale = o.matrix_scale(s)?;
    let s0 = o.f(o.on().div(s, scale))?;
    let np = n + n % 2;
    let rounds = np - 1;
    let h = np / 2;
    let (ps, qs, invs) = schedule(np);
    let at = |i: i64, j: i64| i * np as i64 + j;
    let pp: Vec<i64> = ps.iter().map(|p| at(*p, *p)).collect();
    let qq: Vec<i64> = qs.iter().map(|q| at(*q, *q)).collect();
    let pq: Vec<i64> = ps.iter().zip(qs.iter()).map(|(p, q)| at(*p, *q)).collect();
    let ptab = o.const_i64(&[rounds, h], &ps)?;
    let qtab = o.const_i64(&[rounds, h], &qs)?;
    let itab = o.const_i64(&[rounds, np], &invs)?;
    let pptab = o.const_i64(&[rounds, h], &pp)?;
    let qqtab = o.const_i64(&[rounds, h], &qq)?;
    let pqtab = o.const_i64(&[rounds, h], &pq)?;
    let mut flat = vec![0i64; batch];
    flat.push((np * np) as i64);
    let flat = o.b.const_i64s(&flat)?;
    let padded = o.pad_end(s0, rank, 2, np - n)?;
    let tol = EPS64 * np as f64;
    // Off-diagonal entries below this (the matrix is scaled to max |a| = 1)
    // change no eigenvalue by more than ~1e-18.
    let floor = 1e-18;
    let trips = o.b.const_i64_scalar(MAX_SWEEPS * rounds as i64)?;
    let mut init = vec![padded];
    if vectors {
        init.push(o.batch_eye(s0, np)?);
    }
    init.push(o.k(0.0)?);
    let types = vec![o.f64t(); init.len()];
    let out = build_loop_while(c, &types, trips, &init, |b, iter, _cond, carried| {
        let o = Ops { b };
        let r = o.i(o.on().mod_(iter, b.const_i64_scalar(rounds as i64)?, None))?;
        let p = o.gather(ptab, r, 0)?;
        let q = o.gather(qtab, r, 0)?;
        let inv = o.gather(itab, r, 0)?;
        let a = carried[0];
        let af = o.f(o.on().reshape(a, flat, None))?;
        let app = o.gather(af, o.gather(pptab, r, 0)?, -1)?;
        let aqq = o.gather(af, o.gather(qqtab, r, 0)?, -1)?;
        let apq = o.gather(af, o.gather(pqtab, r, 0)?, -1)?;
        let abs_pq = o.f(o.on().abs(apq))?;
        let den = o.f(o.on().mul(o.f(o.on().sqrt(o.f(o.on().abs(app))?))?, o.f(o.on().sqrt(o.f(o.on().abs(aqq))?))?))?;
        let den = o.f(o.on().max(&[den, o.k(floor / tol)?]))?;
        let big = o.bo(o.on().greater(abs_pq, o.k(floor)?))?;
        let measure = o.where_(big, o.f(o.on().div(abs_pq, den))?, o.k(0.0)?)?;
        let rotate = o.bo(o.on().greater(measure, o.k(tol)?))?;
        let (cs, sn) = rotation(o, app, aqq, apq, rotate)?;
        // Columns: c, s as [*, 1, h]; rows: [*, h, 1].
        let (cc, sc) = (
            o.b.onnx().unsqueeze(cs, b.const_i64s(&[-2])?).typed(b.unranked(o.f64t()))?,
            o.b.onnx().unsqueeze(sn, b.const_i64s(&[-2])?).typed(b.unranked(o.f64t()))?,
        );
        let (cr, sr) = (
            o.b.onnx().unsqueeze(cs, b.const_i64s(&[-1])?).typed(b.unranked(o.f64t()))?,
            o.b.onnx().unsqueeze(sn, b.const_i64s(&[-1])?).typed(b.unranked(o.f64t()))?,
        );
        let x = rotate_pairs(o, a, p, q, inv, -1, cc, sc)?;
        let x = rotate_pairs(o, x, p, q, inv, -2, cr, sr)?;
        let mut next = vec![x];
        if vectors {
            next.push(rotate_pairs(o, carried[1], p, q, inv, -1, cc, sc)?);
        }
        let (cond, off) = sweep_end(o, r, rounds, carried[carried.len() - 1], measure, tol)?;
        next.push(off);
        Ok((cond, next))
    })?;
    let af = o.f(o.on().reshape(out[0], flat, None))?;
    let diag: Vec<i64> = (0..n as i64).map(|k| at(k, k)).collect();
    let d = o.gather(af, o.b.const_i64s(&diag)?, -1)?;
    let scale = o.f(o.on().reshape(scale, o.b.const_i64s(&{
                let mut v = vec![0i64; batch];
                v.push(1);
                v
            })?, None))?;
    let d = o.f(o.on().mul(d, scale))?;
    let v = if vectors { Some(o.leading_square(out[1], n)?) } else { None };
    Ok((d, v))
}

/// The tolerance tensors `(atol, rtol)` of pinv / matrix_rank, f64,
/// following torch's `get_atol_rtol`: `atol` defaults to 0; `rtol`, when
/// not given, is `eps(dtype) * max(m, n)` if `atol` is not given either,
/// else `0` where `atol > 0` and that default elsewhere.
pub enum Tol<'c, 'a> {
    None,
    Float(f64),
    Tensor(Value<'c, 'a>),
}

pub fn atol_rtol<'c, 'a>(
    c: &Ctx<'c, 'a>,
    atol: Tol<'c, 'a>,
    rtol: Tol<'c, 'a>,
    element: Type<'c>,
    m: usize,
    n: usize,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let o = Ops { b: &c.b };
    let eps = if element == Type::float32(c.b.context) {
        f32::EPSILON as f64
    } else if element == Type::float64(c.b.context) {
        f64::EPSILON
    } else {
        return Err(format!("element type {element}: only float32 and float64 are lowered"));
    };
    let default_rtol = eps * m.max(n) as f64;
    let tensor = |t: &Tol<'c, 'a>, none: f64| -> Result<Value<'c, 'a>, String> {
        match t {
            Tol::None => o.k(none),
            Tol::Float(v) => o.k(*v),
            Tol::Tensor(v) => o.b.cast(*v, o.f64t()),
        }
    };
    let atol_v = tensor(&atol, 0.0)?;
    let rtol_v = match (&rtol, &atol) {
        (Tol::None, Tol::None) => o.k(default_rtol)?,
        (Tol::None, Tol::Float(a)) => o.k(if *a > 0.0 { 0.0 } else { default_rtol })?,
        (Tol::None, Tol::Tensor(_)) => {
            let pos = o.bo(o.on().greater(atol_v, o.k(0.0)?))?;
            o.where_(pos, o.k(0.0)?, o.k(default_rtol)?)?
        }
        (r, _) => tensor(r, 0.0)?,
    };
    Ok((atol_v, rtol_v))
}

/// `max(atol[..., None], rtol[..., None] * smax)` (smax `[*, 1]`).
pub fn cutoff<'c, 'a>(
    c: &Ctx<'c, 'a>,
    atol: Value<'c, 'a>,
    rtol: Value<'c, 'a>,
    smax: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    let un = |x: Value<'c, 'a>| o.b.onnx().unsqueeze(x, o.b.const_i64s(&[-1])?).typed(o.b.unranked(o.f64t()));
    let atol = un(atol)?;
    let rtol = un(rtol)?;
    o.f(o.on().max(&[atol, o.f(o.on().mul(rtol, smax))?]))
}

/// Largest value of the last axis, kept `[*, 1]` (0 for an empty axis).
pub fn last_max<'c, 'a>(c: &Ctx<'c, 'a>, x: Value<'c, 'a>, k: usize) -> Result<Value<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    if k == 0 {
        return o.reduce_sum(x, Some(&[-1]), true);
    }
    o.reduce_max(x, Some(&[-1]), true)
}

/// A zero tensor typed like result `index`: its shape is the result type's
/// when static, else `shape_of_batch(a)[:-2] ++ tail`. Used for the zero
/// U/V torch.svd returns with `compute_uv=False`, the empty tensors of
/// `_linalg_svd` / `_linalg_eigh` without vectors, and results that have no
/// uses (nothing reads them; they are removed as dead code).
pub fn zeros_result<'c, 'a>(
    c: &Ctx<'c, 'a>,
    index: usize,
    a: Value<'c, 'a>,
    tail: &[i64],
) -> Result<Value<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    let ty = c.result_type(index)?;
    let element = builder::element_type(ty).ok_or("result is not a tensor")?;
    let dims = builder::dims(ty);
    let shape = match dims.as_ref().and_then(|d| d.iter().copied().collect::<Option<Vec<i64>>>()) {
        Some(d) => o.b.const_i64s(&d)?,
        None => o.batch_shape_with(a, tail)?,
    };
    let zero = o.b.const_scalar(element, 0.0)?;
    o.b.onnx().expand(zero, shape).typed(ty)
}

/// The message for used singular / eigen vectors.
pub const VECTORS_REFUSED: &str =
    "are not unique (each column's sign, and any orthonormal basis of a repeated value's \
     subspace, is valid) and LAPACK's choice cannot be reproduced; only values are lowered (singular values, \
     eigenvalues, and what is computed from them: pinv, matrix_rank, cond, spectral/nuclear norms). Use \
     torch.linalg.svdvals / eigvalsh, or results that do not depend on the vectors' signs";

/// `v` (any element type) cast to result `index`'s element type, typed
/// exactly like that result.
pub fn cast_result<'c, 'a>(c: &Ctx<'c, 'a>, index: usize, v: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let ty = c.result_type(index)?;
    let element = builder::element_type(ty).ok_or("result is not a tensor")?;
    let to = crate::onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX data type for {element}"))?;
    c.b.onnx().cast(v, None, None, to).typed(ty)
}

/// Requires a float32 / float64 operand `name` (torch's CPU SVD and
/// eigen-solvers take these and complex ones; complex are not lowered).
pub fn real_float(c: &Ctx<'_, '_>, name: &str) -> Result<(), String> {
    let v = c.args.tensor(name)?;
    let e = builder::element_type(v.r#type()).ok_or_else(|| format!("'{name}' is not a tensor"))?;
    if e != Type::float32(c.b.context) && e != Type::float64(c.b.context) {
        return Err(format!("'{name}' has element type {e}: only float32 and float64 are lowered"));
    }
    Ok(())
}

/// The values of an SVD op whose vectors are either not computed or not
/// used: `(u_index, s_index, v_index)` results; `u_tail` / `v_tail` are the
/// vector results' matrix dims (used when the result type is not static).
/// `vectors`: whether the op computes them (torch.svd's `compute_uv=False`
/// gives zero U/V, `_linalg_svd`'s gives empty ones; both typed by torch).
pub fn svd_values_op<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a_name: &str,
    vectors: bool,
    u_tail: [i64; 2],
    v_tail: [i64; 2],
) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, a_name)?;
    let a = c.args.tensor(a_name)?;
    let (m, n, batch) = operand_dims(c, a_name, a_name)?;
    if vectors && (c.result_used(0)? || c.result_used(2)?) {
        return Err(format!("the singular vectors U and V of an SVD {VECTORS_REFUSED}"));
    }
    let s = singular_values(c, a, m, n, batch)?;
    let s = cast_result(c, 1, s)?;
    let u = zeros_result(c, 0, a, &u_tail)?;
    let v = zeros_result(c, 2, a, &v_tail)?;
    Ok(vec![u, s, v])
}

/// The eigenvalues of an eigh op whose eigenvectors (result 1) are either
/// not computed or not used.
pub fn eigh_values_op<'c, 'a>(c: &Ctx<'c, 'a>, a_name: &str, vectors: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, a_name)?;
    let a = c.args.tensor(a_name)?;
    let (m, n, batch) = operand_dims(c, a_name, a_name)?;
    if m != n {
        return Err(format!("eigh needs square matrices, got {m}x{n}"));
    }
    if vectors && c.args.op.result_count() > 1 && c.result_used(1)? {
        return Err(format!("the eigenvectors of a symmetric eigendecomposition {VECTORS_REFUSED}"));
    }
    let uplo = c.args.string("UPLO")?;
    let s = symmetric_from(c, a, n, batch, &uplo)?;
    let w = symmetric_eigenvalues(c, s, n, batch)?;
    let mut out = vec![cast_result(c, 0, w)?];
    if c.args.op.result_count() > 1 {
        out.push(zeros_result(c, 1, a, &[n as i64, n as i64])?);
    }
    Ok(out)
}

/// `pinv(A)` (`hermitian`: of the symmetric matrix read from A's lower
/// triangle, as torch's eigh-based path does) with torch's cut-off
/// `sigma > max(atol, rtol * sigma_max)`: `V diag(1 / sigma) U^T` over the
/// kept singular values. The result is unique (it does not depend on the
/// vectors' signs or bases), so it matches torch's up to rounding.
pub fn pinv_op<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a_name: &str,
    atol: Tol<'c, 'a>,
    rtol: Tol<'c, 'a>,
    hermitian: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, a_name)?;
    let o = Ops { b: &c.b };
    let a = c.args.tensor(a_name)?;
    let element = builder::element_type(a.r#type()).ok_or("not a tensor")?;
    let (m, n, batch) = operand_dims(c, a_name, a_name)?;
    let rank = batch + 2;
    let a = if hermitian {
        if m != n {
            return Err(format!("pinv(hermitian=True) needs square matrices, got {m}x{n}"));
        }
        symmetric_from(c, a, n, batch, "L")?
    } else {
        o.b.cast(a, o.f64t())?
    };
    if m.min(n) == 0 {
        // Empty: torch returns V diag(1/S) U^H, an empty [*, n, m].
        let t = o.transpose(a, rank)?;
        return Ok(vec![cast_result(c, 0, t)?]);
    }
    let svd = one_sided(c, a, m, n, batch, true)?;
    let (u, v) = (svd.u.ok_or("no U")?, svd.v.ok_or("no V")?);
    let smax = last_max(c, svd.sigma, svd.k)?;
    let (atol, rtol) = atol_rtol(c, atol, rtol, element, m, n)?;
    let tol = cutoff(c, atol, rtol, smax)?;
    let keep = o.bo(o.on().greater(svd.sigma, tol))?;
    let pos = o.bo(o.on().greater(svd.sigma, o.k(0.0)?))?;
    let safe = o.where_(pos, svd.sigma, o.k(1.0)?)?;
    let d = o.where_(keep, o.f(o.on().reciprocal(safe))?, o.k(0.0)?)?;
    // Non-finite input (torch raises): NaN, not a plausible-looking 0.
    let nan = o.bo(o.on().is_na_n(svd.sigma))?;
    let d = o.where_(nan, o.k(f64::NAN)?, d)?;
    let d = o.b.onnx().unsqueeze(d, o.b.const_i64s(&[-2])?).typed(o.b.unranked(o.f64t()))?;
    let vd = o.f(o.on().mul(v, d))?;
    let mut p = o.f(o.on().mat_mul(vd, o.transpose(u, rank)?))?;
    if svd.transposed {
        p = o.transpose(p, rank)?;
    }
    Ok(vec![cast_result(c, 0, p)?])
}

/// `matrix_rank(A)`: the number of singular values (absolute eigenvalues
/// when `hermitian`, the same numbers) above `max(atol, rtol * sigma_max)`.
pub fn matrix_rank_op<'c, 'a>(
    c: &Ctx<'c, 'a>,
    a_name: &str,
    atol: Tol<'c, 'a>,
    rtol: Tol<'c, 'a>,
    hermitian: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    real_float(c, a_name)?;
    let o = Ops { b: &c.b };
    let a = c.args.tensor(a_name)?;
    let element = builder::element_type(a.r#type()).ok_or("not a tensor")?;
    let (m, n, batch) = operand_dims(c, a_name, a_name)?;
    let a = if hermitian {
        if m != n {
            return Err(format!("matrix_rank(hermitian=True) needs square matrices, got {m}x{n}"));
        }
        symmetric_from(c, a, n, batch, "L")?
    } else {
        o.b.cast(a, o.f64t())?
    };
    let svd = one_sided(c, a, m, n, batch, false)?;
    let smax = last_max(c, svd.sigma, svd.k)?;
    let (atol, rtol) = atol_rtol(c, atol, rtol, element, m, n)?;
    let tol = cutoff(c, atol, rtol, smax)?;
    let keep = o.bo(o.on().greater(svd.sigma, tol))?;
    let keep = o.b.cast(keep, o.b.i64_type())?;
    let count = o.b.onnx().reduce_sum(keep, Some(o.b.const_i64s(&[-1])?), Some(0), None).typed(o.b.unranked(o.b.i64_type()))?;
    Ok(vec![cast_result(c, 0, count)?])
}

/// A tolerance argument: `Tol::None` when absent; `float` arguments as
/// numbers, `Tensor` ones as tensors.
pub fn tol_arg<'c, 'a>(c: &Ctx<'c, 'a>, name: &str, tensor: bool) -> Result<Tol<'c, 'a>, String> {
    if c.args.is_none(name)? {
        return Ok(Tol::None);
    }
    Ok(if tensor { Tol::Tensor(c.args.tensor(name)?) } else { Tol::Float(c.args.float(name)?) })
}

/// A matrix norm from singular values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SvNorm {
    /// The spectral norm, largest singular value (ord 2).
    Max,
    /// The smallest singular value (ord -2).
    Min,
    /// The nuclear norm, their sum ('nuc').
    Nuclear,
}

/// The matrix norm `kind` of `x` over dims `(d0, d1)` (non-negative, x of
/// rank `rank` with static sizes there), `keepdim` like torch, typed
/// `result`.
pub fn sv_norm<'c, 'a>(
    c: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    x_dims: &[Option<i64>],
    kind: SvNorm,
    d0: usize,
    d1: usize,
    keepdim: bool,
    result: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let o = Ops { b: &c.b };
    let rank = x_dims.len();
    let mut perm: Vec<i64> = (0..rank as i64).filter(|d| *d != d0 as i64 && *d != d1 as i64).collect();
    perm.push(d0 as i64);
    perm.push(d1 as i64);
    let moved: Vec<Option<i64>> = perm.iter().map(|d| x_dims[*d as usize]).collect();
    let (m, n, batch) = static_matrix(&moved, "the matrix of a spectral/nuclear norm")?;
    let k = m.min(n);
    if k == 0 && kind == SvNorm::Min {
        return Err(format!("the ord=-2 norm of an empty {m}x{n} matrix: torch raises (amin over no singular values)"));
    }
    let ty = o.b.unranked(builder::element_type(x.r#type()).ok_or("not a tensor")?);
    let xt = o.b.onnx().transpose(x, Some(&perm)).typed(ty)?;
    let s = singular_values(c, xt, m, n, batch)?;
    let v = match kind {
        SvNorm::Nuclear => o.reduce_sum(s, Some(&[-1]), false)?,
        // torch's amax over no singular values gives 0, like a sum.
        SvNorm::Max if k == 0 => o.reduce_sum(s, Some(&[-1]), false)?,
        SvNorm::Max => o.reduce_max(s, Some(&[-1]), false)?,
        SvNorm::Min => o.reduce_min(s, Some(&[-1]), false)?,
    };
    let v = if keepdim {
        let axes = o.b.const_i64s(&[d0.min(d1) as i64, d0.max(d1) as i64])?;
        o.f(o.on().unsqueeze(v, axes))?
    } else {
        v
    };
    let element = builder::element_type(result).ok_or("result is not a tensor")?;
    let to = crate::onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX data type for {element}"))?;
    c.b.onnx().cast(v, None, None, to).typed(result)
}
