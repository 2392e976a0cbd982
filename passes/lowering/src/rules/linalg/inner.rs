use super::prod_common::{concat_i64, reshape, shape_part, shape_prod, transpose};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.inner.default", inner)
    .samples(&[
        "self: T[5]; other: T[5]",
        "self: T[2,3,4]; other: T[5,4]",
        "self: T[]; other: T[2,3]",
        "self: T[2,3]; other: T[]",
        "self: T[2,0]; other: T[3,0]",
        "self: T[0,3]; other: T[3]",
    ])
    .dtypes(&["f32", "f64", "i64"])];

/// Contraction of the last dims: `self` as `[A, k]`, `other` as `[B, k]`,
/// `MatMul(self, other^T)` reshaped to `self.shape[:-1] + other.shape[:-1]`;
/// a 0-d operand multiplies.
fn inner<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let a = c.tensor_as("self", el)?;
    let o = c.tensor_as("other", el)?;
    let (ra, ro) = (c.rank(c.args.tensor("self")?)?, c.rank(c.args.tensor("other")?)?);
    if ra == 0 || ro == 0 {
        return Ok(vec![c.b.onnx().mul(a, o).typed(c.result_type(0)?)?]);
    }
    if ra == 1 && ro == 1 {
        return Ok(vec![c.b.onnx().mat_mul(a, o).typed(c.result_type(0)?)?]);
    }
    let k = shape_part(c, a, -1, None)?;
    let a2 = reshape(c, a, concat_i64(c, &[shape_prod(c, a, 0, Some(-1))?, k])?)?;
    let o2 = reshape(c, o, concat_i64(c, &[shape_prod(c, o, 0, Some(-1))?, k])?)?;
    let m = c.b.onnx().mat_mul(a2, transpose(c, o2, &[1, 0])?).like(a)?;
    let shape = concat_i64(c, &[shape_part(c, a, 0, Some(-1))?, shape_part(c, o, 0, Some(-1))?])?;
    Ok(vec![c.b.onnx().reshape(m, shape, None).typed(c.result_type(0)?)?])
}
