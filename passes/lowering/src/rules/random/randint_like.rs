use super::random_common::randint;
use crate::Rule;

/// Integers uniform in `[low, high)` shaped like `self`, of the result dtype
/// (`self`'s unless `dtype` is given; floats hold the integers).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.randint_like.default", |c| {
        let shape = c.b.shape(c.args.tensor("self")?)?;
        randint(c, None, c.args.sym_int("high")?, shape)
    })
    .samples(&["self: T[2,3]; high: 7"])
    .dtypes(&["f32", "i64"])
    .refuses(&[("self: T[2,3]; high: 0", "less than")]),
    Rule::custom("aten.randint_like.low_dtype", |c| {
        let shape = c.b.shape(c.args.tensor("self")?)?;
        randint(c, Some(c.args.sym_int("low")?), c.args.sym_int("high")?, shape)
    })
    .samples(&["self: T[2,3]; low: -3; high: 5"])
    .dtypes(&["f32", "i64"])
    .refuses(&[("self: T[2,3]; low: 5; high: 5", "less than")]),
];
