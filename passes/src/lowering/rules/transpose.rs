use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.transpose.int", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let (d0, d1) = (c.norm_dim(c.args.int("dim0")?, rank), c.norm_dim(c.args.int("dim1")?, rank));
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(d0 as usize, d1 as usize);
    Ok(vec![c.op("Transpose", &[x], &[("perm", Attr::Ints(perm))])?])
})
.samples(&["self: T[2,3,4]; dim0: 0; dim1: 2", "self: T[2,3]; dim0: -1; dim1: 0"])
.dtypes(&["f32", "i64"])];
