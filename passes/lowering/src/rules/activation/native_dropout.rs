use super::random_common::{element_of, keep_mask, significand_bits};
use super::tensor_common::full;
use crate::{Ctx, Rule};
use melior::ir::{r#type::IntegerType, Value};

pub const RULES: &[Rule] = &[Rule::custom("aten.native_dropout.default", native_dropout)
    .samples(&["input: T[2,3]; p: 0.5; train: true", "input: T[2,3]; p: 0.5; train: false"])];

/// torch's `native_dropout_cpu`: training keeps each element with
/// probability `1 - p` (the mask, one `Dropout` mask element per value) and
/// gives `input * mask * (1 / (1 - p))`; `p == 1` gives `input * 0` and an
/// all-false mask; `train=False` the input and an all-true mask.
pub fn native_dropout<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("input")?;
    let p = ctx.args.float("p")?;
    let train = if ctx.args.is_none("train")? { true } else { ctx.args.bool("train")? };
    let bool_type = IntegerType::new(b.context, 1).into();
    let shape = b.shape(x)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("dropout probability has to be between 0 and 1, but got {p}"));
    }
    let element = element_of(x)?;
    if !train {
        let mask = full(ctx, shape, bool_type, 1.0)?;
        return Ok(vec![x, b.onnx().identity(mask).typed(ctx.result_type(1)?)?]);
    }
    significand_bits(element)?;
    if p == 1.0 {
        let zero = b.const_scalar(element, 0.0)?;
        let mask = full(ctx, shape, bool_type, 0.0)?;
        return Ok(vec![ctx.b.onnx().mul(x, zero).typed(ctx.result_type(0)?)?, b.cast_like_type(mask, ctx.result_element(1)?)?]);
    }
    let mask = keep_mask(ctx, shape, 1.0 - p)?;
    let m = b.cast(mask, element)?;
    let scale = b.const_scalar(element, 1.0 / (1.0 - p))?;
    let kept = b.onnx().mul(x, m).like(x)?;
    Ok(vec![ctx.b.onnx().mul(kept, scale).typed(ctx.result_type(0)?)?, b.cast_like_type(mask, ctx.result_element(1)?)?])
}
