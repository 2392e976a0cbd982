//! `aten.movedim` (`.int`, `.intlist`): a `Transpose` moving each source dim to its destination, the other dims
//! keeping their order in the remaining places; nothing when the permutation is the identity. Repeated dims are
//! refused, as by torch.

use super::shapes_common::movedim;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.movedim.int", |c| {
        let (s, d) = (c.args.int("source")?, c.args.int("destination")?);
        movedim(c, &[s], &[d])
    })
    .samples(&[
        "self: T[2,3,4]; source: 0; destination: 2",
        "self: T[2,3,4]; source: -1; destination: 0",
        "self: T[]; source: 0; destination: -1",
    ])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"]),
    Rule::custom("aten.movedim.intlist", |c| movedim(c, &c.args.ints("source")?, &c.args.ints("destination")?))
        .samples(&[
            "self: T[2,3,4,5]; source: [0,1]; destination: [3,2]",
            "self: T[2,3,4]; source: [-1]; destination: [0]",
            "self: T[2,3]; source: []; destination: []",
        ])
        .dtypes(&["f32", "i64", "bool", "i32", "f64"])
        .refuses(&[("self: T[2,3,4]; source: [0,0]; destination: [1,2]", "repeated")]),
];
