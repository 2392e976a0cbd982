use super::nn_common::p_norm;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.pairwise_distance.default", pairwise_distance).samples(&[
    "x1: T[3,4]; x2: T[3,4]",
    "x1: T[3,4]; x2: T[4]; p: 1.0; keepdim: true",
    "x1: T[2,3,4]; x2: T[2,3,4]; p: 3.0; eps: 0.001",
    "x1: T[3,4]; x2: T[3,4]; p: inf",
    "x1: T[4]; x2: T[4]; p: 0.0",
])
.dtypes(&["f32", "f64", "i64", "i32", "i8", "u8"])];

/// `norm(x1 - x2 + eps, p, dim=-1)`. Integer inputs: torch subtracts in
/// their type (wrapping around) and adds the float `eps`, which promotes to
/// the result's float type.
fn pairwise_distance<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x1 = c.args.tensor("x1")?;
    let x2 = c.args.tensor("x2")?;
    let d = c.b.onnx().sub(x1, x2).like(x1)?;
    let d = c.b.cast_like_type(d, c.result_element(0)?)?;
    let d = c.b.onnx().add(d, c.b.const_like(d, c.args.float("eps")?)?).like(d)?;
    let n = p_norm(c, d, -1, c.args.bool("keepdim")?, c.args.float("p")?)?;
    Ok(vec![c.b.onnx().identity(n).typed(c.result_type(0)?)?])
}
