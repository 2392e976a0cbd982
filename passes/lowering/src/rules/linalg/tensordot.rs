use super::prod_common::{concat_i64, reshape, shape_part, shape_prod, transpose};
use super::common::dim_size;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.tensordot.default", tensordot)
    .samples(&[
        "self: T[2,3,4]; other: T[3,4,5]; dims_self: [1, 2]; dims_other: [0, 1]",
        "self: T[2,3,4]; other: T[4,2]; dims_self: [-1, 0]; dims_other: [0, 1]",
        "self: T[2,3]; other: T[4,5]; dims_self: []; dims_other: []",
        "self: T[2,3]; other: T[3,2]; dims_self: [0, 1]; dims_other: [1, 0]",
        "self: T[0,3]; other: T[3,2]; dims_self: [1]; dims_other: [0]",
        "self: T[1,1,1]; other: T[2,1,2]; dims_self: [0, 1]; dims_other: [2, 0]",
        "self: T[3,2]; other: T[1,4]; dims_self: [0]; dims_other: [0]",
    ])
    .dtypes(&["f32", "f64", "i64"])];

/// `self` permuted to `[free..., contracted...]` and flattened to `[F, K]`,
/// `other` to `[K, G]` (contracted dims in the order paired with self's),
/// `MatMul`, reshaped to `self.free + other.free`.
fn tensordot<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let a = c.tensor_as("self", el)?;
    let o = c.tensor_as("other", el)?;
    let (ra, ro) = (c.rank(c.args.tensor("self")?)?, c.rank(c.args.tensor("other")?)?);
    let ds = c.args.ints("dims_self")?;
    let dother = c.args.ints("dims_other")?;
    if ds.len() != dother.len() {
        return Err(format!("tensordot: {} dims for self but {} for other", ds.len(), dother.len()));
    }
    let ds: Vec<usize> = ds.iter().map(|&d| c.dim(d, ra)).collect::<Result<_, _>>()?;
    let dother: Vec<usize> = dother.iter().map(|&d| c.dim(d, ro)).collect::<Result<_, _>>()?;
    let unique = |v: &[usize]| v.iter().enumerate().all(|(i, d)| !v[..i].contains(d));
    if !unique(&ds) || !unique(&dother) {
        return Err("tensordot: a dim appears twice".into());
    }
    // torch sums a contracted dim of size 1 against the other operand's dim
    // first (the other side summed, keepdim).
    let dims_a = builder::dims(c.args.tensor("self")?.r#type()).ok_or("unknown rank")?;
    let dims_o = builder::dims(c.args.tensor("other")?.r#type()).ok_or("unknown rank")?;
    let (a0, o0) = (a, o);
    let (mut a, mut o) = (a, o);
    for (&da, &dob) in ds.iter().zip(&dother) {
        match (dims_a[da], dims_o[dob]) {
            (_, Some(1)) => {
                if dims_a[da] != Some(1) {
                    a = c.reduce(crate::Reduction::Sum, a, Some(&[da as i64]), true, c.b.unranked(el))?;
                }
            }
            (Some(1), _) => o = c.reduce(crate::Reduction::Sum, o, Some(&[dob as i64]), true, c.b.unranked(el))?,
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => return Err(format!("tensordot: contracted dims of sizes {x} and {y}")),
            // A dynamic size: which side is 1 is known at run time only.
            // Expanding each side to the other's size there gives torch's
            // sum (a size-1 side meets every element of the other).
            _ => {
                a = expand_dim(c, a, ra, da, dim_size(c, o0, dob as i64)?)?;
                o = expand_dim(c, o, ro, dob, dim_size(c, a0, da as i64)?)?;
            }
        }
    }
    let free_a: Vec<usize> = (0..ra).filter(|d| !ds.contains(d)).collect();
    let free_o: Vec<usize> = (0..ro).filter(|d| !dother.contains(d)).collect();
    let perm_a: Vec<i64> = free_a.iter().chain(&ds).map(|&d| d as i64).collect();
    let perm_o: Vec<i64> = dother.iter().chain(&free_o).map(|&d| d as i64).collect();
    let ap = if ra > 1 { transpose(c, a, &perm_a)? } else { a };
    let op = if ro > 1 { transpose(c, o, &perm_o)? } else { o };
    let nfa = free_a.len() as i64;
    let nc = ds.len() as i64;
    let f = shape_prod(c, ap, 0, Some(nfa))?;
    let k = shape_prod(c, ap, nfa, None)?;
    let g = shape_prod(c, op, nc, None)?;
    let a2 = reshape(c, ap, concat_i64(c, &[f, k])?)?;
    let o2 = reshape(c, op, concat_i64(c, &[k, g])?)?;
    let m = c.b.onnx().mat_mul(a2, o2).like(a)?;
    let mut parts = Vec::new();
    if nfa > 0 {
        parts.push(shape_part(c, ap, 0, Some(nfa))?);
    }
    if !free_o.is_empty() {
        parts.push(shape_part(c, op, nc, None)?);
    }
    let shape = if parts.is_empty() { c.b.const_i64s(&[])? } else { concat_i64(c, &parts)? };
    Ok(vec![c.b.onnx().reshape(m, shape, None).typed(c.result_type(0)?)?])
}

/// `x` broadcast along `dim` to `size` (1-D, one element): a size-1 dim
/// grows, a dim of that size stays.
fn expand_dim<'c, 'a>(
    c: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    rank: usize,
    dim: usize,
    size: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let mut parts = Vec::new();
    if dim > 0 {
        parts.push(b.const_i64s(&vec![1; dim])?);
    }
    parts.push(size);
    if dim + 1 < rank {
        parts.push(b.const_i64s(&vec![1; rank - dim - 1])?);
    }
    b.onnx().expand(x, concat_i64(c, &parts)?).like(x)
}
