//! `aten.moveaxis.int`: a `Transpose` moving dim `source` to `destination`, the other dims keeping their order;
//! nothing when the permutation is the identity.

use super::shapes_common::movedim;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.moveaxis.int", |c| {
    let (s, d) = (c.args.int("source")?, c.args.int("destination")?);
    movedim(c, &[s], &[d])
})
.samples(&["self: T[2,3,4]; source: 0; destination: -1", "self: T[2,3,4]; source: 2; destination: 1"])
.dtypes(&["f32", "i64", "i32", "f64"])];
