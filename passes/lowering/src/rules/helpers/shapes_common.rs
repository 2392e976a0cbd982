//! Pieces shared by the shape rules added for issue 7 (atleast_*d, the
//! *stack and *split families, flips, rot90, the real-only identities).

use crate::{builder, Ctx};
use melior::ir::r#type::TypeLike as _;
use melior::ir::{Value, ValueLike};

/// `torch.atleast_{n}d` of `x` (n = 1, 2, 3): a 0-d tensor becomes
/// `[1]*n`, a 1-D `[N]` becomes `[1, N]` (n = 2) or `[1, N, 1]` (n = 3), a
/// 2-D `[M, N]` becomes `[M, N, 1]` (n = 3); larger ranks are unchanged.
pub fn atleast<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, n: usize) -> Result<Value<'c, 'a>, String> {
    let rank = ctx.rank(x)?;
    let axes: &[i64] = match (n, rank) {
        (_, r) if r >= n => return Ok(x),
        (1, 0) => &[0],
        (2, 0) => &[0, 1],
        (2, 1) => &[0],
        (3, 0) => &[0, 1, 2],
        (3, 1) => &[0, 2],
        (3, 2) => &[2],
        _ => return Err(format!("atleast_{n}d is not defined")),
    };
    ctx.unsqueeze(x, axes)
}

/// `x` reversed along each of `dims` (non-negative): `Slice` with step -1.
pub fn reverse<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>, dims: &[i64]) -> Result<Value<'c, 'a>, String> {
    if dims.is_empty() {
        return Ok(x);
    }
    let b = &ctx.b;
    let n = dims.len();
    let starts = b.const_i64s(&vec![-1; n])?;
    let ends = b.const_i64s(&vec![i64::MIN; n])?;
    let axes = b.const_i64s(dims)?;
    let steps = b.const_i64s(&vec![-1; n])?;
    b.onnx().slice(x, starts, ends, Some(axes), Some(steps)).like(x)
}

/// Transpose swapping dims `d0` and `d1` of a tensor of rank `rank`.
pub fn swap<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    rank: usize,
    d0: usize,
    d1: usize,
) -> Result<Value<'c, 'a>, String> {
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(d0, d1);
    ctx.b.onnx().transpose(x, Some(&perm)).like(x)
}

/// torch.tensor_split by indices along `dim`: piece k is
/// `x[indices[k-1] : indices[k]]` (first from 0, last to the end), with
/// Python slice semantics (negative indices count from the end, bounds
/// clamp, a start past the end gives an empty piece), which is ONNX
/// `Slice`'s. One value per aten result, typed like them.
pub fn split_at<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: i64,
    indices: &[i64],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    let d = ctx.dim(dim, rank)? as i64;
    if rank == 0 {
        return Err("tensor_split needs a tensor of rank >= 1".into());
    }
    let count = melior::ir::operation::OperationLike::result_count(&ctx.args.op);
    if count != indices.len() + 1 {
        return Err(format!("tensor_split: {} indices but {count} results", indices.len()));
    }
    let axes = b.const_i64s(&[d])?;
    let mut out = Vec::new();
    for k in 0..=indices.len() {
        let start = if k == 0 { 0 } else { indices[k - 1] };
        let end = if k == indices.len() { i64::MAX } else { indices[k] };
        let ty = ctx.result_type(k)?;
        let (s, e) = (b.const_i64s(&[start])?, b.const_i64s(&[end])?);
        out.push(b.onnx().slice(x, s, e, Some(axes), None).typed(ty)?);
    }
    Ok(out)
}

/// Splits `x` along `dim` into the aten results when their sizes along
/// `dim` are static and add up to the (static) length of `dim`: then the
/// pieces are consecutive (a piece of an out-of-order split would count
/// elements twice), whatever indices or sections produced them.
pub fn split_by_result_sizes<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: i64,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let rank = ctx.rank(x)?;
    if rank == 0 {
        return Err("tensor_split needs a tensor of rank >= 1".into());
    }
    let d = ctx.dim(dim, rank)?;
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    let len = dims[d].ok_or("tensor_split along a dynamic dim is not supported")?;
    let mut sizes = Vec::new();
    let mut types = Vec::new();
    for result in melior::ir::operation::OperationLike::results(&ctx.args.op) {
        let ty = result.r#type();
        let rd = builder::dims(ty).ok_or("result has an unknown rank")?;
        sizes
            .push(rd[d].ok_or(
                "tensor_split with data-dependent piece sizes (indices not known at export) is not supported",
            )?);
        types.push(ty);
    }
    if sizes.iter().sum::<i64>() != len {
        return Err("tensor_split pieces that overlap (unsorted indices) are not supported".into());
    }
    let split = ctx.b.const_i64s(&sizes)?;
    ctx.b.onnx().split(x, Some(split), Some(d as i64), None).results(&types)
}

/// Refuses complex tensors (the rules that use this are identities on real
/// tensors only).
pub fn real_only<'c, 'a>(x: Value<'c, 'a>, what: &str) -> Result<Value<'c, 'a>, String> {
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if unsafe { mlir_sys::mlirTypeIsAComplex(element.to_raw()) } {
        return Err(format!("{what} of a complex tensor is not supported"));
    }
    Ok(x)
}

/// torch's linspace over 0-d (tensor or number) bounds `start_name` and
/// `end_name`, computed in the graph: `step = (end - start) / (steps - 1)`,
/// the first half `start + step * i`, the second `end - step * (steps - 1 - i)`.
/// Float results compute in their own type (float16 in float32), like
/// torch's kernel; integer results truncate the bounds and compute in
/// double (`exponent_f64`: logspace's exponents, always double). Returns a
/// `[steps]` tensor of the compute type.
pub fn linspace_graph<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    start_name: &str,
    end_name: &str,
    steps: i64,
    exponent_f64: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    if steps < 0 {
        return Err(format!("number of steps must be non-negative, got {steps}"));
    }
    let result = ctx.result_element(0)?;
    let f64_type: melior::ir::Type = melior::ir::r#type::Type::float64(b.context);
    let compute = if exponent_f64 || !builder::is_float(result) {
        f64_type
    } else if result == melior::ir::r#type::Type::float16(b.context)
        || result == melior::ir::r#type::Type::bfloat16(b.context)
    {
        b.f32_type()
    } else {
        result
    };
    let scalar = |name: &str| -> Result<Value<'c, 'a>, String> {
        let v = ctx.tensor_as(name, compute)?;
        let v = b.onnx().reshape(v, b.const_i64s(&[])?, None).like(v)?;
        if builder::is_float(result) {
            return Ok(v);
        }
        // torch converts the bounds to the integer result type first.
        let t = b.cast(v, b.i64_type())?;
        b.cast(t, compute)
    };
    let (start, end) = (scalar(start_name)?, scalar(end_name)?);
    let like = b.unranked(compute);
    if steps == 0 {
        let (s, e, axes) = (b.const_i64s(&[0])?, b.const_i64s(&[0])?, b.const_i64s(&[0])?);
        let one = ctx.unsqueeze(start, &[0])?;
        return b.onnx().slice(one, s, e, Some(axes), None).typed(like);
    }
    if steps == 1 {
        return ctx.unsqueeze(start, &[0]);
    }
    let n = steps as u64;
    let i: Vec<f64> = (0..steps).map(|i| i as f64).collect();
    let j: Vec<f64> = (0..steps).map(|i| (steps - 1 - i) as f64).collect();
    let first: Vec<f64> = (0..steps).map(|i| (i < steps / 2) as i64 as f64).collect();
    let i = super::tensor_common::constant(ctx, compute, &[n], &i)?;
    let j = super::tensor_common::constant(ctx, compute, &[n], &j)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let first = super::tensor_common::constant(ctx, bool_type, &[n], &first)?;
    let span = b.onnx().sub(end, start).typed(like)?;
    let step = b.onnx().div(span, b.const_scalar(compute, (steps - 1) as f64)?).typed(like)?;
    let up = b.onnx().add(start, b.onnx().mul(step, i).typed(like)?).typed(like)?;
    let down = b.onnx().sub(end, b.onnx().mul(step, j).typed(like)?).typed(like)?;
    b.onnx().where_(first, up, down).typed(like)
}

/// torch.movedim: each source dim goes to its destination; the other dims
/// keep their order in the remaining places. A `Transpose`.
pub fn movedim<'c, 'a>(ctx: &Ctx<'c, 'a>, source: &[i64], destination: &[i64]) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if source.len() != destination.len() {
        return Err("movedim: source and destination must have the same number of dims".into());
    }
    let src: Vec<usize> = source.iter().map(|&d| ctx.dim(d, rank)).collect::<Result<_, _>>()?;
    let dst: Vec<usize> = destination.iter().map(|&d| ctx.dim(d, rank)).collect::<Result<_, _>>()?;
    for list in [&src, &dst] {
        let mut sorted = list.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != list.len() {
            return Err("movedim: repeated dim in source or destination".into());
        }
    }
    if rank == 0 {
        return Ok(vec![x]);
    }
    let mut perm: Vec<Option<i64>> = vec![None; rank];
    for (s, d) in src.iter().zip(&dst) {
        perm[*d] = Some(*s as i64);
    }
    let mut rest = (0..rank as i64).filter(|d| !src.contains(&(*d as usize)));
    let perm: Vec<i64> = perm.into_iter().map(|p| p.unwrap_or_else(|| rest.next().unwrap_or(0))).collect();
    if perm.iter().enumerate().all(|(i, &p)| i as i64 == p) {
        return Ok(vec![x]);
    }
    Ok(vec![ctx.b.onnx().transpose(x, Some(&perm)).typed(ctx.result_type(0)?)?])
}

/// `allowzero = 1` when a static size is 0 (an empty tensor: without it
/// ONNX would copy the input's dim); left out otherwise so that the
/// optimizer's view patterns (attention, rotary) still match.
pub(super) fn allowzero(size: &[crate::IntArg<'_, '_>]) -> Option<i64> {
    size.iter().any(|s| matches!(s, crate::IntArg::Static(0))).then_some(1)
}
