use super::shapes_common::real_only;
use crate::Rule;

/// `resolve_neg`: identity (the negative bit exists only on lazily negated
/// complex views, which ONNX values never are).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.resolve_neg.default", |c| Ok(vec![real_only(c.args.tensor("self")?, "resolve_neg")?]))
        .complex(super::complex_common::identity)
        .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
        .samples(&["self: T[2,3]", "self: T[]", "self: T[0]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
