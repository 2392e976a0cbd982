use super::act_common::elu;
use crate::Rule;

const ALPHA: f64 = 1.673_263_242_354_377_284_817_042_991_671_7;
const SCALE: f64 = 1.050_700_987_355_480_493_419_334_985_294_6;

/// torch's `elu(x, alpha=1.6732..., scale=1.0507...)`, written out (ONNX
/// Selu is float-only in onnxruntime and takes f32 attributes).
pub const RULES: &[Rule] = &[Rule::custom("aten.selu.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![elu(c, x, ALPHA, SCALE, 1.0)?])
})
.samples(&["self: T[2,5]", "self: T[]", "self: T[0,3]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
