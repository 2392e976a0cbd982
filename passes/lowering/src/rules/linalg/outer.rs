use crate::Rule;

/// `self[:, None] * vec2[None, :]` (`and` for bools).
pub const RULES: &[Rule] = &[Rule::custom("aten.outer.default", |c| {
    let el = c.result_element(0)?;
    let a = c.unsqueeze(c.tensor_as("self", el)?, &[1])?;
    let b = c.tensor_as("vec2", el)?;
    let p = if crate::builder::is_bool(el) { c.b.onnx().and(a, b) } else { c.b.onnx().mul(a, b) };
    Ok(vec![p.typed(c.result_type(0)?)?])
})
.samples(&["self: T[3]; vec2: T[4]", "self: T[0]; vec2: T[4]", "self: T[1]; vec2: T[2]"])
.dtypes(&["f32", "f64", "i64", "bool"])];
