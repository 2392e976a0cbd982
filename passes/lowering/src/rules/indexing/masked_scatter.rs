//! `aten.masked_scatter`: the k-th true position of the broadcast mask (row-major) takes element k of the
//! flattened `source`: k is the running count of trues (`CumSum`) minus one, read by `Gather` and merged with
//! `Where`. `source` is padded by one element so that an all-false mask (nothing to read) still gathers.

use super::tensor_common::broadcast_shape;
use crate::Rule;
use melior::ir::r#type::IntegerType;

pub const RULES: &[Rule] = &[Rule::custom("aten.masked_scatter.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let mask = c.args.tensor("mask")?;
    let source = c.tensor_as("source", c.result_element(0)?)?;
    let shape = broadcast_shape(c, &[x, mask])?;
    let x = b.onnx().expand(x, shape).like(x)?;
    let mask = b.onnx().expand(mask, shape).like(mask)?;
    let minus_one = b.const_i64s(&[-1])?;
    let flat_mask = b.onnx().reshape(mask, minus_one, None).like(mask)?;
    let flat_x = b.onnx().reshape(x, minus_one, None).like(x)?;
    let flat_src = b.onnx().reshape(source, minus_one, None).like(source)?;
    // The k-th True position takes source element k (row-major): k is the
    // running count of Trues minus one.
    let i64s = b.unranked(b.i64_type());
    let counts = b.cast(flat_mask, b.i64_type())?;
    let zero = b.const_i64_scalar(0)?;
    let running = b.onnx().cum_sum(counts, zero, None, None).typed(i64s)?;
    let one = b.const_i64_scalar(1)?;
    let k = b.onnx().sub(running, one).typed(i64s)?;
    // Positions without a True yet get k = -1: point them at element 0 (unused).
    let k = b.onnx().max(&[k, zero]).typed(i64s)?;
    // An empty source (no True in the mask) cannot be gathered from: pad it.
    let pad = b.onnx().gather(flat_x, b.const_i64s(&[0])?, Some(0)).like(flat_x)?;
    let padded = b.onnx().concat(&[flat_src, pad], 0).like(flat_src)?;
    let picked = b.onnx().gather(padded, k, Some(0)).like(flat_x)?;
    let cond = b.cast_like_type(flat_mask, IntegerType::new(b.context, 1).into())?;
    let merged = super::tensor_common::select(c, cond, picked, flat_x)?;
    Ok(vec![c.b.onnx().reshape(merged, shape, None).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; mask: bool[3,4]; source: T[12]",
    "self: T[3,4]; mask: bool[4]; source: T[3,5]",
    "self: T[]; mask: bool[]; source: T[2]",
    "self: T[2,3]; mask: bool[2,3]; source: T[2,3]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
