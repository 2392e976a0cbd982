use super::polygamma_common::polygamma_rule;
use crate::Rule;

/// `polygamma(n, x)`: order 0 is digamma; orders 1..=MAX_ORDER are built
/// from elementwise ops in float64 (see `polygamma_rule`, polygamma_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.polygamma.default", polygamma_rule)
    .samples(&[
        "n: 0; self: T[2,3]",
        "n: 0; self: T[]",
        "n: 1; self: T[3,4]",
        "n: 1; self: i64[2,5]{-3..12}",
        "n: 2; self: T[3,4]",
        "n: 2; self: i64[2,5]{-3..12}",
        "n: 3; self: T[2,3]{pos}",
        "n: 4; self: T[3,4]",
        "n: 5; self: T[3,4]",
        "n: 9; self: T[3,4]",
        "n: 3; self: T[0]",
        "n: 2; self: T[]",
    ])
    .dtypes(&["f32", "f64", "i64"])
    .refuses(&[("n: 40; self: T[2,3]", "orders up to")])];
