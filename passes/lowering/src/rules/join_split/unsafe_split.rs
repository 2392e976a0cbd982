use super::common::{split_like_results, Pieces};
use crate::Rule;

/// `unsafe_split`: `split` (only autograd differs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.unsafe_split.Tensor", |c| split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?, Pieces::Each(c.args.sym_int("split_size")?)))
        .samples(&["self: T[5,4]; split_size: 2", "self: T[2,6]; split_size: 3; dim: 1", "self: T[2,6]; split_size: 10; dim: -1"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
