//! `aten.chunk`: ONNX `Split` along `dim` into the sizes of the op's results. Along a dynamic dim the sizes are
//! computed in the graph: `ceil(size / chunks)` each, the last one what remains.

use super::common::{split_like_results, Pieces};
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.chunk.default", |c| split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?, Pieces::Chunks(c.args.int("chunks")?)))
        .samples(&["self: T[6,4]; chunks: 3", "self: T[5,4]; chunks: 2; dim: 0", "self: T[2,6]; chunks: 2; dim: -1"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
