use super::attention_common::{attention_scores, default_scale, in_opmath};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.scaled_dot_product_attention.default", sdpa)
    .samples(&[
        "query: T[1,2,4,8]; key: T[1,2,5,8]; value: T[1,2,5,8]",
        "query: T[1,2,4,8]; key: T[1,2,5,8]; value: T[1,2,5,8]; attn_mask: bool[4,5]",
        "query: T[1,2,4,8]; key: T[1,2,5,8]; value: T[1,2,5,8]; attn_mask: T[1,1,4,5]",
        "query: T[2,2,4,8]; key: T[2,2,4,8]; value: T[2,2,4,8]; is_causal: true",
        "query: T[1,4,3,8]; key: T[1,2,3,8]; value: T[1,2,3,8]; enable_gqa: true",
        "query: T[2,4,3,8]; key: T[2,1,5,8]; value: T[2,1,5,8]",
        "query: T[2,4,3,8]; key: T[2,1,3,8]; value: T[2,1,3,8]; is_causal: true",
        "query: T[2,1,3,8]; key: T[2,4,5,8]; value: T[2,4,5,8]; attn_mask: bool[2,1,3,5]",
        "query: T[4,3,8]; key: T[2,4,6,8]; value: T[2,4,6,8]; is_causal: true",
        "query: T[2,4,3,8]; key: T[6,8]; value: T[6,8]",
        "query: T[1,2,3,4]; key: T[1,2,3,4]; value: T[1,2,3,4]; scale: 0.5",
        "query: T[1,2,3,4]; key: T[1,2,3,4]; value: T[1,2,3,4]; dropout_p: 1.0",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64"])
    .refuses(&[("query: T[1,2,3,4]; key: T[1,2,3,4]; value: T[1,2,3,4]; dropout_p: 1.5", "between 0 and 1")])];

/// `softmax(Q K^T * scale + mask) V`, written out so it runs on every opset
/// and runtime; GQA repeats K/V heads. (Fusing it into ONNX `Attention` is an
/// optimizer pattern.)
fn sdpa<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let q = ctx.args.tensor("query")?;
    let mut k = ctx.args.tensor("key")?;
    let mut v = ctx.args.tensor("value")?;
    let dropout_p = ctx.args.float("dropout_p")?;
    if !(0.0..=1.0).contains(&dropout_p) {
        return Err(format!("dropout probability has to be between 0 and 1, but got {dropout_p}"));
    }
    let rank = ctx.rank(q)?;
    let q_dims = builder::dims(q.r#type()).ok_or("unknown rank")?;
    let k_dims = builder::dims(k.r#type()).ok_or("unknown rank")?;
    let v_rank = ctx.rank(v)?;
    let k_rank = k_dims.len();
    if rank < 2 || k_rank < 2 || v_rank < 2 {
        return Err(format!("query, key and value need a rank of at least 2 (got {rank}, {k_rank}, {v_rank})"));
    }
    // Grouped-query attention: repeat each K/V head for its group of Q heads.
    // Without enable_gqa torch's math path broadcasts the batch dims of its
    // matmuls: a single K/V head (multi-query attention, e.g. Falcon) or a
    // single Q head broadcasts against the other's heads, as ONNX MatMul does.
    let enable_gqa = ctx.args.bool("enable_gqa")?;
    // Different ranks broadcast their batch dims in the matmuls, like torch's.
    if enable_gqa && (k_rank != rank || v_rank != rank) {
        return Err(format!("enable_gqa with query, key and value of different ranks ({rank}, {k_rank}, {v_rank})"));
    }
    let broadcast = |d: Option<i64>| d == Some(1);
    if rank == 4
        && k_rank == 4
        && q_dims[1] != k_dims[1]
        && !(!enable_gqa && (broadcast(q_dims[1]) || broadcast(k_dims[1])))
    {
        let (Some(hq), Some(hkv)) = (q_dims[1], k_dims[1]) else {
            return Err("GQA with a dynamic number of heads is not supported".into());
        };
        if !enable_gqa || hq % hkv != 0 {
            return Err(format!("query has {hq} heads and key {hkv}; need enable_gqa and a multiple"));
        }
        let rep = hq / hkv;
        let repeat = |x: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
            // [B, Hkv, S, E] -> [B, Hkv, 1, S, E] -> expand rep -> [B, Hq, S, E]
            let x5 = ctx.unsqueeze(x, &[2])?;
            let ones = b.const_i64s(&[1, 1, rep, 1, 1])?;
            let expanded = b.onnx().expand(x5, ones).like(x)?;
            let shape = {
                // Keep B and E from x; S is inferred.
                let s = b.shape(x)?;
                let batch = b
                    .onnx()
                    .slice(s, b.const_i64s(&[0])?, b.const_i64s(&[1])?, None, None)
                    .typed(b.unranked(b.i64_type()))?;
                let last = b
                    .onnx()
                    .slice(s, b.const_i64s(&[3])?, b.const_i64s(&[4])?, None, None)
                    .typed(b.unranked(b.i64_type()))?;
                let mid = b.const_i64s(&[hq, -1])?;
                b.onnx().concat(&[batch, mid, last], 0).typed(b.unranked(b.i64_type()))?
            };
            b.onnx().reshape(expanded, shape, None).like(x)
        };
        k = repeat(k)?;
        v = repeat(v)?;
    }
    let scale = default_scale(ctx, &q_dims)?;
    let (q, k, v, mask) = in_opmath(ctx, [q, k, v], ctx.args.opt_tensor("attn_mask")?)?;
    let masked = mask.is_some();
    let scores = attention_scores(ctx, q, k, k_rank, scale, ctx.args.bool("is_causal")?, mask)?;
    let weights = b.onnx().softmax(scores, Some(-1)).like(q)?;
    // A query row whose keys are all masked attends to nothing: torch gives
    // 0 there (its CPU kernels and the math path's `_safe_softmax`; ONNX
    // `Attention` too), a plain Softmax NaN, which the next layer's
    // `0 * NaN` in its value product would spread to every row. The causal
    // mask alone never masks a whole row (key 0 is always visible).
    let weights = if masked { zero_masked_rows(ctx, scores, weights)? } else { weights };
    // torch's math SDPA: `dropout(attn, dropout_p, train=True)` on the weights.
    let weights = super::random_common::torch_dropout(
        ctx,
        weights,
        Some(rank.max(k_rank)),
        dropout_p,
        true,
        super::random_common::DropoutKind::Plain,
    )?;
    let out = b.onnx().mat_mul(weights, v).like(q)?;
    Ok(vec![ctx.opmath_result(out)?])
}

/// `Where(IsInf(ReduceMax(scores)) , 0, weights)`: the softmax `weights`
/// of `scores` with rows of all `-inf` set to 0 (the optimizer's
/// `sdpa-masked-rows` recognizes this form as ONNX `Attention`'s own).
pub(super) fn zero_masked_rows<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    scores: Value<'c, 'a>,
    weights: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = builder::element_type(scores.r#type()).ok_or("scores are not a tensor")?;
    let m = ctx.reduce(crate::Reduction::Max, scores, Some(&[-1]), true, b.unranked(element))?;
    let none = super::math_common::isinf(ctx, m, false, true)?;
    let zero = b.const_like(scores, 0.0)?;
    b.onnx().where_(none, zero, weights).like(weights)
}
