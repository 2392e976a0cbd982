//! `aten.nanmean`: the sum of the non-NaN elements over `dim` divided by their count (NaN replaced by 0 with
//! `Where`, `ReduceSum` of both); no non-NaN element gives 0 / 0 = NaN, as in torch.

use super::reduce_common::nan_reduce;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nanmean.default", |c| nan_reduce(c, true)).samples(&[
    "self: T[3,4]",
    "self: T[3,4]; dim: [1]",
    "self: T[3,4,2]; dim: [0,2]; keepdim: true",
    "self: T[]; dim: [0]",
])];
