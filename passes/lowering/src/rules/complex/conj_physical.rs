use super::shapes_common::real_only;
use crate::Rule;

/// `conj_physical`: identity on real tensors.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.conj_physical.default", |c| Ok(vec![real_only(c.args.tensor("self")?, "conj_physical")?]))
        .complex(super::complex_common::conj)
        .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
        .samples(&["self: T[2,3]", "self: T[]", "self: T[0]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
