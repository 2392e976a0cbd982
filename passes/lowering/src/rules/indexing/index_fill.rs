use super::tensor_common::{concat, index_along, scatter_reduce, shape_part};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.index_fill.int_Scalar", index_fill)
        .samples(&[
            "self: T[5,3]; dim: 0; index: i64[2]{0..5}; value: 2",
            "self: T[3,5]; dim: -1; index: i64[3]{-5..5}; value: -1.5",
            "self: T[3,5]; dim: 1; index: i64[0]; value: 1",
            "self: T[]; dim: 0; index: i64[1]{0..1}; value: 3",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8"]),
    Rule::custom("aten.index_fill.int_Tensor", index_fill)
        .samples(&["self: T[5,3]; dim: 0; index: i64[2]{0..5}; value: T[]", "self: T[3,5]; dim: 1; index: i64[]{0..5}; value: T[]"])
        .dtypes(&["f32", "i64", "i32", "f64", "f16", "bf16", "i8", "u8", "bool"]),
];

/// The slices `index` along `dim` set to `value`: `ScatterElements` of the
/// value expanded to `self`'s shape with `dim` of the index's length
/// (negative indices count from the end, like torch).
fn index_fill<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = ctx.result_element(0)?;
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let value = ctx.tensor_as("value", element)?;
    let index = ctx.args.tensor("index")?;
    let (x1, rank1) = if rank == 0 { (b.onnx().reshape(x, b.const_i64s(&[1])?, None).like(x)?, 1) } else { (x, rank) };
    let flat = b.onnx().reshape(index, b.const_i64s(&[-1])?, None).like(index)?;
    let mut parts = Vec::new();
    if dim > 0 {
        parts.push(shape_part(ctx, x1, 0, Some(dim as i64))?);
    }
    parts.push(b.shape(flat)?);
    if dim + 1 < rank1 {
        parts.push(shape_part(ctx, x1, dim as i64 + 1, None)?);
    }
    let region = concat(ctx, &parts)?;
    let updates = b.onnx().expand(value, region).like(x)?;
    let idx = index_along(ctx, flat, dim, rank1, region)?;
    let r = scatter_reduce(ctx, x1, dim, idx, updates, "none", true)?;
    super::index_add_common::finish(ctx, r, rank)
}
