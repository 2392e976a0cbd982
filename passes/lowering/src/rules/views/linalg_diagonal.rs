use super::diagonal_common::diagonal;
use crate::Rule;

/// `torch.linalg.diagonal(A, offset, dim1=-2, dim2=-1)`: `torch.diagonal`
/// with other defaults.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_diagonal.default", |c| {
    let a = c.args.tensor("A")?;
    Ok(vec![diagonal(c, a, c.args.int("offset")?, c.args.int("dim1")?, c.args.int("dim2")?)?])
})
.samples(&[
    "A: T[3,4]",
    "A: T[2,3,4]; offset: 1",
    "A: T[2,3,4]; offset: -2; dim1: 0; dim2: 2",
    "A: T[3,4]; offset: 6",
    "A: T[2,0,3]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
