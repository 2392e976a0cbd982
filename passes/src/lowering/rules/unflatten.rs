use super::common::shape_slice;
use crate::lowering::{Attr, Rule};

/// Reshape to `shape[:dim] + sizes + shape[dim+1:]`.
pub const RULES: &[Rule] = &[Rule::custom("aten.unflatten.int", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.norm_dim(c.args.int("dim")?, rank);
    let sizes = c.int_list_tensor(&c.args.sym_ints("sizes")?)?;
    let mut parts = Vec::new();
    if dim > 0 {
        parts.push(shape_slice(c, x, 0, Some(dim))?);
    }
    parts.push(sizes);
    if dim + 1 < rank as i64 {
        parts.push(shape_slice(c, x, dim + 1, None)?);
    }
    let shape = c.b.op("Concat", &parts, &[("axis", Attr::Int(0))], c.b.unranked(c.b.i64_type()))?;
    Ok(vec![c.op("Reshape", &[x, shape], &[])?])
})
.samples(&["self: T[2,12]; dim: 1; sizes: [3,4]", "self: T[6,2]; dim: 0; sizes: [-1,2]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
