//! Gradients of element-wise losses with respect to the input, following
//! `torch/_decomp/decompositions.py`. `reduction`: 0 none (`grad_output`
//! shaped like the input), 1 mean (scaled by 1 / numel: the input's size
//! must be static), 2 sum (`grad_output` 0-d).

use super::{Arg, Decomposition as D, Dx};
use crate::builder;
use melior::ir::{Type, Value, ValueLike};

type V<'c, 'a> = Value<'c, 'a>;

/// 1 / numel for `mean`, 1 for `none` and `sum`.
fn norm(d: &Dx<'_, '_>, x: V<'_, '_>) -> Result<f64, String> {
    match d.args.int("reduction")? {
        0 | 2 => Ok(1.0),
        1 => {
            let dims = builder::dims(x.r#type()).ok_or("the input has an unknown rank")?;
            let n: Option<i64> = dims.iter().try_fold(1i64, |acc, d| d.map(|d| acc * d));
            match n {
                Some(n) => Ok(1.0 / n as f64),
                None => Err("reduction='mean' needs the input's size to be static".into()),
            }
        }
        r => Err(format!("reduction {r} is not 0 (none), 1 (mean) or 2 (sum)")),
    }
}

/// `self <op> other` (`target`: `aten.mul.Tensor`, ...).
fn tensor_op<'c, 'a>(d: &Dx<'c, 'a>, target: &str, a: V<'c, 'a>, b: V<'c, 'a>, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    d.call(target, &[("self", Arg::T(a)), ("other", Arg::T(b))], ty)
}

/// `self <op> s` (`target`: `aten.mul.Scalar`, ...).
fn scalar_op<'c, 'a>(d: &Dx<'c, 'a>, target: &str, a: V<'c, 'a>, s: f64, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    d.call(target, &[("self", Arg::T(a)), ("other", Arg::Float(s))], ty)
}

fn mul<'c, 'a>(d: &Dx<'c, 'a>, a: V<'c, 'a>, b: V<'c, 'a>, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    tensor_op(d, "aten.mul.Tensor", a, b, ty)
}

fn sub<'c, 'a>(d: &Dx<'c, 'a>, a: V<'c, 'a>, b: V<'c, 'a>, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    tensor_op(d, "aten.sub.Tensor", a, b, ty)
}

fn div_scalar<'c, 'a>(d: &Dx<'c, 'a>, a: V<'c, 'a>, s: f64, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    scalar_op(d, "aten.div.Scalar", a, s, ty)
}

fn lt_scalar<'c, 'a>(d: &Dx<'c, 'a>, a: V<'c, 'a>, s: f64, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    scalar_op(d, "aten.lt.Scalar", a, s, ty)
}

fn mul_scalar<'c, 'a>(d: &Dx<'c, 'a>, a: V<'c, 'a>, s: f64, ty: Type<'c>) -> Result<V<'c, 'a>, String> {
    scalar_op(d, "aten.mul.Scalar", a, s, ty)
}

/// (input, grad_output, input - target, the result type).
fn parts<'c, 'a>(d: &Dx<'c, 'a>) -> Result<(V<'c, 'a>, V<'c, 'a>, V<'c, 'a>, Type<'c>), String> {
    let (x, y, g) = (d.args.tensor("self")?, d.args.tensor("target")?, d.args.tensor("grad_output")?);
    let r = d.result_type(0)?;
    let diff = sub(d, x, y, r)?;
    Ok((x, g, diff, r))
}

const SAMPLES: &[&str] = &[
    "grad_output: T[2,5]; self: T[2,5]; target: T[2,5]; reduction: 0",
    "grad_output: T[]; self: T[2,5]; target: T[2,5]; reduction: 1",
    "grad_output: T[]; self: T[3]; target: T[3]; reduction: 2",
];

pub const DECOMPOSITIONS: &[D] = &[
    D::new("aten.mse_loss_backward.default", "2 * norm * (x - target) * grad_output", |d| {
        let (x, g, diff, r) = parts(d)?;
        let scaled = mul_scalar(d, diff, 2.0 * norm(d, x)?, r)?;
        Ok(vec![mul(d, scaled, g, r)?])
    })
    .samples(SAMPLES)
    .dtypes(&["f32", "f64"]),
    D::new("aten.smooth_l1_loss_backward.default", "norm * grad_output * where(|x - t| < beta, (x - t) / beta, sign(x - t))", |d| {
        let (x, g, diff, r) = parts(d)?;
        let beta = d.args.float("beta")?;
        let ng = mul_scalar(d, g, norm(d, x)?, d.type_of(g))?;
        let sign = d.call("aten.sign.default", &[("self", Arg::T(diff))], r)?;
        let grad = if beta == 0.0 {
            sign
        } else {
            let abs = d.call("aten.abs.default", &[("self", Arg::T(diff))], r)?;
            let small = lt_scalar(d, abs, beta, d.bool_like(r)?)?;
            let linear = div_scalar(d, diff, beta, r)?;
            d.call("aten.where.self", &[("condition", Arg::T(small)), ("self", Arg::T(linear)), ("other", Arg::T(sign))], r)?
        };
        Ok(vec![mul(d, grad, ng, r)?])
    })
    .samples(&[
        "grad_output: T[2,5]; self: T[2,5]; target: T[2,5]; reduction: 0; beta: 0.5",
        "grad_output: T[]; self: T[2,5]; target: T[2,5]; reduction: 1; beta: 1.0",
        "grad_output: T[]; self: T[3]; target: T[3]; reduction: 2; beta: 0.0",
    ])
    .dtypes(&["f32", "f64"]),
    D::new("aten.huber_loss_backward.default", "norm * grad_output * clamp(x - t, -delta, delta)", |d| {
        let (x, g, diff, r) = parts(d)?;
        let delta = d.args.float("delta")?;
        let ng = mul_scalar(d, g, norm(d, x)?, d.type_of(g))?;
        // where(x < -delta, -delta, where(x > delta, delta, x)): a clamp
        // that keeps NaN, like torch's formula.
        let clamped = d.call(
            "aten.clamp.default",
            &[("self", Arg::T(diff)), ("min", Arg::Float(-delta)), ("max", Arg::Float(delta))],
            r,
        )?;
        Ok(vec![mul(d, clamped, ng, r)?])
    })
    .samples(&[
        "grad_output: T[2,5]; self: T[2,5]; target: T[2,5]; reduction: 0; delta: 0.5",
        "grad_output: T[]; self: T[2,5]; target: T[2,5]; reduction: 1; delta: 1.0",
    ])
    .dtypes(&["f32", "f64"]),
    D::new("aten.soft_margin_loss_backward.default", "norm * grad_output * -t * sigmoid(-t * x)", |d| {
        let (x, y, g) = (d.args.tensor("self")?, d.args.tensor("target")?, d.args.tensor("grad_output")?);
        let r = d.result_type(0)?;
        let neg_y = d.call("aten.neg.default", &[("self", Arg::T(y))], d.type_of(y))?;
        let z = mul(d, neg_y, x, r)?;
        // -t * exp(z) / (1 + exp(z)) = -t * sigmoid(z)
        let s = d.call("aten.sigmoid.default", &[("self", Arg::T(z))], r)?;
        let t = mul(d, neg_y, s, r)?;
        let ng = mul_scalar(d, g, norm(d, x)?, d.type_of(g))?;
        Ok(vec![mul(d, t, ng, r)?])
    })
    .samples(SAMPLES)
    .dtypes(&["f32", "f64"]),
];
