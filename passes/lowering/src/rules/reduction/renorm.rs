use super::prod_common::vector_norm;
use super::vector_norm_common::renorm_factor;
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.renorm.default", renorm)
    .samples(&[
        "self: T[3,4,5]; p: 2; dim: 1; maxnorm: 0.5",
        "self: T[3,4]; p: 1; dim: 0; maxnorm: 2.5",
        "self: T[3,4]; p: 3.5; dim: -1; maxnorm: 1",
        "self: T[3,4]; p: inf; dim: 0; maxnorm: 0.7",
        "self: T[0,4]; p: 2; dim: 1; maxnorm: 0.5",
        "self: T[3,4]; p: 2; dim: 0; maxnorm: 100",
    ])
    .dtypes(&["f32", "f64"])];

/// torch: each slice along `dim` whose `p`-norm (over the other dims, in
/// double like torch's CPU accumulation type) exceeds `maxnorm` is scaled by
/// `maxnorm / (norm + 1e-7)`.
fn renorm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    if !builder::is_float(el) {
        return Err("renorm of a non-float tensor".into());
    }
    let x = c.tensor_as("self", el)?;
    let rank = c.rank(c.args.tensor("self")?)?;
    if rank < 2 {
        return Err(format!("renorm: input needs at least 2 dimensions, got {rank}"));
    }
    let dim = c.dim(c.args.int("dim")?, rank)? as i64;
    let p = c.args.number("p")?.as_f64();
    if !(p > 0.0) {
        return Err("renorm: non-positive norm not supported".into());
    }
    // A maxnorm from `t.item()` flows as a tensor (a negative one, which
    // torch refuses when it runs, is not checked).
    if !c.args.is_dynamic("maxnorm")? && c.args.number("maxnorm")?.as_f64() < 0.0 {
        return Err("renorm: expected maxnorm to be >= 0".into());
    }
    let b = &c.b;
    let f64_t = melior::ir::Type::float64(b.context);
    let maxnorm = c.tensor_as("maxnorm", f64_t)?;
    let xd = b.cast_like_type(x, f64_t)?;
    let axes: Vec<i64> = (0..rank as i64).filter(|&d| d != dim).collect();
    let norm = if axes.is_empty() { b.onnx().abs(xd).like(xd)? } else { vector_norm(c, xd, Some(&axes), true, p)? };
    let factor = b.cast_like_type(renorm_factor(c, norm, maxnorm, None)?, el)?;
    Ok(vec![c.b.onnx().mul(x, factor).typed(c.result_type(0)?)?])
}
