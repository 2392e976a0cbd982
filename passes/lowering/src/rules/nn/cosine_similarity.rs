use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.cosine_similarity.default", cosine_similarity).samples(&[
    "x1: T[3,4]; x2: T[3,4]",
    "x1: T[3,4]; x2: T[4]; dim: -1",
    "x1: T[2,3,4]; x2: T[2,1,4]; dim: 0; eps: 0.1",
    "x1: T[3,4]; x2: T[3,4]; dim: 1; eps: 100.0",
    "x1: T[]; x2: T[]; dim: 0",
    "x1: T[]; x2: T[3]; dim: -1",
    "x1: T[0,3]; x2: T[0,3]; dim: 1",
])];

/// `sum(x1 / max(|x1|, eps) * x2 / max(|x2|, eps), dim)` (torch's order:
/// each input divided by its clamped norm first).
fn cosine_similarity<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let x1 = c.args.tensor("x1")?;
    let x2 = c.args.tensor("x2")?;
    let rank = c.rank(x1)?.max(c.rank(x2)?);
    // A 0-d pair accepts dim 0 or -1 and reduces over nothing.
    let dim = c.dim(c.args.int("dim")?, rank)? as i64;
    let reduce = |x: Value<'c, 'a>, keep: bool, ty| if rank == 0 { Ok(x) } else { c.reduce(crate::Reduction::Sum, x, Some(&[dim]), keep, ty) };
    let eps = b.const_like(x1, c.args.float("eps")?)?;
    let ty = b.unranked(crate::builder::element_type(melior::ir::ValueLike::r#type(&x1)).ok_or("not a tensor")?);
    // Broadcast first so that `dim` counts from the common rank.
    let zero = b.onnx().sub(x1, x1).like(x1)?;
    let zero2 = b.onnx().sub(x2, x2).like(x1)?;
    let x1b = b.onnx().add(x1, zero2).like(x1)?;
    let x2b = b.onnx().add(x2, zero).like(x1)?;
    let unit = |x: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        let sq = b.onnx().mul(x, x).like(x1)?;
        let n = b.onnx().sqrt(reduce(sq, true, ty)?).like(x1)?;
        let n = b.onnx().max(&[n, eps]).like(x1)?;
        b.onnx().div(x, n).like(x1)
    };
    let prod = b.onnx().mul(unit(x1b)?, unit(x2b)?).like(x1)?;
    Ok(vec![reduce(prod, false, c.result_type(0)?)?])
}
