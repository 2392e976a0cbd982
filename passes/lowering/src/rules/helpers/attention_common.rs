//! Scaled dot-product attention scores shared by scaled_dot_product_attention and its _scaled_dot_product_*_attention forms. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// float16/bfloat16 attention computed in float32 from the start, as
/// torch's CPU kernels do (flash attention accumulates in float32, the math
/// path upcasts): the scale (`1/sqrt(8)` is not a float16 number), the
/// scores and the softmax are never rounded to the half type; only the
/// result is (the rule ends with `opmath_result`). A float mask comes along;
/// a boolean one stays.
#[allow(clippy::type_complexity)]
pub(super) fn in_opmath<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    qkv: [Value<'c, 'a>; 3],
    mask: Option<Value<'c, 'a>>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>, Option<Value<'c, 'a>>), String> {
    let element = ctx.opmath_element()?;
    let up = |x: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let e = builder::element_type(x.r#type()).ok_or("not a tensor")?;
        if builder::is_bool(e) || e == element {
            Ok(x)
        } else {
            ctx.b.cast(x, element)
        }
    };
    let [q, k, v] = qkv;
    Ok((up(q)?, up(k)?, up(v)?, mask.map(up).transpose()?))
}

/// `scale`, or torch's default `1 / sqrt(E)` from the query's head size;
/// `None` when that size is dynamic (computed in the graph, see
/// [`attention_scores`]).
pub(super) fn default_scale(ctx: &Ctx<'_, '_>, q_dims: &[Option<i64>]) -> Result<Option<f64>, String> {
    Ok(match ctx.args.opt_float("scale")? {
        Some(s) => Some(s),
        None => q_dims.last().copied().flatten().map(|e| 1.0 / (e as f64).sqrt()),
    })
}

/// `Q K^T * scale`, with the causal (top-left aligned: key `j <= i` for
/// query `i`) and the user's mask applied: `-inf` where a boolean mask is
/// false, added when it is a float mask. The scores before the softmax,
/// shared by every SDPA form. `k_rank`: the key's rank (a repeated or
/// cast key may have lost it in its type).
pub(super) fn attention_scores<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    q: Value<'c, 'a>,
    k: Value<'c, 'a>,
    k_rank: usize,
    scale: Option<f64>,
    is_causal: bool,
    mask: Option<Value<'c, 'a>>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let mut perm: Vec<i64> = (0..k_rank as i64).collect();
    perm.swap(k_rank - 2, k_rank - 1);
    let kt = b.onnx().transpose(k, Some(&perm)).like(k)?;
    let scores = b.onnx().mat_mul(q, kt).like(q)?;
    let scale = match scale {
        Some(scale) => b.const_like(q, scale)?,
        // A dynamic head size E: 1 / sqrt(E) in q's (opmath) type.
        None => {
            let i64_1d = melior::ir::r#type::RankedTensorType::new(&[1], b.i64_type(), None).into();
            let e = b.onnx().shape(q, None, Some(-1)).typed(i64_1d)?;
            let e = b.cast_like(e, q)?;
            let root = b.onnx().sqrt(e).like(e)?;
            b.onnx().reciprocal(root).like(e)?
        }
    };
    let mut scores = b.onnx().mul(scores, scale).like(q)?;
    let neg_inf = b.const_like(q, f64::NEG_INFINITY)?;
    if is_causal {
        // Keep j <= i: a lower-triangular boolean mask of shape [L, S].
        let sq = b.shape(q)?;
        let sk = b.shape(k)?;
        let l = b
            .onnx()
            .slice(sq, b.const_i64s(&[-2])?, b.const_i64s(&[-1])?, None, None)
            .typed(b.unranked(b.i64_type()))?;
        let s = b
            .onnx()
            .slice(sk, b.const_i64s(&[-2])?, b.const_i64s(&[-1])?, None, None)
            .typed(b.unranked(b.i64_type()))?;
        let ls = b.onnx().concat(&[l, s], 0).typed(b.unranked(b.i64_type()))?;
        let t = b.const_scalar(melior::ir::r#type::IntegerType::new(b.context, 1).into(), 1.0)?;
        let full = b.onnx().expand(t, ls).like(t)?;
        let zero = b.const_i64_scalar(0)?;
        let causal = b.onnx().trilu(full, Some(zero), Some(0)).like(t)?;
        scores = b.onnx().where_(causal, scores, neg_inf).like(q)?;
    }
    if let Some(mask) = mask {
        let element = builder::element_type(mask.r#type()).ok_or("mask is not a tensor")?;
        scores = if builder::is_bool(element) {
            b.onnx().where_(mask, scores, neg_inf).like(q)?
        } else {
            let mask = b.cast_like(mask, q)?;
            b.onnx().add(scores, mask).like(q)?
        };
    }
    Ok(scores)
}
