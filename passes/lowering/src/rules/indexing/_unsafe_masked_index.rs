use super::index_common::{advanced, clamp_indices};
use super::tensor_common::select;
use crate::Rule;
use melior::ir::Value;

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
    let adv = advanced(c, x, &given)?;
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
