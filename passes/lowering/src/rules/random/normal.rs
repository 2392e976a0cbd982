use super::random_common::normal as standard_normal;
use super::tensor_common::broadcast_shape;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.normal.Tensor_float", |c| normal(c)).samples(&["mean: T[2,3]; std: 2.0"]),
    Rule::custom("aten.normal.float_Tensor", |c| normal(c)).samples(&["mean: 1.0; std: T[2,3]{pos}"]),
    Rule::custom("aten.normal.Tensor_Tensor", |c| normal(c)).samples(&["mean: T[2,3]; std: T[3]{pos}"]),
    Rule::custom("aten.normal.float_float", |c| {
        let b = &c.b;
        let element = c.result_element(0)?;
        let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
        let z = standard_normal(c, shape, element)?;
        let std = b.const_scalar(element, c.args.float("std")?)?;
        let mean = b.const_scalar(element, c.args.float("mean")?)?;
        let scaled = b.onnx().mul(z, std).like(z)?;
        Ok(vec![c.b.onnx().add(scaled, mean).typed(c.result_type(0)?)?])
    })
    .samples(&["mean: 1.0; std: 2.0; size: [2,3]"]),
];

/// `mean + std * N(0, 1)`, mean and std (numbers or tensors) broadcast.
fn normal<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let element = ctx.result_element(0)?;
    let mean = ctx.tensor_as("mean", element)?;
    let std = ctx.tensor_as("std", element)?;
    let shape = broadcast_shape(ctx, &[mean, std])?;
    let z = standard_normal(ctx, shape, element)?;
    let scaled = b.onnx().mul(z, std).like(z)?;
    Ok(vec![ctx.b.onnx().add(scaled, mean).typed(ctx.result_type(0)?)?])
}
