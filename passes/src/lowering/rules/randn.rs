use super::random_common::{normal_like, template};
use crate::lowering::Rule;

/// `N(0, 1)` of `size`.
pub const RULES: &[Rule] = &[Rule::custom("aten.randn.default", |c| {
    let element = c.result_element(0)?;
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    let t = template(c, shape, element)?;
    Ok(vec![normal_like(c, t, element, 0.0, 1.0)?])
})
.samples(&["size: [2,3]"])];
