use super::complex_common::neg;
use crate::Rule;

/// `_neg_view` (a lazily negated view): its values are `-self`.
pub const RULES: &[Rule] = &[Rule::custom("aten._neg_view.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![c.b.onnx().neg(x).typed(c.result_type(0)?)?])
})
.complex(neg)
.samples(&["self: T[2,3]"])
.dtypes(&["f32", "f64"])
.complex_samples(&["self: C[2,3]"])];
