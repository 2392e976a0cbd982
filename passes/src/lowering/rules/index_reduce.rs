use super::index_add::{finish, lift_0d};
use super::tensor_common::{index_along, scatter_reduce};
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.index_reduce.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let src = c.tensor_as("source", c.result_element(0)?)?;
    let (x1, src, rank1) = lift_0d(c, x, src, rank)?;
    let shape = c.b.shape(src)?;
    let index = index_along(c, c.args.tensor("index")?, dim, rank1, shape)?;
    let reduce = c.args.string("reduce")?;
    if !matches!(reduce.as_str(), "prod" | "mean" | "amax" | "amin") {
        return Err(format!("index_reduce: reduce must be prod, mean, amax or amin, got '{reduce}'"));
    }
    let r = scatter_reduce(c, x1, dim, index, src, &reduce, c.args.bool("include_self")?)?;
    finish(c, r, rank)
})
.samples(&[
    "self: T[5,3]; dim: 0; index: i64[6]{0..5}; source: T[6,3]; reduce: \"prod\"",
    "self: T[5,3]; dim: 0; index: i64[6]{0..5}; source: T[6,3]; reduce: \"prod\"; include_self: false",
    "self: T[3,5]; dim: 1; index: i64[7]{0..5}; source: T[3,7]; reduce: \"mean\"",
    "self: T[3,5]; dim: 1; index: i64[7]{0..5}; source: T[3,7]; reduce: \"mean\"; include_self: false",
    "self: T[3,5]; dim: -1; index: i64[4]{0..5}; source: T[3,4]; reduce: \"amax\"",
    "self: T[3,5]; dim: -1; index: i64[4]{0..5}; source: T[3,4]; reduce: \"amin\"; include_self: false",
])
.dtypes(&["f32", "i64", "i32", "f64"])];
