//! `aten.unbind.int`: ONNX `Split` along `dim` into pieces of size 1, each squeezed on `dim`.

use crate::{builder, Rule};
use melior::ir::{operation::OperationLike, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.unbind.int", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.norm_dim(c.args.int("dim")?, rank);
    let n = c.args.op.result_count();
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let types = vec![c.b.unranked(element); n];
    let split = c.b.const_i64s(&vec![1; n])?;
    let pieces = c.b.onnx().split(x, Some(split), Some(dim), None).results(&types)?;
    pieces.into_iter().map(|p| c.squeeze(p, &[dim])).collect()
})
.samples(&["self: T[3,4]; dim: 0", "self: T[3,4]; dim: 1"])
.dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
