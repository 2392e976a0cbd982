//! `aten._cdist_forward`: `[*, P, M] x [*, R, M] -> [*, P, R]`, the p-norm of every row difference computed
//! from the broadcast differences (p = 0 counts nonzeros, p = inf takes the max). torch's matmul shortcut for
//! large p = 2 inputs gives the same values up to rounding: `compute_mode` is not read; p < 0 is refused.

use super::distance_common::cdist;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._cdist_forward.default", cdist).samples(&[
    "x1: T[3,4]; x2: T[5,4]; p: 2.0; compute_mode: none",
    "x1: T[2,3,4]; x2: T[2,5,4]; p: 1.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 0.0; compute_mode: none",
    "x1: T[3,4]; x2: T[2,4]; p: 3.0; compute_mode: none",
    "x1: T[2,1,3,4]; x2: T[3,2,4]; p: inf; compute_mode: none",
    "x1: T[0,4]; x2: T[2,4]; p: 2.0; compute_mode: none",
])];
