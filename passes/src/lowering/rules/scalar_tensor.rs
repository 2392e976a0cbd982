use crate::lowering::{IntArg, Rule};

/// A 0-d tensor of a number, static or computed (a symbolic size).
pub const RULES: &[Rule] = &[Rule::custom("aten.scalar_tensor.default", |c| {
    let element = c.result_element(0)?;
    match c.args.sym_int("s") {
        Ok(IntArg::Dynamic(v)) => Ok(vec![c.int_scalar(IntArg::Dynamic(v), element)?]),
        _ => Ok(vec![c.b.const_scalar(element, c.args.number("s")?.as_f64())?]),
    }
})
.samples(&["s: 2.5", "s: 3; dtype: dtype(i64)"])];
