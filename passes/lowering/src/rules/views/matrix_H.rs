use super::transpose_common::swap_last_two;
use super::shapes_common::real_only;
use crate::Rule;

/// `x.H` (`matrix_H`): the conjugate transpose of a matrix; for real
/// tensors the transpose of the last two dims.
pub const RULES: &[Rule] = &[Rule::custom("aten.matrix_H.default", |c| {
    real_only(c.args.tensor("self")?, "matrix_H")?;
    swap_last_two(c)
})
.samples(&["self: T[3,4]", "self: T[0,2]", "self: T[1,5]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
