//! Element-wise activations written with simpler ops (torch/_refs's
//! formulas). They all have lowering rules: these run only when listed
//! (`aten-decompose{ops=...}`, `aten-translate --decompose`), e.g. to feed a
//! runtime that fuses the simpler pattern, or to bisect a rule.

use super::{Arg, Decomposition as D, Dx};
use melior::ir::Value;

type R<'c, 'a> = Result<Vec<Value<'c, 'a>>, String>;

fn silu<'c, 'a>(d: &Dx<'c, 'a>) -> R<'c, 'a> {
    let ty = d.result_type(0)?;
    let s = d.call("aten.sigmoid.default", &[("self", d.same("self")?)], ty)?;
    Ok(vec![d.call("aten.mul.Tensor", &[("self", d.same("self")?), ("other", Arg::T(s))], ty)?])
}

fn mish<'c, 'a>(d: &Dx<'c, 'a>) -> R<'c, 'a> {
    let ty = d.result_type(0)?;
    let sp = d.call("aten.softplus.default", &[("self", d.same("self")?)], ty)?;
    let t = d.call("aten.tanh.default", &[("self", Arg::T(sp))], ty)?;
    Ok(vec![d.call("aten.mul.Tensor", &[("self", d.same("self")?), ("other", Arg::T(t))], ty)?])
}

fn hardswish<'c, 'a>(d: &Dx<'c, 'a>) -> R<'c, 'a> {
    // x * relu6(x + 3) / 6 = x * hardsigmoid(x)
    let ty = d.result_type(0)?;
    let hs = d.call("aten.hardsigmoid.default", &[("self", d.same("self")?)], ty)?;
    Ok(vec![d.call("aten.mul.Tensor", &[("self", d.same("self")?), ("other", Arg::T(hs))], ty)?])
}

const X: &[&str] = &["self: T[2,8]{-5..5}", "self: T[3,4]", "self: T[]", "self: T[0,3]"];

pub const DECOMPOSITIONS: &[D] = &[
    D::new("aten.silu.default", "x * sigmoid(x)", silu).samples(X).dtypes(&["f32", "f64"]),
    D::new("aten.mish.default", "x * tanh(softplus(x))", mish).samples(X).dtypes(&["f32", "f64"]),
    D::new("aten.hardswish.default", "x * hardsigmoid(x)", hardswish).samples(X).dtypes(&["f32", "f64"]),
];
