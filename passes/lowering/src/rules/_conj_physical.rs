use super::complex_common::conj;
use crate::Rule;

/// `_conj_physical` (what core ATen writes for `conj_physical`): the
/// conjugate of a complex tensor, identity on a real one.
pub const RULES: &[Rule] =
    &[Rule::custom("aten._conj_physical.default", |c| Ok(vec![c.op("Identity", &[c.args.tensor("self")?], &[])?]))
        .complex(conj)
        .samples(&["self: T[2,3]", "self: T[]"])
        .dtypes(&["f32", "f64", "i64"])
        .complex_samples(&["self: C[2,3]", "self: C[]"])];
