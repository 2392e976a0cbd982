use super::shapes_common::real_only;
use crate::Rule;

/// `resolve_conj`: identity on real tensors (only complex tensors carry a conjugate bit).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.resolve_conj.default", |c| Ok(vec![real_only(c.args.tensor("self")?, "resolve_conj")?]))
        .complex(super::complex_common::identity)
        .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
        .samples(&["self: T[2,3]", "self: T[]", "self: T[0]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
