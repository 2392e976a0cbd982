//! `aten.transpose.int`: ONNX `Transpose` swapping `dim0` and `dim1`; nothing for equal dims or a 0-d tensor
//! (torch accepts dims 0 / -1 on it).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.transpose.int", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let (d0, d1) = (c.dim(c.args.int("dim0")?, rank)?, c.dim(c.args.int("dim1")?, rank)?);
    if rank == 0 || d0 == d1 {
        // torch accepts dims 0 / -1 on a 0-d tensor: nothing moves.
        return Ok(vec![x]);
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(d0, d1);
    Ok(vec![c.b.onnx().transpose(x, Some(&perm)).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::transpose_int)
.complex_samples(&["self: C[2,3,4]; dim0: 0; dim1: -1"])
.samples(&[
    "self: T[2,3,4]; dim0: 0; dim1: 2",
    "self: T[2,3]; dim0: -1; dim1: 0",
    "self: T[]; dim0: 0; dim1: -1",
    "self: T[0,3]; dim0: 1; dim1: 0",
    "self: T[2,3]; dim0: 1; dim1: 1",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16", "bf16", "i8", "u8"])
.refuses(&[("self: T[2,3]; dim0: 2; dim1: 0", "out of range")])];
