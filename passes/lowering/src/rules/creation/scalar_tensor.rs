use crate::{IntArg, Rule};

/// A 0-d tensor of a number, static or computed (a symbolic size).
pub const RULES: &[Rule] = &[Rule::custom("aten.scalar_tensor.default", |c| {
    let element = c.result_element(0)?;
    match c.args.sym_int("s") {
        Ok(IntArg::Dynamic(v)) => Ok(vec![c.int_scalar(IntArg::Dynamic(v), element)?]),
        // A symbolic number a rule folded to a constant (`sym_numel` of
        // static sizes, a layout read from the capture's meta).
        Ok(IntArg::Static(n)) if c.args.number("s").is_err() => {
            let symbool = c.aten_operand_types.first().is_some_and(|t| crate::builder::is_bool(*t));
            Ok(vec![c.b.const_scalar(element, if symbool { (n != 0) as i64 as f64 } else { n as f64 })?])
        }
        _ => Ok(vec![c.b.const_scalar(element, c.args.number("s")?.as_f64())?]),
    }
})
.samples(&["s: 2.5", "s: 3; dtype: dtype(i64)"])];
