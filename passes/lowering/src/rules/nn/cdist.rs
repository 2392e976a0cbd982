//! `aten.cdist`: `[*, P, M] x [*, R, M] -> [*, P, R]`, the p-norm of every row difference computed from the
//! broadcast differences (p = 0 counts nonzeros, p = inf takes the max). torch's matmul shortcut for large
//! p = 2 inputs gives the same values up to rounding; p < 0 is refused.

use super::distance_common::cdist;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.cdist.default", cdist).samples(&[
    "x1: T[3,4]; x2: T[5,4]",
    "x1: T[2,3,4]; x2: T[2,5,4]; p: 1.0",
    "x1: T[30,4]; x2: T[27,4]",
])];
