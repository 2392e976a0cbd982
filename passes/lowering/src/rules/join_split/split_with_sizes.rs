//! `aten.split_with_sizes`: ONNX `Split` along `dim` by the results' static sizes, or by `split_sizes` itself
//! where a size is dynamic (unbacked sizes too: MoE layers split tokens by counts read with `tolist()`).

use super::common::{split_like_results, Pieces};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.split_with_sizes.default", |c| {
    split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?, Pieces::Sizes(c.args.sym_ints("split_sizes")?))
})
.samples(&["self: T[5,4]; split_sizes: [2,3]", "self: T[2,6]; split_sizes: [1,5]; dim: -1"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
