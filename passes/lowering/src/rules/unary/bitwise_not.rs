use crate::{builder, Rule};

/// `Not` on bools, `BitwiseNot` on integers.
pub const RULES: &[Rule] = &[Rule::custom("aten.bitwise_not.default", |c| {
    let x = c.args.tensor("self")?;
    let op = if builder::is_bool(c.result_element(0)?) { "Not" } else { "BitwiseNot" };
    Ok(vec![c.op(op, &[x], &[])?])
})
.samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
.dtypes(&["bool", "i64", "i32", "i8", "u8"])];
