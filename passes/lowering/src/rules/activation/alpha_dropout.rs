use super::random_common::{torch_dropout, DropoutKind};
use crate::Rule;

/// torch's `alpha_dropout` (`_dropout_impl`, see random_common.rs): the input in eval
/// mode or with p = 0, `input * 0` with p = 1, else a random mask with the alpha (SELU) correction.
pub const RULES: &[Rule] = &[Rule::custom("aten.alpha_dropout.default", |c| {
    let x = c.args.tensor("input")?;
    let out = torch_dropout(c, x, c.rank(x).ok(), c.args.float("p")?, c.args.bool("train")?, DropoutKind::Alpha)?;
    Ok(vec![c.b.onnx().identity(out).typed(c.result_type(0)?)?])
})
.samples(&[
    "input: T[2,3,4]; p: 0.5; train: false",
    "input: T[2,3,4]; p: 0.0; train: true",
    "input: T[2,3,4]; p: 1.0; train: true",
])
.dtypes(&["f32", "f64"])
.refuses(&[("input: T[2,3]; p: 1.5; train: true", "between 0 and 1")])];
