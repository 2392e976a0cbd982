use super::common::filled;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.full.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, c.args.number("fill_value")?.as_f64())
})
.samples(&["size: [2,3]; fill_value: 1.5", "size: [2]; fill_value: 3; dtype: dtype(i64)"])];
