//! What a mask provably is, for the attention rules: a bounded search over
//! the e-graph that reads an integer value as an affine function of its
//! element's index (Range, Unsqueeze, Expand, Add/Sub/Mul of such, Gather
//! and Slice of positions, ...) and a boolean value as all-true/all-false,
//! the causal pattern `k - q <= offset` on its last two axes, or a padding
//! mask `m[b, h, q, k] = p[b, k]`. A proof is a function of the round's
//! snapshot and the value alone, memoized per round. Every conclusion is
//! from the values' construction and shapes, never from names: a dim is
//! only taken as 1 when its type says so statically.


use super::{norm_axis, Rw};
use crate::{
    analysis::Dim,
    lang::{dtype, Head},
};
use egg::{Id, Language};

/// What an integer value provably is: `v[i_0, .., i_{r-1}] = c + sum_a
/// coef[a] * i_a` (an affine function of the element's index; a coefficient
/// on an axis of static size 1 is dropped, since that index is always 0).
#[derive(Clone, Debug, PartialEq)]
struct Affine {
    coef: Vec<i64>,
    c: i64,
}

/// What a boolean value provably is: the same everywhere, the causal
/// pattern `m[.., q, k] = (k - q <= offset)` on its last two axes, or a
/// padding mask `m[b, h, q, k] = p[b, k]` (rank 4, `p` a `[B, Skv]` boolean
/// value, the batch and key dims of `m` those of `p`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoolMask {
    All(bool),
    Causal(i64),
    Padding(Id),
}

/// Bound on the e-nodes one proof looks at (keeps a rule application
/// constant-time however the mask was built).
const PROOF_BUDGET: usize = 4096;
/// Coefficients and constants beyond this are not tracked (no overflow).
const AFFINE_LIMIT: i64 = 1 << 31;

struct Prover<'r, 'a> {
    rw: &'r Rw<'a>,
    budget: usize,
    ints: std::collections::HashMap<Id, Option<Affine>>,
    bools: std::collections::HashMap<Id, Option<BoolMask>>,
}

/// True when `f` is exactly the element's index on `axis` (of `dims`): a
/// coefficient 1 there (or 0 on a static size-1 axis, whose index is always
/// 0), 0 elsewhere, no offset.
fn is_index(f: &Affine, axis: usize, dims: &[Dim]) -> bool {
    f.c == 0
        && f.coef.len() == dims.len()
        && f.coef.iter().enumerate().all(|(a, &k)| match a == axis {
            true => k == 1 || (k == 0 && dims[a] == Dim::Static(1)),
            false => k == 0,
        })
}

fn small(x: i64) -> Option<i64> {
    (x.abs() <= AFFINE_LIMIT).then_some(x)
}

impl Affine {
    fn constant(rank: usize, c: i64) -> Affine {
        Affine { coef: vec![0; rank], c }
    }

    /// This function seen at rank `rank` by numpy broadcasting (right-aligned).
    fn at_rank(&self, rank: usize) -> Option<Affine> {
        let extra = rank.checked_sub(self.coef.len())?;
        let mut coef = vec![0; extra];
        coef.extend(&self.coef);
        Some(Affine { coef, c: self.c })
    }

    /// `a + s * b` at the broadcast rank.
    fn combine(&self, other: &Affine, s: i64) -> Option<Affine> {
        let rank = self.coef.len().max(other.coef.len());
        let (a, b) = (self.at_rank(rank)?, other.at_rank(rank)?);
        let coef = a
            .coef
            .iter()
            .zip(&b.coef)
            .map(|(x, y)| small(x.checked_add(y.checked_mul(s)?)?))
            .collect::<Option<Vec<_>>>()?;
        Some(Affine { coef, c: small(a.c.checked_add(b.c.checked_mul(s)?)?)? })
    }

    fn is_constant(&self) -> bool {
        self.coef.iter().all(|&c| c == 0)
    }
}

impl Prover<'_, '_> {
    fn dims(&self, id: Id) -> Option<Vec<Dim>> {
        self.rw.ty(id)?.dims.clone()
    }

    /// True when a value of dims `dims` can be the padding mask of `p`
    /// (`[B, Skv]`): rank 4, batch and key dims known equal to `p`'s.
    fn padding_dims(&self, dims: &[Dim], p: Id) -> bool {
        match (self.dims(p).as_deref(), dims) {
            (Some([b, k]), [mb, _, _, mk]) => b.same(mb) && k.same(mk),
            _ => false,
        }
    }

    /// Drops coefficients on axes of static size 1.
    fn normalize(&self, id: Id, mut f: Affine) -> Option<Affine> {
        let dims = self.dims(id)?;
        if dims.len() != f.coef.len() {
            return None;
        }
        for (c, d) in f.coef.iter_mut().zip(&dims) {
            if *d == Dim::Static(1) {
                *c = 0;
            }
        }
        Some(f)
    }

    fn int(&mut self, id: Id) -> Option<Affine> {
        let id = self.rw.find(id);
        if let Some(known) = self.ints.get(&id) {
            return known.clone();
        }
        self.ints.insert(id, None); // cycles give up
        let found = self.int_uncached(id);
        self.ints.insert(id, found.clone());
        found
    }

    fn int_uncached(&mut self, id: Id) -> Option<Affine> {
        let elem = self.rw.elem(id)?;
        if !matches!(elem, dtype::INT64 | dtype::INT32) {
            return None;
        }
        let dims = self.dims(id)?;
        let rank = dims.len();
        if let Some(v) = self.rw.values(id) {
            // A constant: the same everywhere, or (1-D) an arithmetic progression.
            let v = v.ints()?;
            let first = *v.first()?;
            if v.iter().all(|&x| x == first) {
                return Some(Affine::constant(rank, first));
            }
            let step = small(v.get(1)?.checked_sub(first)?)?;
            let progression = v.windows(2).all(|w| w[1].checked_sub(w[0]) == Some(step));
            return (rank == 1 && progression).then(|| Affine { coef: vec![step], c: first }).and_then(|f| {
                small(f.c)?;
                Some(f)
            });
        }
        for node in self.rw.view[id].nodes.clone() {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            let Some(head) = node.head().cloned() else { continue };
            if !head.domain.as_str().is_empty() {
                continue;
            }
            let c = node.children().to_vec();
            if let Some(f) = self.int_node(&dims, &head, &c).and_then(|f| self.normalize(id, f)) {
                return Some(f);
            }
        }
        None
    }

    /// `int(x)` seen at the result of dims `dims` (numpy broadcasting,
    /// right-aligned), when that is provably a broadcast-free view: on every
    /// axis where `x`'s function varies, `x`'s dim is the result's (the same
    /// symbol or number). A symbolic dim of `x` that is not the result's may
    /// be 1 at run time and broadcast, then `x` does not vary there: no
    /// proof.
    ///
    /// `others` are the op's other operands: an axis where each of them has
    /// size 1 (or is absent) is `x`'s own size in the result, whatever the
    /// names say (`Range(..) + 1`).
    fn int_at(&mut self, x: Id, dims: &[Dim], others: &[Id]) -> Option<Affine> {
        let f = self.int(x)?.at_rank(dims.len())?;
        let xd = self.dims(x)?;
        let offset = dims.len().checked_sub(xd.len())?;
        for (j, d) in xd.iter().enumerate() {
            let a = j + offset;
            // An unknown dim (shape inference lost it, e.g. a Slice with
            // run-time bounds) is taken as the result's: the mask programs
            // torch writes do not broadcast such values. A debt: only a
            // shape function per op would prove it (docs/optimizer.md).
            if f.coef[a] == 0 || d.same(&dims[a]) || matches!(d, Dim::Static(1) | Dim::Unknown) {
                continue;
            }
            let alone = others.iter().all(|&o| match self.dims(o) {
                Some(od) => match (a + od.len()).checked_sub(dims.len()) {
                    Some(i) => od[i] == Dim::Static(1),
                    None => true,
                },
                None => false,
            });
            if !alone {
                return None;
            }
        }
        Some(f)
    }

    /// `int(x)` seen through `Expand(x, shape)` to dims `dims`: an axis where
    /// `x` varies must keep `x`'s size (the same dim, or a shape entry of 1).
    fn expanded(&mut self, x: Id, shape: Id, dims: &[Dim]) -> Option<Affine> {
        let f = self.int(x)?.at_rank(dims.len())?;
        let xd = self.dims(x)?;
        let offset = dims.len().checked_sub(xd.len())?;
        let entries = self.rw.ints(shape);
        for (j, d) in xd.iter().enumerate() {
            let a = j + offset;
            if f.coef[a] == 0 || d.same(&dims[a]) || matches!(d, Dim::Static(1) | Dim::Unknown) {
                continue;
            }
            // The shape entry for axis a (right-aligned): 1 keeps x's size.
            let keeps =
                entries.as_ref().is_some_and(|e| (a + e.len()).checked_sub(dims.len()).is_some_and(|i| e[i] == 1));
            if !keeps {
                return None;
            }
        }
        Some(f)
    }

    /// `bool(x)` seen at the result of dims `dims`: a causal pattern lives on
    /// the last two axes, which must be the result's (not broadcast).
    fn bool_at(&mut self, x: Id, dims: &[Dim]) -> Option<BoolMask> {
        let m = self.bool(x)?;
        if let BoolMask::Causal(_) = m {
            let xd = self.dims(x)?;
            let (r, n) = (dims.len(), xd.len());
            if n < 2 || r < 2 || !xd[n - 1].same(&dims[r - 1]) || !xd[n - 2].same(&dims[r - 2]) {
                return None;
            }
        }
        Some(m)
    }

    fn int_node(&mut self, dims: &[Dim], head: &Head, c: &[Id]) -> Option<Affine> {
        let rank = dims.len();
        let op = head.op.as_str();
        match op {
            "Range" if rank == 1 => {
                let (start, delta) = (self.rw.scalar(c[0])?, self.rw.scalar(*c.get(2)?)?);
                if start.fract() != 0.0 || delta.fract() != 0.0 {
                    return None;
                }
                Some(Affine { coef: vec![small(delta as i64)?], c: small(start as i64)? })
            }
            "Add" | "Sub" if head.attrs.is_empty() => {
                let (a, b) = (self.int_at(c[0], dims, &[c[1]])?, self.int_at(c[1], dims, &[c[0]])?);
                a.combine(&b, if op == "Add" { 1 } else { -1 })?.at_rank(rank)
            }
            "Mul" if head.attrs.is_empty() => {
                let (a, b) = (self.int_at(c[0], dims, &[c[1]])?, self.int_at(c[1], dims, &[c[0]])?);
                let (f, k) = if b.is_constant() {
                    (a, b.c)
                } else if a.is_constant() {
                    (b, a.c)
                } else {
                    return None;
                };
                let coef = f.coef.iter().map(|x| small(x.checked_mul(k)?)).collect::<Option<Vec<_>>>()?;
                Affine { coef, c: small(f.c.checked_mul(k)?)? }.at_rank(rank)
            }
            "Cast" => {
                let to = head.int("to")? as i32;
                let src = self.rw.elem(c[0])?;
                if src == dtype::BOOL {
                    return match self.bool(c[0])? {
                        BoolMask::All(b) => Some(Affine::constant(rank, b as i64)),
                        BoolMask::Causal(_) | BoolMask::Padding(_) => None,
                    };
                }
                (crate::analysis::embeds(src, to) && matches!(src, dtype::INT64 | dtype::INT32))
                    .then(|| self.int(c[0]))
                    .flatten()
            }
            "Identity" => self.int(c[0]),
            "Unsqueeze" => {
                let f = self.int(c[0])?;
                let mut axes: Vec<usize> =
                    self.rw.ints(*c.get(1)?)?.iter().map(|&a| norm_axis(a, rank)).collect::<Option<_>>()?;
                axes.sort_unstable();
                axes.dedup();
                if f.coef.len() + axes.len() != rank {
                    return None;
                }
                let mut coef = f.coef.into_iter();
                let out: Vec<i64> =
                    (0..rank).map(|i| if axes.contains(&i) { 0 } else { coef.next().unwrap_or(0) }).collect();
                Some(Affine { coef: out, c: f.c })
            }
            "Expand" => self.expanded(c[0], *c.get(1)?, dims),
            "Slice" => {
                // A start s >= 0 (step 1) shifts the index: v'[i] = v[i + s].
                let mut f = self.int(c[0])?;
                let starts = self.rw.ints(c[1])?;
                let axes: Vec<i64> = match c.get(3) {
                    Some(&a) => self.rw.ints(a)?,
                    None => (0..starts.len() as i64).collect(),
                };
                if let Some(&st) = c.get(4) {
                    if self.rw.ints(st)?.iter().any(|&s| s != 1) {
                        return None;
                    }
                }
                for (s, a) in starts.iter().zip(&axes) {
                    let a = norm_axis(*a, rank)?;
                    if *s < 0 || *s > AFFINE_LIMIT {
                        return None;
                    }
                    f.c = small(f.c.checked_add(f.coef[a].checked_mul(*s)?)?)?;
                }
                Some(f)
            }
            "Concat" => {
                // Concat(x, y) on an axis where y continues x's function.
                let axis = norm_axis(head.int("axis")?, rank)?;
                let [x, y] = c else { return None };
                let n = match self.dims(*x)?.get(axis)? {
                    Dim::Static(n) => *n,
                    _ => return None,
                };
                let (fx, fy) = (self.int(*x)?, self.int(*y)?);
                let f = Affine { coef: fy.coef.clone(), c: small(fy.c.checked_sub(fy.coef[axis].checked_mul(n)?)?)? };
                let mut f_on_x = f.clone();
                if n == 1 {
                    f_on_x.coef[axis] = 0;
                }
                (self.normalize(*x, f_on_x)? == fx).then_some(f)
            }
            "CumSum" => {
                // A cumulative sum of zeros is zeros.
                let f = self.int(c[0])?;
                (f.is_constant() && f.c == 0).then_some(f)
            }
            "GatherND" => {
                // data[indices[.., 0], .., indices[.., k-1]] with k = rank(data):
                // an affine data of affine index components is affine.
                if head.int("batch_dims").unwrap_or(0) != 0 {
                    return None;
                }
                let data = self.int(c[0])?;
                let k = data.coef.len();
                let idx_dims = self.dims(c[1])?;
                if idx_dims.last() != Some(&Dim::Static(k as i64)) || idx_dims.len() != rank + 1 {
                    return None;
                }
                let mut out = Affine::constant(rank, data.c);
                for (j, &w) in data.coef.iter().enumerate() {
                    if w != 0 {
                        // Negative indices count from the end: only
                        // components provably >= 0 are the index itself.
                        let comp = self.component(c[1], j, k)?;
                        if comp.c < 0 || comp.coef.iter().any(|&x| x < 0) {
                            return None;
                        }
                        out = out.combine(&comp, w)?;
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// Component `j` of an index tensor `[.., k]`: `Concat` of `k` pieces of
    /// last dim 1 on the last axis; piece `j` without its last axis.
    fn component(&mut self, indices: Id, j: usize, k: usize) -> Option<Affine> {
        let rank = self.dims(indices)?.len();
        for (h, c) in self.rw.producers(indices, "Concat") {
            if c.len() != k || h.int("axis").and_then(|a| norm_axis(a, rank)) != Some(rank - 1) {
                continue;
            }
            if !c.iter().all(|&p| self.dims(p).and_then(|d| d.last().cloned()) == Some(Dim::Static(1))) {
                continue;
            }
            let mut f = self.int(c[j])?;
            f.coef.pop();
            return Some(f);
        }
        None
    }

    fn bool(&mut self, id: Id) -> Option<BoolMask> {
        let id = self.rw.find(id);
        if let Some(known) = self.bools.get(&id) {
            return *known;
        }
        self.bools.insert(id, None);
        let found = self.bool_uncached(id);
        self.bools.insert(id, found);
        found
    }

    fn bool_uncached(&mut self, id: Id) -> Option<BoolMask> {
        if self.rw.elem(id)? != dtype::BOOL {
            return None;
        }
        if let Some(v) = self.rw.values(id) {
            return if v.all_eq(1.0) {
                Some(BoolMask::All(true))
            } else if v.all_eq(0.0) {
                Some(BoolMask::All(false))
            } else {
                None
            };
        }
        let dims = self.dims(id)?;
        for node in self.rw.view[id].nodes.clone() {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            let Some(head) = node.head().cloned() else { continue };
            if !head.domain.as_str().is_empty() || !head.attrs.iter().all(|(k, _)| k.as_str() == "upper") {
                continue;
            }
            let c = node.children().to_vec();
            if let Some(m) = self.bool_node(&dims, &head, &c) {
                // A padding mask stays one only where its batch and key
                // dims are p's (an Expand or a broadcast may not add them).
                if let BoolMask::Padding(p) = m {
                    if !self.padding_dims(&dims, p) {
                        continue;
                    }
                }
                return Some(m);
            }
        }
        None
    }

    fn bool_node(&mut self, dims: &[Dim], head: &Head, c: &[Id]) -> Option<BoolMask> {
        let rank = dims.len();
        let compare = |this: &mut Self, a: Id, b: Id, strict: bool| -> Option<BoolMask> {
            // a <= b  <=>  a - b <= 0;  a < b  <=>  a - b + 1 <= 0 (integers).
            let d = this.int_at(a, dims, &[b])?.combine(&this.int_at(b, dims, &[a])?, -1)?.at_rank(rank)?;
            let bias = d.c + strict as i64;
            if d.is_constant() {
                return Some(BoolMask::All(bias <= 0));
            }
            // Over the index box [0, dim): the largest / least value of
            // a - b (+1); a coefficient of one sign needs only dim >= 1 there.
            let extreme = |sign: i64| -> Option<i64> {
                d.coef.iter().zip(dims).try_fold(bias, |acc, (&k, dim)| {
                    if k == 0 || k.signum() != sign {
                        return Some(acc);
                    }
                    let Dim::Static(n) = dim else { return None };
                    small(acc.checked_add(k.checked_mul(n.checked_sub(1)?)?)?)
                })
            };
            if extreme(1).is_some_and(|max| max <= 0) {
                return Some(BoolMask::All(true));
            }
            if extreme(-1).is_some_and(|min| min > 0) {
                return Some(BoolMask::All(false));
            }
            let r = d.coef.len();
            let causal = r >= 2 && d.coef[r - 1] == 1 && d.coef[r - 2] == -1 && d.coef[..r - 2].iter().all(|&x| x == 0);
            causal.then_some(BoolMask::Causal(-bias))
        };
        match head.op.as_str() {
            "LessOrEqual" => compare(self, c[0], c[1], false),
            "GreaterOrEqual" => compare(self, c[1], c[0], false),
            "Less" => compare(self, c[0], c[1], true),
            "Greater" => compare(self, c[1], c[0], true),
            "Equal" => {
                let d = self.int_at(c[0], dims, &[c[1]])?.combine(&self.int_at(c[1], dims, &[c[0]])?, -1)?;
                d.is_constant().then_some(BoolMask::All(d.c == 0))
            }
            "Not" => match self.bool(c[0])? {
                BoolMask::All(b) => Some(BoolMask::All(!b)),
                BoolMask::Causal(_) | BoolMask::Padding(_) => None,
            },
            "And" | "Or" => {
                let and = head.op.as_str() == "And";
                match (self.bool_at(c[0], dims)?, self.bool_at(c[1], dims)?) {
                    (BoolMask::All(b), m) | (m, BoolMask::All(b)) => Some(if b == and { m } else { BoolMask::All(b) }),
                    (BoolMask::Causal(x), BoolMask::Causal(y)) if x == y => Some(BoolMask::Causal(x)),
                    (BoolMask::Padding(x), BoolMask::Padding(y)) if x == y => Some(BoolMask::Padding(x)),
                    _ => None,
                }
            }
            "Expand" | "Identity" => self.bool_at(c[0], dims),
            "Unsqueeze" => match self.bool(c[0])? {
                // Causal lives on the last two axes: unsqueezing them moves it.
                BoolMask::All(b) => Some(BoolMask::All(b)),
                BoolMask::Padding(_) => None,
                BoolMask::Causal(k) => {
                    let axes = self.rw.ints(*c.get(1)?)?;
                    axes.iter()
                        .all(|&a| norm_axis(a, rank).is_some_and(|a| a + 2 < rank))
                        .then_some(BoolMask::Causal(k))
                }
            },
            "GatherND" => {
                // p[idx[.., 0], idx[.., 1]] with idx[b, h, q, k] = (b, k): the
                // padding mask of a [B, Skv] boolean p, read at the batch and
                // key index of each element (Hugging Face's `padding_mask`
                // indexing). Both components must be exactly those indices
                // (no offset, so never negative and within p's dims, which
                // the check in `bool_uncached` ties to this value's).
                if head.int("batch_dims").unwrap_or(0) != 0 || rank != 4 {
                    return None;
                }
                let data = c[0];
                let idx = self.dims(c[1])?;
                if self.rw.elem(data)? != dtype::BOOL || self.dims(data)?.len() != 2 || idx.len() != 5 {
                    return None;
                }
                let (b, k) = (self.component(c[1], 0, 2)?, self.component(c[1], 1, 2)?);
                (is_index(&b, 0, dims) && is_index(&k, 3, dims)).then(|| BoolMask::Padding(self.rw.find(data)))
            }
            "Trilu" => {
                // Lower triangle (upper = 0) of all-true: keep k - q <= diagonal.
                if head.int("upper").unwrap_or(1) != 0 {
                    return None;
                }
                let k = match c.get(1) {
                    Some(&k) => self.rw.ints(k)?.first().copied()?,
                    None => 0,
                };
                (self.bool(c[0])? == BoolMask::All(true)).then_some(BoolMask::Causal(k))
            }
            _ => None,
        }
    }

    /// What an additive float mask provably is, as the boolean mask it
    /// stands for (0 where attended, -inf where not): constants of 0 / -inf,
    /// `Where(b, 0, -inf)`, an upper `Trilu` of all -inf (nn.Transformer's
    /// square subsequent mask), and `Expand`/`Identity` of those.
    fn additive(&mut self, id: Id) -> Option<BoolMask> {
        let ty = self.rw.ty(id)?;
        if !ty.elem.is_some_and(dtype::is_float) {
            return None;
        }
        let dims = ty.dims.clone()?;
        if let Some(v) = self.rw.values(id) {
            return if v.all_eq(0.0) {
                Some(BoolMask::All(true))
            } else if v.all_eq(f64::NEG_INFINITY) {
                Some(BoolMask::All(false))
            } else {
                None
            };
        }
        let is = |this: &Self, c: Id, x: f64| this.rw.values(c).is_some_and(|v| v.all_eq(x));
        for node in self.rw.view[self.rw.find(id)].nodes.clone() {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            let Some(head) = node.head().cloned() else { continue };
            if !head.domain.as_str().is_empty() || !head.attrs.iter().all(|(k, _)| k.as_str() == "upper") {
                continue;
            }
            let c = node.children().to_vec();
            let found = match head.op.as_str() {
                "Where" if is(self, c[1], 0.0) && is(self, c[2], f64::NEG_INFINITY) => self.bool(c[0]),
                "Expand" | "Identity" => self.additive(c[0]),
                "Trilu" if head.int("upper").unwrap_or(1) == 1 && dims.len() >= 2 => {
                    // Keeps -inf where k - q >= diagonal, 0 elsewhere:
                    // attended iff k - q <= diagonal - 1.
                    let k = match c.get(1) {
                        Some(&k) => self.rw.ints(k).and_then(|v| v.first().copied()),
                        None => Some(0),
                    };
                    match (k, self.additive(c[0])) {
                        (Some(k), Some(BoolMask::All(false))) => Some(BoolMask::Causal(k - 1)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

thread_local! {
    /// [`prove_mask`]'s results in one round (`Rw::round`): every layer's
    /// Attention shares the model's mask, proved once per round.
    static PROOFS: std::cell::RefCell<(u64, std::collections::HashMap<Id, Option<BoolMask>>)> =
        std::cell::RefCell::new((0, Default::default()));
}

/// What the boolean mask `m` provably is (bounded search; a function of
/// the round's snapshot and `m`, memoized per round).
pub fn prove_mask(rw: &Rw<'_>, m: Id) -> Option<BoolMask> {
    let known = PROOFS.with(|p| {
        let mut p = p.borrow_mut();
        if p.0 != rw.round() {
            *p = (rw.round(), Default::default());
        }
        p.1.get(&m).copied()
    });
    if let Some(known) = known {
        return known;
    }
    let found = prove_mask_uncached(rw, m);
    PROOFS.with(|p| p.borrow_mut().1.insert(m, found));
    found
}

fn prove_mask_uncached(rw: &Rw<'_>, m: Id) -> Option<BoolMask> {
    let mut prover = Prover { rw, budget: PROOF_BUDGET, ints: Default::default(), bools: Default::default() };
    if rw.elem(m) == Some(dtype::BOOL) {
        prover.bool(m)
    } else {
        prover.additive(m)
    }
}


#[cfg(test)]
mod tests {
    //! Masks built by hand in an e-graph, as the lowering and torch.onnx
    //! write them, and the near misses that must not be proven.

    use super::*;
    use crate::{
        analysis::{add_type, OnnxAnalysis, OnnxEGraph, TyInfo},
        lang::{AttrValue, ONode, Tensor, Values},
        rules::next_round,
    };
    use egg::Symbol;
    use std::sync::Arc;

    fn s(n: i64) -> Dim {
        Dim::Static(n)
    }

    fn sym(name: &str) -> Dim {
        Dim::Sym(Symbol::from(name))
    }

    struct Graph {
        egraph: OnnxEGraph,
        leaves: u32,
    }

    impl Graph {
        fn new() -> Graph {
            Graph { egraph: OnnxEGraph::new(OnnxAnalysis::new(23)), leaves: 0 }
        }

        /// A value from outside (a graph input) of the given type.
        fn input(&mut self, elem: i32, dims: Vec<Dim>) -> Id {
            self.leaves += 1;
            let id = self.egraph.add(ONode::Leaf(self.leaves));
            add_type(&mut self.egraph, id, TyInfo::tensor(elem, dims));
            id
        }

        fn constant(&mut self, elem: i32, shape: Vec<i64>, values: Values) -> Id {
            let tensor = Tensor { raw: None, elem, shape, values: Some(values) };
            let head = Head::new("Constant", vec![("value", AttrValue::Tensor(Arc::new(tensor)))]);
            self.egraph.add(ONode::op(head, vec![]))
        }

        fn ints(&mut self, values: &[i64]) -> Id {
            self.constant(dtype::INT64, vec![values.len() as i64], Values::Ints(values.to_vec()))
        }

        fn scalar(&mut self, value: i64) -> Id {
            self.constant(dtype::INT64, vec![], Values::Ints(vec![value]))
        }

        fn float_scalar(&mut self, value: f64) -> Id {
            self.constant(dtype::FLOAT, vec![], Values::from_f64s(&[value]))
        }

        fn op(&mut self, op: &str, attrs: Vec<(&str, AttrValue)>, children: &[Id], elem: i32, dims: Vec<Dim>) -> Id {
            let id = self.egraph.add(ONode::op(Head::new(op, attrs), children.to_vec()));
            add_type(&mut self.egraph, id, TyInfo::tensor(elem, dims));
            id
        }

        /// `Range(start, start + n, 1)` of length `n`.
        fn range(&mut self, start: i64, n: Dim) -> Id {
            let (a, limit, one) = (self.scalar(start), self.input(dtype::INT64, vec![]), self.scalar(1));
            self.op("Range", vec![], &[a, limit, one], dtype::INT64, vec![n])
        }

        fn unsqueeze(&mut self, x: Id, axes: &[i64], dims: Vec<Dim>) -> Id {
            let axes = self.ints(axes);
            self.op("Unsqueeze", vec![], &[x, axes], dtype::INT64, dims)
        }

        fn prove(&mut self, m: Id) -> Option<BoolMask> {
            self.egraph.rebuild();
            let view = self.egraph.clone();
            let rw = Rw { view: &view, egraph: &mut self.egraph, round: next_round() };
            prove_mask(&rw, m)
        }

        /// `k <= q + offset` over `[q_len, k_len]`, from two position
        /// vectors: `Unsqueeze(Range(0, Sk), 0) <= Unsqueeze(Range(start, ..), 1)`.
        fn positions_mask(&mut self, q_start: i64, q: Dim, k: Dim, op: &str) -> Id {
            let qr = self.range(q_start, q.clone());
            let kr = self.range(0, k.clone());
            let qcol = self.unsqueeze(qr, &[1], vec![q.clone(), s(1)]);
            let krow = self.unsqueeze(kr, &[0], vec![s(1), k.clone()]);
            self.op(op, vec![], &[krow, qcol], dtype::BOOL, vec![q, k])
        }
    }

    #[test]
    fn causal_from_positions() {
        let mut g = Graph::new();
        let m = g.positions_mask(0, sym("s0"), sym("s0"), "LessOrEqual");
        assert_eq!(g.prove(m), Some(BoolMask::Causal(0)));
    }

    /// A decode step: query positions start at the cache length, so the
    /// pattern is `k - q <= past` (the offset is read from the Range).
    #[test]
    fn causal_with_offset() {
        let mut g = Graph::new();
        let m = g.positions_mask(7, s(3), s(10), "LessOrEqual");
        assert_eq!(g.prove(m), Some(BoolMask::Causal(7)));
        let strict = g.positions_mask(0, s(4), s(4), "Less");
        assert_eq!(g.prove(strict), Some(BoolMask::Causal(-1)));
    }

    /// `k >= q` is the upper triangle: not the causal pattern.
    #[test]
    fn upper_triangle_is_not_causal() {
        let mut g = Graph::new();
        let m = g.positions_mask(0, s(4), s(4), "GreaterOrEqual");
        assert_eq!(g.prove(m), None);
    }

    #[test]
    fn trilu_of_all_true() {
        let mut g = Graph::new();
        let ones = g.constant(dtype::BOOL, vec![], Values::Ints(vec![1]));
        let shape = g.ints(&[5, 5]);
        let full = g.op("Expand", vec![], &[ones, shape], dtype::BOOL, vec![s(5), s(5)]);
        let lower = g.op("Trilu", vec![("upper", AttrValue::Int(0))], &[full], dtype::BOOL, vec![s(5), s(5)]);
        assert_eq!(g.prove(lower), Some(BoolMask::Causal(0)));
        let upper = g.op("Trilu", vec![("upper", AttrValue::Int(1))], &[full], dtype::BOOL, vec![s(5), s(5)]);
        assert_eq!(g.prove(upper), None);
    }

    /// nn.Transformer's square subsequent mask: -inf above the diagonal.
    #[test]
    fn additive_upper_trilu_of_minus_infinity() {
        let mut g = Graph::new();
        let inf = g.float_scalar(f64::NEG_INFINITY);
        let shape = g.ints(&[6, 6]);
        let full = g.op("Expand", vec![], &[inf, shape], dtype::FLOAT, vec![s(6), s(6)]);
        let one = g.ints(&[1]);
        let mask = g.op("Trilu", vec![("upper", AttrValue::Int(1))], &[full, one], dtype::FLOAT, vec![s(6), s(6)]);
        assert_eq!(g.prove(mask), Some(BoolMask::Causal(0)));
    }

    /// A comparison whose result is the same everywhere over the index box.
    #[test]
    fn constant_comparisons() {
        let mut g = Graph::new();
        let kr = g.range(0, s(4));
        let limit = g.scalar(4);
        let all = g.op("Less", vec![], &[kr, limit], dtype::BOOL, vec![s(4)]);
        assert_eq!(g.prove(all), Some(BoolMask::All(true)));
        let limit = g.scalar(0);
        let none = g.op("Less", vec![], &[kr, limit], dtype::BOOL, vec![s(4)]);
        assert_eq!(g.prove(none), Some(BoolMask::All(false)));
        // A symbolic length: k < 4 is not provably everywhere true.
        let kr = g.range(0, sym("s1"));
        let limit = g.scalar(4);
        let unknown = g.op("Less", vec![], &[kr, limit], dtype::BOOL, vec![sym("s1")]);
        assert_eq!(g.prove(unknown), None);
    }

    /// Query positions of symbolic length `s2` compared with key positions
    /// already expanded to `[s4, s3]`: `s2` may be 1 at run time and then
    /// broadcast over `s4` rows (every row the same query position): not
    /// causal. Different names prove nothing either way. With the same name
    /// (`s4` both), or with the other operand of size 1 on that axis (then
    /// the result's size is `s2` whatever it is called), the proof holds.
    #[test]
    fn symbolic_dim_that_may_broadcast_is_no_proof() {
        let mut g = Graph::new();
        let qr = g.range(0, sym("s2"));
        let kr = g.range(0, sym("s3"));
        let qcol = g.unsqueeze(qr, &[1], vec![sym("s2"), s(1)]);
        let krow = g.unsqueeze(kr, &[0], vec![s(1), sym("s3")]);
        let shape = g.input(dtype::INT64, vec![s(2)]);
        let kexp = g.op("Expand", vec![], &[krow, shape], dtype::INT64, vec![sym("s4"), sym("s3")]);
        let m = g.op("LessOrEqual", vec![], &[kexp, qcol], dtype::BOOL, vec![sym("s4"), sym("s3")]);
        assert_eq!(g.prove(m), None);
        // The key row of size 1 on the query axis: the result has s2 rows.
        let m = g.op("LessOrEqual", vec![], &[krow, qcol], dtype::BOOL, vec![sym("s4"), sym("s3")]);
        assert_eq!(g.prove(m), Some(BoolMask::Causal(0)));
        // Named alike: the same size.
        let qr = g.range(0, sym("s4"));
        let qcol = g.unsqueeze(qr, &[1], vec![sym("s4"), s(1)]);
        let m = g.op("LessOrEqual", vec![], &[kexp, qcol], dtype::BOOL, vec![sym("s4"), sym("s3")]);
        assert_eq!(g.prove(m), Some(BoolMask::Causal(0)));
    }

    /// And of a causal mask with all-true keeps it; with a different
    /// offset it is no proof.
    #[test]
    fn and_or_combinations() {
        let mut g = Graph::new();
        let causal = g.positions_mask(0, s(4), s(4), "LessOrEqual");
        let ones = g.constant(dtype::BOOL, vec![], Values::Ints(vec![1]));
        let both = g.op("And", vec![], &[causal, ones], dtype::BOOL, vec![s(4), s(4)]);
        assert_eq!(g.prove(both), Some(BoolMask::Causal(0)));
        let either = g.op("Or", vec![], &[causal, ones], dtype::BOOL, vec![s(4), s(4)]);
        assert_eq!(g.prove(either), Some(BoolMask::All(true)));
        let shifted = g.positions_mask(1, s(4), s(4), "LessOrEqual");
        let mixed = g.op("And", vec![], &[causal, shifted], dtype::BOOL, vec![s(4), s(4)]);
        assert_eq!(g.prove(mixed), None);
    }

    /// Hugging Face's padding mask: `p[b, k]` read by GatherND at each
    /// element's batch and key index.
    #[test]
    fn padding_mask_by_gather_nd() {
        let mut g = Graph::new();
        let (b, h, q, k) = (sym("b"), s(1), sym("q"), sym("k"));
        let p = g.input(dtype::BOOL, vec![b.clone(), k.clone()]);
        let dims4 = vec![b.clone(), h.clone(), q.clone(), k.clone()];
        let bi = g.range(0, b.clone());
        let ki = g.range(0, k.clone());
        let b4 = g.unsqueeze(bi, &[1, 2, 3], vec![b.clone(), s(1), s(1), s(1)]);
        let k4 = g.unsqueeze(ki, &[0, 1, 2], vec![s(1), s(1), s(1), k.clone()]);
        let shape = g.input(dtype::INT64, vec![s(4)]);
        let be = g.op("Expand", vec![], &[b4, shape], dtype::INT64, dims4.clone());
        let ke = g.op("Expand", vec![], &[k4, shape], dtype::INT64, dims4.clone());
        let mut dims5 = dims4.clone();
        dims5.push(s(1));
        let b5 = g.unsqueeze(be, &[-1], dims5.clone());
        let k5 = g.unsqueeze(ke, &[-1], dims5.clone());
        let mut idx_dims = dims4.clone();
        idx_dims.push(s(2));
        let idx = g.op("Concat", vec![("axis", AttrValue::Int(-1))], &[b5, k5], dtype::INT64, idx_dims);
        let m = g.op("GatherND", vec![], &[p, idx], dtype::BOOL, dims4.clone());
        // Expand takes a shape with an entry per axis; with run-time entries
        // the varying axes must keep their size, which the dims prove here.
        assert_eq!(g.prove(m), Some(BoolMask::Padding(p)));
        // Key and batch index swapped: not the padding mask.
        let idx_swapped_dims = {
            let mut d = dims4.clone();
            d.push(s(2));
            d
        };
        let swapped = g.op("Concat", vec![("axis", AttrValue::Int(-1))], &[k5, b5], dtype::INT64, idx_swapped_dims);
        let wrong = g.op("GatherND", vec![], &[p, swapped], dtype::BOOL, dims4);
        assert_eq!(g.prove(wrong), None);
    }
}
