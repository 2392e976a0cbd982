use super::diagonal_common::{diagonal_dims, diagonal_positions, dynamic_positions, flatten_pair, flatten_pair_dynamic};
use super::tensor_common::const_index;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.diagonal_scatter.default", diagonal_scatter)
    .samples(&[
        "self: T[3,4]; src: T[3]",
        "self: T[3,4]; src: T[3]; offset: 1",
        "self: T[3,4]; src: T[1]; offset: -2",
        "self: T[2,3,4]; src: T[2,3]; dim1: 1; dim2: 2",
        "self: T[2,3,4]; src: T[3,1]; offset: 1; dim1: -1; dim2: 0",
        "self: T[3,4]; src: T[0]; offset: 4",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// `src` written on the diagonal `torch.diagonal(self, offset, dim1, dim2)`
/// views: `ScatterElements` into `self` with dims d1, d2 moved last and
/// merged, then back.
fn diagonal_scatter<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    let src = ctx.tensor_as("src", ctx.result_element(0)?)?;
    let rank = ctx.rank(x)?;
    let (d1, d2, perm) = diagonal_dims(ctx, rank, ctx.args.int("dim1")?, ctx.args.int("dim2")?)?;
    let offset = ctx.args.int("offset")?;
    let dims = builder::dims(x.r#type()).ok_or("operand has an unknown rank")?;
    let (flat, idx) = if dims[d1].is_some() && dims[d2].is_some() {
        let (flat, n1, n2) = flatten_pair(ctx, x, d1, d2, &perm)?;
        let positions = diagonal_positions(n1, n2, offset);
        (flat, const_index(ctx, &[positions.len() as u64], &positions)?)
    } else {
        // A dynamic dim in the pair: positions computed in the graph.
        let (flat, n1, n2) = flatten_pair_dynamic(ctx, x, &perm)?;
        (flat, dynamic_positions(ctx, n1, n2, offset)?)
    };
    let src_shape = b.shape(src)?;
    let idx = b.onnx().expand(idx, src_shape).typed(b.unranked(b.i64_type()))?;
    let axis = rank as i64 - 2;
    let scattered = b.onnx().scatter_elements(flat, idx, src, Some(axis), None).like(x)?;
    // Unmerge the pair, then undo the permutation.
    let moved = b.onnx().transpose(x, Some(&perm.clone())).like(x)?;
    let moved_shape = b.shape(moved)?;
    let unflat = b.onnx().reshape(scattered, moved_shape, Some(1)).like(x)?;
    let mut inverse = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as i64;
    }
    Ok(vec![ctx.b.onnx().transpose(unflat, Some(&inverse)).typed(ctx.result_type(0)?)?])
}
