use super::common::{split_like_results, Pieces};
use crate::Rule;

/// `unsafe_chunk`: `chunk` (only autograd differs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.unsafe_chunk.default", |c| split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?, Pieces::Chunks(c.args.int("chunks")?)))
        .samples(&["self: T[6,4]; chunks: 3", "self: T[5,4]; chunks: 2; dim: 0", "self: T[2,6]; chunks: 4; dim: -1", "self: T[3]; chunks: 1"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
