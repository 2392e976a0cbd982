use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.argmax.default", |c| {
    let mut x = c.args.tensor("self")?;
    let keepdim = c.args.bool("keepdim")?;
    let axis = match c.args.opt_int("dim")? {
        Some(d) => d,
        None => {
            // Over the flattened tensor.
            let flat = c.b.const_i64s(&[-1])?;
            x = c.b.op_like("Reshape", &[x, flat], &[], x)?;
            0
        }
    };
    Ok(vec![c.op("ArgMax", &[x], &[("axis", Attr::Int(axis)), ("keepdims", Attr::Int(keepdim as i64))])?])
})
.samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true", "self: T[3,4]"])
.dtypes(&["f32", "i64"])];
