use super::random_common::normal;
use crate::Rule;

/// `N(0, 1)` of `size`.
pub const RULES: &[Rule] = &[Rule::custom("aten.randn.default", |c| {
    let element = c.result_element(0)?;
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    Ok(vec![normal(c, shape, element)?])
})
.samples(&["size: [2,3]"])];
