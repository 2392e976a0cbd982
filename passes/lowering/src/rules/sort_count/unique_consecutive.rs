use super::math_common::bool_type;
use super::tensor_common::const_index;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.unique_consecutive.default", unique_consecutive)
    .samples(&[
        "self: i64[12]{0..2}",
        "self: i64[3,4]{0..2}; return_inverse: true; return_counts: true",
        "self: i64[10]{0..3}; return_counts: true",
        "self: T[6]; return_inverse: true",
        "self: T[]; return_inverse: true; return_counts: true",
        "self: T[0]; return_inverse: true; return_counts: true",
        "self: i64[6,2]{0..2}; dim: 0; return_inverse: true; return_counts: true",
        "self: i64[2,7]{0..2}; dim: -1; return_counts: true",
        "self: i64[5,2]{0..2}; dim: 0",
        "self: T[5,3]; dim: 0; return_inverse: true",
    ])
    .dtypes(&["f32", "i64", "i32", "f64", "bool", "f16", "bf16"])];

/// Collapses runs of equal consecutive elements (of the flattened tensor,
/// or of slices along `dim`): a "new run" flag (first element, or `!=` its
/// predecessor, so NaNs never merge), `Compress` for the values, a cumulative
/// sum for the inverse and the run starts' differences for the counts.
/// Outputs not asked for are empty int64 tensors, like torch's.
fn unique_consecutive<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let i64s = b.unranked(b.i64_type());
    let bools = b.unranked(bool_type(ctx));
    let (data, axis) = match ctx.args.opt_int("dim")? {
        None => (b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?, 0usize),
        Some(d) => {
            if rank == 0 {
                return Err("unique_consecutive with a dim needs a tensor of rank >= 1".into());
            }
            if builder::rank(ctx.result_type(0)?) != Some(rank) {
                return Err(format!(
                    "unique_consecutive with a dim: torch.export typed the values with a rank other than the input's {rank} \
                     (its shape function is wrong for 1-D inputs), so no correct output type exists"
                ));
            }
            (x, ctx.dim(d, rank)?)
        }
    };
    let ax = axis as i64;
    let size = match builder::dims(x.r#type()) {
        Some(d) if ctx.args.is_none("dim")? => d.into_iter().product::<Option<i64>>(),
        Some(d) => d[axis],
        None => None,
    };
    // With a dim, torch computes the inverse and counts whatever the flags
    // say; an output typed `tensor<0xi64>` while there are slices is one it
    // left empty.
    let with_dim = !ctx.args.is_none("dim")?;
    let left_empty = |i: usize| -> Result<bool, String> {
        Ok(builder::dims(ctx.result_type(i)?) == Some(vec![Some(0)]) && size != Some(0))
    };
    let want_inverse = if with_dim { !left_empty(1)? } else { ctx.args.bool("return_inverse")? };
    let want_counts = if with_dim { !left_empty(2)? } else { ctx.args.bool("return_counts")? };
    let empty = || const_index(ctx, &[0], &[]);
    if size == Some(0) {
        let values = ctx.b.onnx().identity(data).typed(ctx.result_type(0)?)?;
        let inverse = if want_inverse {
            let shape = if ctx.args.is_none("dim")? { b.shape(x)? } else { b.const_i64s(&[0])? };
            b.onnx().expand(b.const_i64_scalar(0)?, shape).typed(ctx.result_type(1)?)?
        } else {
            empty()?
        };
        let counts = empty()?;
        return Ok(vec![values, inverse, counts]);
    }
    let axes = b.const_i64s(&[ax])?;
    let head = b.onnx().slice(data, b.const_i64s(&[1])?, b.const_i64s(&[i64::MAX])?, Some(axes), None).like(data)?;
    let prev = b.onnx().slice(data, b.const_i64s(&[0])?, b.const_i64s(&[-1])?, Some(axes), None).like(data)?;
    let same = b.onnx().equal(head, prev).typed(bools)?;
    let differs = b.onnx().not(same).typed(bools)?;
    let differs = b.cast(differs, b.i64_type())?;
    // a slice differs when any of its elements does
    let data_rank = if with_dim { rank } else { 1 };
    let other: Vec<i64> = (0..data_rank as i64).filter(|&a| a != ax).collect();
    let differs = if other.is_empty() { differs } else { ctx.reduce(crate::Reduction::Max, differs, Some(&other), false, i64s)? };
    let new_run = b.onnx().concat(&[b.const_i64s(&[1])?, differs], 0).typed(i64s)?;
    let flag = b.cast(new_run, bool_type(ctx))?;
    let values = super::common::compress(ctx, data, flag, ax, ctx.result_type(0)?)?;
    let inverse = if want_inverse {
        let run = b.onnx().cum_sum(new_run, b.const_i64_scalar(0)?, None, None).typed(i64s)?;
        let run = b.onnx().sub(run, b.const_i64_scalar(1)?).typed(i64s)?;
        if ctx.args.is_none("dim")? {
            b.onnx().reshape(run, b.shape(x)?, None).typed(ctx.result_type(1)?)?
        } else {
            b.onnx().identity(run).typed(ctx.result_type(1)?)?
        }
    } else {
        empty()?
    };
    let counts = if want_counts {
        let starts = b.onnx().non_zero(flag).typed(i64s)?;
        let starts = b.onnx().reshape(starts, b.const_i64s(&[-1])?, None).typed(i64s)?;
        let n = b.onnx().shape(data, Some(ax + 1), Some(ax)).typed(i64s)?;
        let ends = b.onnx().concat(&[
                b.onnx().slice(starts, b.const_i64s(&[1])?, b.const_i64s(&[i64::MAX])?, Some(b.const_i64s(&[0])?), None).typed(i64s)?,
                n,
            ], 0).typed(i64s)?;
        b.onnx().sub(ends, starts).typed(ctx.result_type(2)?)?
    } else {
        empty()?
    };
    Ok(vec![values, inverse, counts])
}
