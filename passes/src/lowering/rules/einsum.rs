use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.einsum.default", |c| {
    let equation = c.args.string("equation")?;
    let element = c.result_element(0)?;
    let mut inputs = Vec::new();
    for t in c.args.tensors("tensors")? {
        inputs.push(c.b.cast_like_type(t, element)?);
    }
    Ok(vec![c.op("Einsum", &inputs, &[("equation", Attr::String(equation.replace(' ', "")))])?])
})
.samples(&["equation: \"bij,bjk->bik\"; tensors: (T[2,3,4], T[2,4,5])", "equation: \"ij->ji\"; tensors: (T[3,4])"])];
