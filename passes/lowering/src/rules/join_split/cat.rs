//! `aten.cat`: ONNX `Concat` along `dim` of the inputs cast to the result type. 1-D tensors of size 0 are
//! skipped, as torch skips its legacy empty tensor (Hugging Face's `DynamicLayer` cache starts as
//! `torch.tensor([])` and is concatenated with 4-D states).

use crate::{builder, Rule};
use melior::ir::ValueLike;

pub const RULES: &[Rule] = &[Rule::custom("aten.cat.default", |c| {
    let element = c.result_element(0)?;
    let tensors = c.args.tensors("tensors")?;
    // torch skips 1-D tensors of size 0 (its legacy "empty" tensor): the
    // key/value cache of Hugging Face's DynamicLayer starts as
    // `torch.tensor([])` and is concatenated with 4-D states on dim -2.
    let skipped = |t: &melior::ir::Value| builder::dims(t.r#type()).is_some_and(|d| d == [Some(0)]);
    let kept: Vec<_> = tensors.iter().filter(|t| !skipped(t)).copied().collect();
    let Some(&first) = kept.first().or(tensors.first()) else {
        return Err("cat of no tensors".into());
    };
    if kept.is_empty() {
        return Ok(vec![c.b.onnx().identity(c.b.cast_like_type(first, element)?).typed(c.result_type(0)?)?]);
    }
    let mut inputs = Vec::new();
    for t in kept {
        inputs.push(c.b.cast_like_type(t, element)?);
    }
    Ok(vec![c.b.onnx().concat(&inputs, c.args.int("dim")?).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::cat)
.complex_samples(&["tensors: (C[2,3], C[4,3]); dim: 0", "tensors: (C[2,3], T[2,1]); dim: -1"])
.samples(&[
    "tensors: (T[2,3], T[4,3]); dim: 0",
    "tensors: (T[2,3], T[2,1], T[2,2]); dim: -1",
    "tensors: (T[0], T[2,3,4], T[2,1,4]); dim: -2",
    "tensors: (T[2,3], T[0]); dim: 1",
    "tensors: (T[0], T[0]); dim: 0",
    "tensors: (T[0], T[3]); dim: 0",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
