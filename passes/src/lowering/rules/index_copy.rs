use super::index_add::{finish, lift_0d};
use super::tensor_common::{index_along, scatter_reduce};
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_copy.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let src = c.tensor_as("source", c.result_element(0)?)?;
    let (x1, src, rank1) = lift_0d(c, x, src, rank)?;
    let shape = c.b.shape(src)?;
    let index = index_along(c, c.args.tensor("index")?, dim, rank1, shape)?;
    let r = scatter_reduce(c, x1, dim, index, src, "none", true)?;
    finish(c, r, rank)
})
// Unique indices: with duplicates torch leaves the winner unspecified.
.samples(&[
    "self: T[5,3]; dim: 0; index: i64[1]{0..5}; source: T[1,3]",
    "self: T[3,5]; dim: 1; index: i64[1]{0..5}; source: T[3,1]",
    "self: T[3,5]; dim: -1; index: i64[0]; source: T[3,0]",
    "self: T[]; dim: 0; index: i64[]{0..1}; source: T[]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
