//! torch's CPU flash-attention kernel as an op (`torch.ops.aten.
//! _scaled_dot_product_flash_attention_for_cpu`): what SDPA dispatches to on
//! CPU, called directly by some code and exported as such. Returns the
//! attention and its `logsumexp` over the keys (float32 for half inputs).
//! Half inputs are computed in float32 (see `in_opmath`); on AVX-512
//! machines torch's half kernel uses a faster, less accurate `exp` from 16
//! keys on (its logsumexp is then ~1e-5 from the float32 value, and some
//! outputs 1 half ulp from ours).
use super::attention_common::{attention_scores, default_scale, in_opmath};
use super::math_common::isinf;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten._scaled_dot_product_flash_attention_for_cpu.default", flash)
    .samples(&[
        "query: T[1,2,4,8]; key: T[1,2,5,8]; value: T[1,2,5,8]",
        "query: T[2,2,3,8]; key: T[2,2,6,8]; value: T[2,2,6,8]; is_causal: true",
        "query: T[2,2,6,8]; key: T[2,2,3,8]; value: T[2,2,3,8]; is_causal: true",
        "query: T[1,2,4,8]; key: T[1,1,5,8]; value: T[1,1,5,8]; attn_mask: T[1,2,4,5]; scale: 0.3",
        "query: T[1,2,3,4]; key: T[1,2,5,4]; value: T[1,2,5,4]; attn_mask: T[3,5]",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64"])
    .refuses(&[("query: T[1,2,3,4]; key: T[1,2,3,4]; value: T[1,2,3,4]; dropout_p: 0.5", "dropout")])];

/// The scores of SDPA, then a softmax that gives 0 (and a logsumexp of 0)
/// on a row whose keys are all masked, as the kernel does (the math SDPA
/// gives NaN there).
fn flash<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    if ctx.args.float("dropout_p")? != 0.0 {
        return Err("the CPU flash-attention kernel has no dropout (torch refuses dropout_p > 0)".into());
    }
    let q = ctx.args.tensor("query")?;
    let k = ctx.args.tensor("key")?;
    let v = ctx.args.tensor("value")?;
    for (name, x) in [("query", q), ("key", k), ("value", v)] {
        if ctx.rank(x)? != 4 {
            return Err(format!("{name} must be 4-D [batch, heads, seq, head size] (got rank {})", ctx.rank(x)?));
        }
    }
    let q_dims = builder::dims(q.r#type()).ok_or("unknown rank")?;
    let scale = default_scale(ctx, &q_dims)?;
    let (q, k, v, mask) = in_opmath(ctx, [q, k, v], ctx.args.opt_tensor("attn_mask")?)?;
    let scores = attention_scores(ctx, q, k, 4, scale, ctx.args.bool("is_causal")?, mask)?;
    let unranked = b.unranked(super::math_common::elem(q)?);
    let m = ctx.reduce(crate::Reduction::Max, scores, Some(&[-1]), true, unranked)?;
    // A row of -inf (every key masked): no finite maximum.
    let masked = isinf(ctx, m, false, true)?;
    let zero = b.const_like(q, 0.0)?;
    let m = b.onnx().where_(masked, zero, m).like(q)?;
    let shifted = b.onnx().sub(scores, m).like(q)?;
    let e = b.onnx().exp(shifted).like(q)?;
    let sum = ctx.reduce(crate::Reduction::Sum, e, Some(&[-1]), true, unranked)?;
    let weights = b.onnx().div(e, sum).like(q)?;
    let weights = b.onnx().where_(masked, zero, weights).like(q)?;
    let out = ctx.opmath_result(b.onnx().mat_mul(weights, v).like(q)?)?;
    let log = b.onnx().log(sum).like(q)?;
    let lse = b.onnx().add(log, m).like(q)?;
    let lse = b.onnx().where_(masked, zero, lse).like(q)?;
    let lse = ctx.squeeze(lse, &[3])?;
    let lse = b.cast_like_type(lse, ctx.result_element(1)?)?;
    Ok(vec![out, lse])
}
