use super::math_common::{along_dim, bool_type};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten._safe_softmax.default", safe_softmax)
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[2,3,4]; dim: -3",
        "self: T[]; dim: 0",
        "self: T[0,4]; dim: 1",
        "self: T[3,4]; dim: 0; dtype: dtype(f64)",
    ])
    .dtypes(&["f32", "f64", "f16", "bf16"])];

/// `softmax(self, dim)` (in `dtype` when given), 0 on the slices that are
/// all -inf (where softmax gives NaN).
fn safe_softmax<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x = c.tensor_as("self", el)?;
    let b = &c.b;
    let y = along_dim(c, x, c.args.int("dim")?, |x, axis| {
        let s = b.onnx().softmax(x, Some(axis)).like(x)?;
        let ninf = b.onnx().equal(x, b.const_like(x, f64::NEG_INFINITY)?).typed(b.unranked(bool_type(c)))?;
        let f32_t = b.f32_type();
        let all = c.reduce(crate::Reduction::Min, b.cast(ninf, f32_t)?, Some(&[axis]), true, b.unranked(f32_t))?;
        let all = b.cast(all, bool_type(c))?;
        b.onnx().where_(all, b.const_like(x, 0.0)?, s).like(x)
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
