use super::random_common::{compute_type, open_uniform};
use crate::{Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

/// `torch.multinomial(probs, n, replacement)`: `probs` is `[C]` or `[B, C]`
/// (non-negative weights, not necessarily normalized); the result is `[n]` or
/// `[B, n]` int64 category indices.
///
/// Like torch: without replacement (and for `n == 1`) the `n` largest of
/// `probs / E`, `E ~ Exp(1)` (`TopK`, in descending order of key: the
/// exponential-race form of sequential sampling without replacement); with
/// replacement, each of the `n` draws is the argmax of its own `probs / E`
/// over the categories (an exact categorical draw; torch walks the CDF
/// instead, the same distribution). Zero-weight categories are never drawn
/// while a positive one is left. Inputs torch rejects at run time (negative,
/// infinite or NaN weights, an all-zero row, `n` more than the positive
/// categories without replacement) cannot be checked in ONNX: they give
/// indices, not an error.
pub const RULES: &[Rule] = &[Rule::custom("aten.multinomial.default", multinomial)
    .samples(&["self: T[4]{pos}; num_samples: 2", "self: T[3,5]{pos}; num_samples: 4; replacement: true"])
    .refuses(&[
        ("self: T[4]{pos}; num_samples: 5", "without replacement"),
        ("self: T[2,3,4]{pos}; num_samples: 1", "1 or 2 dim"),
    ])];

fn multinomial<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let probs = ctx.args.tensor("self")?;
    let replacement = ctx.args.bool("replacement")?;
    let rank = ctx.rank(probs)?;
    if rank != 1 && rank != 2 {
        return Err(format!("prob_dist must be 1 or 2 dim (got rank {rank})"));
    }
    let element = super::random_common::element_of(probs)?;
    let t = compute_type(ctx, element)?;
    let categories = crate::builder::dims(probs.r#type()).and_then(|d| d[rank - 1]);
    let n = ctx.args.sym_int("num_samples")?;
    if let IntArg::Static(n) = n {
        if n <= 0 {
            return Err(format!("cannot sample n_sample <= 0 samples (got {n})"));
        }
        if let (Some(c), false) = (categories, replacement) {
            if n > c {
                return Err(format!(
                    "cannot sample n_sample > prob_dist.size(-1) samples without replacement ({n} > {c})"
                ));
            }
        }
    }
    let single = matches!(n, IntArg::Static(1));
    let p = b.cast_like_type(probs, t)?;
    let n_tensor = ctx.int_tensor(n)?;
    let keys = |p: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        // probs / E with E = -ln(u), u in (0, 1): E > 0, so zero weights give 0.
        let u = open_uniform(ctx, b.shape(p)?, element)?;
        let ln = b.onnx().log(u).typed(b.unranked(t))?;
        let minus_one = b.const_scalar(t, -1.0)?;
        let e = b.onnx().mul(ln, minus_one).typed(b.unranked(t))?;
        b.onnx().div(p, e).typed(b.unranked(t))
    };
    let i64s = b.unranked(b.i64_type());
    let indices = if !replacement || single {
        let q = keys(p)?;
        b.onnx().top_k(q, n_tensor, Some(-1), Some(1), Some(1)).results(&[b.unranked(t), i64s])?[1]
    } else {
        // [.., C] -> [.., n, C] -> ArgMax over C -> [.., n]
        let lead = super::tensor_common::shape_part(ctx, probs, 0, Some(rank as i64 - 1))?;
        let last = super::tensor_common::shape_part(ctx, probs, rank as i64 - 1, None)?;
        let shape = b.onnx().concat(&[lead, n_tensor, last], 0).typed(i64s)?;
        let p3 = ctx.unsqueeze(p, &[rank as i64 - 1])?;
        let expanded = b.onnx().expand(p3, shape).typed(b.unranked(t))?;
        let q = keys(expanded)?;
        b.onnx().arg_max(q, Some(-1), Some(0), None).typed(i64s)?
    };
    Ok(vec![ctx.b.onnx().identity(b.cast_like_type(indices, ctx.result_element(0)?)?).typed(ctx.result_type(0)?)?])
}
