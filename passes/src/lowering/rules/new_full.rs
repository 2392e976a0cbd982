use super::common::filled;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.new_full.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, c.args.number("fill_value")?.as_f64())
})
.samples(&["self: T[2]; size: [3]; fill_value: 7"])
.dtypes(&["f32", "i64"])];
