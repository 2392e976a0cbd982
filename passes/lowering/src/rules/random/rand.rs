use super::random_common::uniform;
use crate::Rule;

/// `U[0, 1)` of `size` (random_common.rs: from `Dropout` mask bits).
pub const RULES: &[Rule] = &[Rule::custom("aten.rand.default", |c| {
    let element = c.result_element(0)?;
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    Ok(vec![uniform(c, shape, element)?])
})
.samples(&["size: [2,3]"])];
