use super::math_common::{bool_type, elem};
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.mode.default", mode)
    .samples(&[
        "self: i64[3,8]{0..3}",
        "self: i64[8,3]{0..4}; dim: 0; keepdim: true",
        "self: i64[2,3,6]{0..2}; dim: 1",
        "self: T[3,5]",
        "self: T[6]; dim: 0",
        "self: T[]",
        "self: T[]; dim: -1; keepdim: true",
        "self: T[0,3]; dim: 1",
    ])
    .dtypes(&["f32", "i64", "i32", "f64"])];

/// The most frequent value along `dim` (ties: the smallest such value) and
/// an index of it. torch's CPU kernel sorts each row (std::sort, insertion
/// sort for rows of at most 16 elements, which keeps equal values in index
/// order) and reports the index of the last equal element: the largest
/// index holding the mode, which is what this gives. Counts come from a
/// pairwise Equal along `dim` (NaN equals nothing, so it is never a mode
/// while a non-NaN value exists).
fn mode<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let keepdim = ctx.args.bool("keepdim")?;
    if rank == 0 {
        let i = b.op("Identity", &[b.const_i64_scalar(0)?], &[], ctx.result_type(1)?)?;
        return Ok(vec![ctx.op("Identity", &[x], &[])?, i]);
    }
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    if dims[dim] == Some(0) {
        return Err("mode along an empty dim is undefined (torch refuses it)".into());
    }
    let element = elem(x)?;
    if builder::is_bool(element) {
        return Err("mode of a bool tensor is not supported".into());
    }
    let d = dim as i64;
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    // counts[.., i, ..] = #{j : x[.., j, ..] == x[.., i, ..]}
    let a = ctx.unsqueeze(x, &[d + 1])?; // [.., n, 1, ..]
    let c = ctx.unsqueeze(x, &[d])?; // [.., 1, n, ..]
    let eq = b.op("Equal", &[a, c], &[], bools)?;
    let eq = b.cast(eq, b.i64_type())?;
    let counts = ctx.reduce("ReduceSum", eq, Some(&[d + 1]), false, i64s)?;
    let top = ctx.reduce("ReduceMax", counts, Some(&[d]), true, i64s)?;
    let is_top = b.op("Equal", &[counts, top], &[], bools)?;
    // smallest value among the most frequent
    let big = if builder::is_float(element) {
        f64::INFINITY
    } else {
        let width = unsafe { mlir_sys::mlirIntegerTypeGetWidth(melior::ir::r#type::TypeLike::to_raw(&element)) };
        2f64.powi(width as i32 - 1) - 1.0
    };
    let big = b.const_scalar(element, big)?;
    let cand = b.op_like("Where", &[is_top, x, big], &[], x)?;
    let value = ctx.reduce("ReduceMin", cand, Some(&[d]), true, b.unranked(element))?;
    // largest index holding it
    let n = b.op("Shape", &[x], &[("start", Attr::Int(d)), ("end", Attr::Int(d + 1))], i64s)?;
    let n = ctx.squeeze(n, &[0])?;
    let range = b.op("Range", &[b.const_i64_scalar(0)?, n, b.const_i64_scalar(1)?], &[], i64s)?;
    let trailing: Vec<i64> = (1..(rank - dim) as i64).collect();
    let range = if trailing.is_empty() { range } else { ctx.unsqueeze(range, &trailing)? };
    let hit = b.op("Equal", &[x, value], &[], bools)?;
    let hit = b.op("And", &[hit, is_top], &[], bools)?;
    let minus = b.const_i64_scalar(-1)?;
    let at = b.op("Where", &[hit, range, minus], &[], i64s)?;
    let index = ctx.reduce("ReduceMax", at, Some(&[d]), keepdim, i64s)?;
    let value = if keepdim { value } else { ctx.squeeze(value, &[d])? };
    Ok(vec![ctx.op("Identity", &[value], &[])?, b.op("Identity", &[index], &[], ctx.result_type(1)?)?])
}
