use super::math_common::{bool_type, elem};
use crate::{builder, Ctx, Rule};
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
        "self: u8[3,6]{126..130}; dim: 1",
        "self: u8[2,7]{200..203}",
        "self: bool[3,5]",
        "self: bool[4,3]; dim: 0; keepdim: true",
    ])
    .dtypes(&["f32", "i64", "i32", "f64", "f16", "i8", "i16"])];

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
        let i = b.onnx().identity(b.const_i64_scalar(0)?).typed(ctx.result_type(1)?)?;
        return Ok(vec![ctx.b.onnx().identity(x).typed(ctx.result_type(0)?)?, i]);
    }
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    if dims[dim] == Some(0) {
        return Err("mode along an empty dim is undefined (torch refuses it)".into());
    }
    // bool: counted as uint8 (false < true as 0 < 1), the value cast back.
    let is_bool = builder::is_bool(elem(x)?);
    let x = if is_bool {
        b.cast(x, melior::ir::r#type::IntegerType::unsigned(b.context, 8).into())?
    } else {
        x
    };
    let element = elem(x)?;
    let d = dim as i64;
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    // counts[.., i, ..] = #{j : x[.., j, ..] == x[.., i, ..]}
    let a = ctx.unsqueeze(x, &[d + 1])?; // [.., n, 1, ..]
    let c = ctx.unsqueeze(x, &[d])?; // [.., 1, n, ..]
    let eq = b.onnx().equal(a, c).typed(bools)?;
    let eq = b.cast(eq, b.i64_type())?;
    let counts = ctx.reduce(crate::Reduction::Sum, eq, Some(&[d + 1]), false, i64s)?;
    let top = ctx.reduce(crate::Reduction::Max, counts, Some(&[d]), true, i64s)?;
    let is_top = b.onnx().equal(counts, top).typed(bools)?;
    // smallest value among the most frequent
    // The type's largest value (an unsigned type's is 2^w - 1: with the
    // signed 127 a uint8 mode of 200 read 127).
    let big = if builder::is_float(element) {
        f64::INFINITY
    } else {
        let raw = melior::ir::r#type::TypeLike::to_raw(&element);
        let width = unsafe { mlir_sys::mlirIntegerTypeGetWidth(raw) } as i32;
        if unsafe { mlir_sys::mlirIntegerTypeIsUnsigned(raw) } {
            2f64.powi(width) - 1.0
        } else {
            2f64.powi(width - 1) - 1.0
        }
    };
    let big = b.const_scalar(element, big)?;
    let cand = b.onnx().where_(is_top, x, big).like(x)?;
    let value = ctx.reduce(crate::Reduction::Min, cand, Some(&[d]), true, b.unranked(element))?;
    // largest index holding it
    let n = b.onnx().shape(x, Some(d + 1), Some(d)).typed(i64s)?;
    let n = ctx.squeeze(n, &[0])?;
    let range = b.onnx().range(b.const_i64_scalar(0)?, n, b.const_i64_scalar(1)?, None).typed(i64s)?;
    let trailing: Vec<i64> = (1..(rank - dim) as i64).collect();
    let range = if trailing.is_empty() { range } else { ctx.unsqueeze(range, &trailing)? };
    let hit = b.onnx().equal(x, value).typed(bools)?;
    let hit = b.onnx().and(hit, is_top).typed(bools)?;
    let minus = b.const_i64_scalar(-1)?;
    let at = b.onnx().where_(hit, range, minus).typed(i64s)?;
    let index = ctx.reduce(crate::Reduction::Max, at, Some(&[d]), keepdim, i64s)?;
    let value = if keepdim { value } else { ctx.squeeze(value, &[d])? };
    let value = if is_bool { b.cast(value, ctx.result_element(0)?)? } else { value };
    Ok(vec![ctx.b.onnx().identity(value).typed(ctx.result_type(0)?)?, b.onnx().identity(index).typed(ctx.result_type(1)?)?])
}
