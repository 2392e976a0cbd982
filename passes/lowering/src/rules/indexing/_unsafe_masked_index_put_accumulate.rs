use super::index_common::{clamp_indices, index_put_values};
use super::tensor_common::select;
use crate::Rule;

/// `_unsafe_masked_index_put_accumulate(x, mask, indices, values)`:
/// `x.index_put(indices, values.masked_fill(~mask, 0), accumulate=True)`
/// with each index clamped to `[-size, size-1]` (out-of-bounds indices are
/// allowed where `mask` is false; they then add 0).
pub const RULES: &[Rule] = &[Rule::custom("aten._unsafe_masked_index_put_accumulate.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let indices = clamp_indices(c, x, &c.args.opt_tensors("indices")?)?;
    if indices.iter().all(Option::is_none) {
        return Err("_unsafe_masked_index_put_accumulate without index tensors is not supported".into());
    }
    let element = c.result_element(0)?;
    let values = c.tensor_as("values", element)?;
    let mask = b.cast_like_type(c.args.tensor("mask")?, melior::ir::r#type::IntegerType::new(b.context, 1).into())?;
    let shape = super::tensor_common::broadcast_shape(c, &[values, mask])?;
    let values = b.onnx().expand(values, shape).like(values)?;
    let zeros = super::tensor_common::full(c, shape, element, 0.0)?;
    let masked = select(c, mask, values, zeros)?;
    index_put_values(c, x, &indices, masked, true)
})
.samples(&[
    "self: T[5,5]; mask: bool[7,7]; indices: (i64[7,1]{0..5}, i64[1,7]{0..5}); values: T[7,7]",
    "self: T[5,5]; mask: bool[5,6]; indices: (i64[5,1]{-3..9}, i64[1,6]{0..8}); values: T[5,6]",
    "self: T[4,3,2]; mask: bool[3,1,1]; indices: (i64[3]{0..6}); values: T[3,3,2]",
    "self: T[4,3]; mask: bool[2]; indices: (none, i64[2]{0..7}); values: T[4,2]",
])
.dtypes(&["f32", "i64", "i32", "f64"])];
