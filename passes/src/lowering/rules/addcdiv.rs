use crate::lowering::Rule;

/// `self + value * tensor1 / tensor2`.
pub const RULES: &[Rule] = &[Rule::custom("aten.addcdiv.default", |c| {
    let e = c.result_element(0)?;
    let (x, t1, t2) = (c.tensor_as("self", e)?, c.tensor_as("tensor1", e)?, c.tensor_as("tensor2", e)?);
    let mut p = c.b.op_like("Div", &[t1, t2], &[], x)?;
    let v = c.args.number("value")?.as_f64();
    if v != 1.0 {
        p = c.b.op_like("Mul", &[p, c.b.const_scalar(e, v)?], &[], x)?;
    }
    Ok(vec![c.op("Add", &[x, p], &[])?])
})
.samples(&[
    "self: T[2,3]; tensor1: T[2,3]; tensor2: T[3]{pos}",
    "self: T[3]; tensor1: T[2,3]; tensor2: T[2,3]{pos}; value: 0.5",
]).dtypes(&["f32", "f16", "bf16", "f64"])];
