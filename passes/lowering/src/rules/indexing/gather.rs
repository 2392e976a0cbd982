//! `aten.gather`: ONNX `GatherElements(self, index, axis=dim)`, indices other than int32 / int64 cast to int64.
//! An empty result is an `Expand`ed constant 0 (torch lets an empty index's rank differ from `self`'s), and a
//! 0-d `self` goes through 1-element vectors (`GatherElements` needs rank >= 1).

use crate::{builder, Rule};
use melior::ir::{r#type::IntegerType, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.gather.default", |c| {
    let x = c.args.tensor("self")?;
    let index = c.args.tensor("index")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)? as i64;
    // GatherElements takes int32/int64 indices (torch may pass an empty
    // uint8 index).
    let element = builder::element_type(index.r#type()).ok_or("index is not a tensor")?;
    let index = if element == c.b.i64_type() || element == IntegerType::new(c.b.context, 32).into() {
        index
    } else {
        c.b.cast(index, c.b.i64_type())?
    };
    let out = builder::dims(c.result_type(0)?).ok_or("unknown result rank")?;
    let static_out: Option<Vec<i64>> = out.iter().copied().collect();
    if let Some(shape) = static_out.as_ref().filter(|s| s.contains(&0)) {
        // An empty index (torch lets its rank differ from self's then).
        let zero = c.b.const_scalar(builder::element_type(x.r#type()).ok_or("self is not a tensor")?, 0.0)?;
        return Ok(vec![c.b.onnx().expand(zero, c.b.const_i64s(shape)?).typed(c.result_type(0)?)?]);
    }
    if rank == 0 {
        // A 0-d self (dim 0 or -1) with a 0-d or one-element index:
        // GatherElements needs rank >= 1.
        let shape = static_out.ok_or("gather of a 0-d tensor with a dynamic index shape")?;
        let flat = c.b.const_i64s(&[-1])?;
        let x1 = c.b.onnx().reshape(x, flat, None).like(x)?;
        let i1 = c.b.onnx().reshape(index, flat, None).like(index)?;
        let y = c.b.onnx().gather_elements(x1, i1, Some(0)).like(x)?;
        return Ok(vec![c.b.onnx().reshape(y, c.b.const_i64s(&shape)?, None).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().gather_elements(x, index, Some(dim)).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; dim: 1; index: i64[3,2]{0..4}",
    "self: T[3,4]; dim: 0; index: i64[2,4]{0..3}",
    "self: T[3,4]; dim: -1; index: i64[3,2]{0..4}",
    "self: T[]; dim: 0; index: i64[]{0..1}",
    "self: T[]; dim: -1; index: i64[1]{0..1}",
    "self: T[5]; dim: 0; index: i64[2,0]",
]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
