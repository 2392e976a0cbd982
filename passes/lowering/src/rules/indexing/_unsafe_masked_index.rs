use super::tensor_common::select;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

/// `_unsafe_masked_index(x, mask, indices, fill)`: `where(mask, x[indices],
/// fill)`, where `indices` may be out of bounds wherever `mask` is false.
/// Like torch's reference, each index is first clamped to `[-size, size-1]`
/// of its dim so that the gather is always in bounds; the masked-out values
/// are then replaced by `fill`.
pub const RULES: &[Rule] = &[Rule::custom("aten._unsafe_masked_index.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let indices = clamp_indices(c, x, &c.args.opt_tensors("indices")?)?;
    let given: Vec<(usize, Value)> = indices.iter().enumerate().filter_map(|(d, i)| i.map(|i| (d, i))).collect();
    if given.is_empty() {
        return Err("_unsafe_masked_index without index tensors is not supported".into());
    }
    let adv = super::index::advanced(c, x, &given)?;
    let mut gathered = b.onnx().gather_nd(adv.xt, adv.stacked, None).like(x)?;
    if let Some(p) = adv.block_at {
        // [B(nb), pre(p), post] -> [pre, B, post]
        let nb = adv.index_rank as i64;
        let out_rank = adv.index_rank + rank - adv.dims.len();
        let mut perm: Vec<i64> = (nb..nb + p as i64).collect();
        perm.extend(0..nb);
        perm.extend(nb + p as i64..out_rank as i64);
        gathered = b.onnx().transpose(gathered, Some(&perm)).like(x)?;
    }
    let element = c.result_element(0)?;
    let fill = c.tensor_as("fill", element)?;
    let fill = b.onnx().expand(fill, b.shape(gathered)?).like(gathered)?;
    let mask = b.cast_like_type(c.args.tensor("mask")?, melior::ir::r#type::IntegerType::new(b.context, 1).into())?;
    let out = select(c, mask, gathered, fill)?;
    Ok(vec![c.b.onnx().identity(out).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[5,5]; mask: bool[7,1]; indices: (i64[7,1]{0..5}, i64[1,7]{0..5}); fill: 0",
    "self: T[5,5]; mask: bool[5,1]; indices: (i64[5,1]{-3..9}, i64[1,5]{0..8}); fill: 2",
    "self: T[4,3,2]; mask: bool[3,1]; indices: (none, i64[3]{0..6}); fill: -1",
    "self: T[4,3]; mask: bool[2,1]; indices: (i64[2]{0..9}); fill: 1",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// The index tensors (int64 or int32; `None` entries kept) cast to int64
/// and clamped to `[-size, size - 1]` of the dim they index.
pub fn clamp_indices<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    indices: &[Option<Value<'c, 'a>>],
) -> Result<Vec<Option<Value<'c, 'a>>>, String> {
    let b = &ctx.b;
    let rank = ctx.rank(x)?;
    if indices.len() > rank {
        return Err(format!("too many indices ({}) for a tensor of rank {rank}", indices.len()));
    }
    let i64s = b.unranked(b.i64_type());
    let mut out = Vec::new();
    for (d, idx) in indices.iter().enumerate() {
        let Some(idx) = idx else {
            out.push(None);
            continue;
        };
        let element = builder::element_type(idx.r#type()).ok_or("index is not a tensor")?;
        if builder::is_float(element) || builder::is_bool(element) || element == melior::ir::r#type::IntegerType::unsigned(b.context, 8).into() {
            return Err("_unsafe_masked_index expects int64 or int32 index tensors".into());
        }
        // Typed with the index's rank (the indexing lowering needs it).
        let ranked = builder::with_element_type(idx.r#type(), b.i64_type()).ok_or("index is not a tensor")?;
        let idx = b.cast_like_type(*idx, b.i64_type())?;
        let size = b.onnx().shape(x, Some(d as i64 + 1), Some(d as i64)).typed(i64s)?;
        let size = ctx.squeeze(size, &[0])?;
        let low = b.onnx().neg(size).typed(i64s)?;
        let high = b.onnx().sub(size, b.const_i64_scalar(1)?).typed(i64s)?;
        let clamped = b.onnx().max(&[idx, low]).typed(ranked)?;
        out.push(Some(b.onnx().min(&[clamped, high]).typed(ranked)?));
    }
    Ok(out)
}
