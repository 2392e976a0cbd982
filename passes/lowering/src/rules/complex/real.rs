use super::shapes_common::real_only;
use crate::Rule;

/// `torch.real`: identity on real tensors.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.real.default", |c| Ok(vec![real_only(c.args.tensor("self")?, "real")?]))
        .complex(|c| super::complex_common::part(c, 0))
        .complex_samples(&["self: C[2,3]", "self: C[]", "self: C[0,2]"])
        .samples(&["self: T[2,3]", "self: T[]", "self: T[0]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
