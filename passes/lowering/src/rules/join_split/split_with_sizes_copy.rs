use super::alias_common::same_as;
use crate::Rule;

/// `split_with_sizes_copy`: `split_with_sizes` as fresh tensors.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.split_with_sizes_copy.default", |c| same_as(c, "aten.split_with_sizes.default"))
        .samples(&[
            "self: T[5,4]; split_sizes: [2,3]",
            "self: T[2,6]; split_sizes: [1,5]; dim: -1",
            "self: T[2,6]; split_sizes: [0,6]; dim: 1",
            "self: T[4]; split_sizes: [4]",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
