use super::math_common::unranked_bool;
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.lerp.Scalar", lerp).samples(&[
        "self: T[2,3]; end: T[2,3]; weight: 0.3",
        "self: T[2,3]; end: T[3]; weight: 0.75",
        "self: T[]; end: T[2]; weight: -1.5",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.lerp.Tensor", lerp).samples(&[
        "self: T[2,3]; end: T[2,3]; weight: T[2,3]",
        "self: T[2,3]; end: T[3]; weight: T[]",
        "self: T[0,3]; end: T[3]; weight: T[3]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];

/// torch's formula: `self + w * (end - self)` where |w| < 0.5, else
/// `end - (end - self) * (1 - w)` (exact at w = 0 and w = 1).
fn lerp<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    // Half inputs: computed in float32 with a float32 weight, as torch does.
    let element = c.opmath_element()?;
    let s = c.tensor_as("self", element)?;
    let e = c.tensor_as("end", element)?;
    let w = c.tensor_as("weight", element)?;
    let b = &c.b;
    let d = b.onnx().sub(e, s).like(s)?;
    let wd = b.onnx().mul(w, d).like(s)?;
    let low = b.onnx().add(s, wd).like(s)?;
    let one = b.const_scalar(element, 1.0)?;
    let half = b.const_scalar(element, 0.5)?;
    let omw = b.onnx().sub(one, w).like(s)?;
    let t = b.onnx().mul(d, omw).like(s)?;
    let high = b.onnx().sub(e, t).like(s)?;
    let aw = b.onnx().abs(w).like(w)?;
    let small = c.b.onnx().less(aw, half).typed(unranked_bool(c))?;
    Ok(vec![c.opmath_result(b.onnx().where_(small, low, high).like(s)?)?])
}
