//! `aten.swapaxes`: ONNX `Transpose` swapping `axis0` and `axis1`; nothing for a 0-d tensor or equal axes.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.swapaxes.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let (a, b) = (c.dim(c.args.int("axis0")?, rank)?, c.dim(c.args.int("axis1")?, rank)?);
    if rank == 0 || a == b {
        return Ok(vec![x]);
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(a, b);
    Ok(vec![c.b.onnx().transpose(x, Some(&perm)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3,4]; axis0: 0; axis1: 2", "self: T[2,3]; axis0: -1; axis1: 0", "self: T[]; axis0: 0; axis1: 0"])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
