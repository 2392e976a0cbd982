//! `aten.split.Tensor`: ONNX `Split` along `dim` into the sizes of the op's results. Along a dynamic dim the
//! sizes are computed in the graph: `split_size` each, the last one what remains.

use super::common::{split_like_results, Pieces};
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.split.Tensor", |c| split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?, Pieces::Each(c.args.sym_int("split_size")?)))
        .samples(&["self: T[5,4]; split_size: 2", "self: T[2,6]; split_size: 3; dim: 1"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
