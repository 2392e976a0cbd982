use crate::{IntArg, Rule};

/// `Slice(x, start, start + length)` on `dim`.
pub const RULES: &[Rule] = &[Rule::custom("aten.narrow.default", |c| {
    let x = c.args.tensor("self")?;
    let dim = c.args.int("dim")?;
    let start = c.args.sym_int("start")?;
    let length = c.args.sym_int("length")?;
    let (starts, ends) = match (start, length) {
        (IntArg::Static(s), IntArg::Static(l)) if s >= 0 => (c.b.const_i64s(&[s])?, c.b.const_i64s(&[s + l])?),
        // A negative start counts from the end: the slice ending at the end
        // has end -s + ... = 0, which Slice would read as "before the start".
        (IntArg::Static(s), IntArg::Static(l)) => {
            let end = if s + l == 0 { i64::MAX } else { s + l };
            (c.b.const_i64s(&[s])?, c.b.const_i64s(&[end])?)
        }
        (s, l) => {
            let s = c.int_tensor(s)?;
            let l = c.int_tensor(l)?;
            let e = c.b.onnx().add(s, l).like(s)?;
            (s, e)
        }
    };
    let axes = c.b.const_i64s(&[dim])?;
    Ok(vec![c.b.onnx().slice(x, starts, ends, Some(axes), None).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[5,4]; dim: 0; start: 1; length: 3",
    "self: T[5,4]; dim: -1; start: 0; length: 2",
    "self: T[5,4]; dim: 0; start: -2; length: 2",
    "self: T[5,4]; dim: 1; start: -3; length: 1",
])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
