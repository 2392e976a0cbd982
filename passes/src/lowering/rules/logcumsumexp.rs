use super::cummax::{shift, static_len};
use super::logaddexp::logaddexp_of;
use super::math_common::along_dim;
use crate::lowering::Rule;

/// `log(cumsum(exp(x)))` as an inclusive scan of logaddexp in ceil(log2 n)
/// steps (stable: no overflow, and small early terms are not lost to a
/// global shift; -inf is the identity).
pub const RULES: &[Rule] = &[Rule::custom("aten.logcumsumexp.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let dim = c.args.int("dim")?;
    let n = static_len(c, x, dim, "logcumsumexp")?;
    let rank = c.rank(x)?.max(1);
    let y = along_dim(c, x, dim, |x, axis| {
        let fill = c.b.const_like(x, f64::NEG_INFINITY)?;
        let mut y = x;
        let mut s = 1i64;
        while s < n {
            let a = shift(c, y, axis, rank, n, s, fill)?;
            y = logaddexp_of(c, a, y, false)?;
            s *= 2;
        }
        Ok(y)
    })?;
    Ok(vec![c.op("Identity", &[y], &[])?])
})
.samples(&["self: T[3,6]; dim: 1", "self: T[5,3]; dim: 0", "self: T[]; dim: 0", "self: T[0,3]; dim: 0"])];
