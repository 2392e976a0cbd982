//! `aten.randint` (`.default`, `.low`): integers uniform in `[low, high)`: `floor(low + U * (high - low))` in
//! float64, clamped below `high`, cast to the result type. `U` comes from `Dropout` masks (random_common.rs),
//! with `log2(high - low) + 24` random bits (53 for a dynamic range).

use super::random_common::randint;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.randint.default", |c| {
        let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
        randint(c, None, c.args.sym_int("high")?, shape)
    })
    .samples(&["high: 5; size: [2,3]"]),
    Rule::custom("aten.randint.low", |c| {
        let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
        randint(c, Some(c.args.sym_int("low")?), c.args.sym_int("high")?, shape)
    })
    .samples(&["low: -3; high: 5; size: [2,3]"]),
];
