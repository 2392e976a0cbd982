use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.cat.default", |c| {
    let element = c.result_element(0)?;
    let mut inputs = Vec::new();
    for t in c.args.tensors("tensors")? {
        inputs.push(c.b.cast_like_type(t, element)?);
    }
    Ok(vec![c.op("Concat", &inputs, &[("axis", Attr::Int(c.args.int("dim")?))])?])
})];
