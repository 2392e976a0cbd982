use super::shapes_common::atleast;
use crate::Rule;

/// `torch.atleast_1d`: leading (and for 3-D trailing) size-1 dims added
/// up to rank 1; one result per tensor for the Sequence overload.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.atleast_1d.default", |c| Ok(vec![atleast(c, c.args.tensor("self")?, 1)?]))
        .samples(&["self: T[]", "self: T[3]", "self: T[2,3]", "self: T[2,3,4]", "self: T[0]", "self: T[2,1,3,2]"])
        .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.atleast_1d.Sequence", |c| {
        c.args.tensors("tensors")?.into_iter().map(|t| atleast(c, t, 1)).collect()
    })
    .samples(&["tensors: (T[], T[3], T[2,3], T[2,3,4])", "tensors: (T[0,2])"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];
