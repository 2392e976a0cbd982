use super::common::shape_slice;
use super::histogram_common::accumulate;
use super::prod_common::vector_norm;
use super::vector_norm_common::renorm_factor;
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.embedding_renorm.default", embedding_renorm)
    .samples(&[
        "self: T[5,5]; indices: i64[2,2]{0..5}; max_norm: 1.0; norm_type: 2.0",
        "self: T[5,5]; indices: i64[6]{0..5}; max_norm: 1.0; norm_type: 1.0",
        "self: T[10,3]; indices: i64[4]{0..10}; max_norm: 0.5; norm_type: 3.0",
        "self: T[6,4]; indices: i64[3]{0..6}; max_norm: 0.7; norm_type: inf",
        "self: T[6,4]; indices: i64[0]; max_norm: 0.5; norm_type: 2.0",
        "self: T[4,3]; indices: i64[5]{0..4}; max_norm: 100.0; norm_type: 2.0",
    ])
    .dtypes(&["f32", "f64"])];

/// `nn.Embedding(max_norm=...)`'s in-place renormalisation, functional:
/// every row of `self` that `indices` names (each once, however often it
/// appears) whose `norm_type`-norm exceeds `max_norm` is scaled by
/// `max_norm / (norm + 1e-7)`; other rows are unchanged. Norm and scale in
/// float64, as torch's CPU kernel (`row.norm(p).item<double>()`) compares
/// and divides in double.
fn embedding_renorm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    if !builder::is_float(el) {
        return Err("embedding_renorm of a non-float table".into());
    }
    let w = c.tensor_as("self", el)?;
    let rank = c.rank(c.args.tensor("self")?)?;
    if rank != 2 {
        return Err(format!("embedding_renorm: the table must be 2-D, got rank {rank}"));
    }
    let indices = c.args.tensor("indices")?;
    let max_norm = c.args.float("max_norm")?;
    let p = c.args.float("norm_type")?;
    let b = &c.b;
    let f64_t = melior::ir::Type::float64(b.context);
    let wd = b.cast_like_type(w, f64_t)?;
    let norm = vector_norm(c, wd, Some(&[1]), true, p)?; // [V, 1]
                                                         // Rows named by `indices`: a count per row (histogram's accumulation),
                                                         // so repeated indices scale a row once.
    let i64_t = b.i64_type();
    let flat = b.onnx().reshape(indices, b.const_i64s(&[-1])?, None).typed(b.unranked(i64_t))?;
    let flat = b.cast_like_type(flat, i64_t)?;
    let bool_t = super::math_common::bool_type(c);
    let in_range = b.onnx().greater_or_equal(flat, b.const_i64_scalar(0)?).typed(b.unranked(bool_t))?;
    let counts = accumulate(c, flat, in_range, None, shape_slice(c, w, 0, Some(1))?, f64_t)?;
    let named = b.onnx().greater(counts, b.const_scalar(f64_t, 0.0)?).typed(b.unranked(bool_t))?;
    let factor = renorm_factor(c, norm, c.b.const_like(norm, max_norm)?, Some(c.unsqueeze(named, &[1])?))?;
    let factor = b.cast_like_type(factor, el)?;
    Ok(vec![c.b.onnx().mul(w, factor).typed(c.result_type(0)?)?])
}
