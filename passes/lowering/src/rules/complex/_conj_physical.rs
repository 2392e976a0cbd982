use super::complex_common::conj;
use crate::Rule;

/// `_conj_physical` (what core ATen writes for `conj_physical`): the
/// conjugate of a complex tensor, identity on a real one.
pub const RULES: &[Rule] =
    &[Rule::custom("aten._conj_physical.default", |c| Ok(vec![c.b.onnx().identity(c.args.tensor("self")?).typed(c.result_type(0)?)?]))
        .complex(conj)
        .samples(&["self: T[2,3]", "self: T[]"])
        .dtypes(&["f32", "f64", "i64"])
        .complex_samples(&["self: C[2,3]", "self: C[]"])];
