//! Gradients of element-wise activations (`*_backward` ops of training
//! graphs), written with the forward ops, following the formulas of
//! `torch/_decomp/decompositions.py`. `grad_output` and the saved tensor have
//! the same shape in autograd graphs; every op built here is typed like the
//! saved tensor or, once `grad_output` takes part, like the result.

use super::{Arg, Decomposition as D, Dx};
use melior::ir::{Type, Value};

type V<'c, 'a> = Value<'c, 'a>;
type R<'c, 'a> = Result<V<'c, 'a>, String>;

/// Element-wise helpers over one type.
struct E<'d, 'c, 'a> {
    d: &'d Dx<'c, 'a>,
    ty: Type<'c>,
}

impl<'c, 'a> E<'_, 'c, 'a> {
    fn mul(&self, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.mul.Tensor", &[("self", Arg::T(a)), ("other", Arg::T(b))], self.ty)
    }
    fn add(&self, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.add.Tensor", &[("self", Arg::T(a)), ("other", Arg::T(b))], self.ty)
    }
    fn div(&self, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.div.Tensor", &[("self", Arg::T(a)), ("other", Arg::T(b))], self.ty)
    }
    /// `a * s`.
    fn scale(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.d.call("aten.mul.Scalar", &[("self", Arg::T(a)), ("other", Arg::Float(s))], self.ty)
    }
    /// `a + s`.
    fn plus(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.d.call("aten.add.Scalar", &[("self", Arg::T(a)), ("other", Arg::Float(s))], self.ty)
    }
    /// `s - a`.
    fn rsub(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.d.call("aten.rsub.Scalar", &[("self", Arg::T(a)), ("other", Arg::Float(s))], self.ty)
    }
    fn abs(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.abs.default", &[("self", Arg::T(a))], self.ty)
    }
    fn erf(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.erf.default", &[("self", Arg::T(a))], self.ty)
    }
    fn exp(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.exp.default", &[("self", Arg::T(a))], self.ty)
    }
    fn neg(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.neg.default", &[("self", Arg::T(a))], self.ty)
    }
    fn sigmoid(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.sigmoid.default", &[("self", Arg::T(a))], self.ty)
    }
    fn softplus(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.softplus.default", &[("self", Arg::T(a))], self.ty)
    }
    fn tanh(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.tanh.default", &[("self", Arg::T(a))], self.ty)
    }
    /// `a <op> s` as a bool tensor (`target`: `aten.le.Scalar`, ...).
    fn compare(&self, target: &str, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.d.call(target, &[("self", Arg::T(a)), ("other", Arg::Float(s))], self.d.bool_like(self.ty)?)
    }
    /// `a >= s` (bool).
    fn ge(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.compare("aten.ge.Scalar", a, s)
    }
    /// `a > s` (bool).
    fn gt(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.compare("aten.gt.Scalar", a, s)
    }
    /// `a <= s` (bool).
    fn le(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.compare("aten.le.Scalar", a, s)
    }
    /// `a < s` (bool).
    fn lt(&self, a: V<'c, 'a>, s: f64) -> R<'c, 'a> {
        self.compare("aten.lt.Scalar", a, s)
    }
    fn or(&self, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.logical_or.default", &[("self", Arg::T(a)), ("other", Arg::T(b))], self.d.bool_like(self.ty)?)
    }
    fn and(&self, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.logical_and.default", &[("self", Arg::T(a)), ("other", Arg::T(b))], self.d.bool_like(self.ty)?)
    }
    /// `where(c, a, b)`.
    fn select(&self, c: V<'c, 'a>, a: V<'c, 'a>, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.where.self", &[("condition", Arg::T(c)), ("self", Arg::T(a)), ("other", Arg::T(b))], self.ty)
    }
    /// `where(c, s, b)`.
    fn select_scalar(&self, c: V<'c, 'a>, s: f64, b: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.where.ScalarSelf", &[("condition", Arg::T(c)), ("self", Arg::Float(s)), ("other", Arg::T(b))], self.ty)
    }
}

/// The saved-tensor and the result element helpers, plus `grad_output`.
fn parts<'d, 'c, 'a>(d: &'d Dx<'c, 'a>, saved: &str) -> Result<(E<'d, 'c, 'a>, E<'d, 'c, 'a>, V<'c, 'a>, V<'c, 'a>), String> {
    let x = d.args.tensor(saved)?;
    let g = d.args.tensor("grad_output")?;
    Ok((E { d, ty: d.type_of(x) }, E { d, ty: d.result_type(0)? }, x, g))
}

fn number(d: &Dx<'_, '_>, name: &str) -> Result<f64, String> {
    Ok(d.args.number(name)?.as_f64())
}

const GY: &[&str] = &["grad_output: T[2,3]; output: T[2,3]{unit}", "grad_output: T[]; output: T[]{unit}"];
const GX: &[&str] = &["grad_output: T[2,5]; self: T[2,5]", "grad_output: T[0,3]; self: T[0,3]"];

pub const DECOMPOSITIONS: &[D] = &[
    D::new("aten.tanh_backward.default", "grad_output * (1 - y^2)", |d| {
        let (ey, er, y, g) = parts(d, "output")?;
        let t = ey.rsub(ey.mul(y, y)?, 1.0)?;
        Ok(vec![er.mul(g, t)?])
    })
    .samples(GY)
    .dtypes(&["f32", "f64"]),
    D::new("aten.sigmoid_backward.default", "grad_output * y * (1 - y)", |d| {
        let (ey, er, y, g) = parts(d, "output")?;
        let t = ey.mul(y, ey.rsub(y, 1.0)?)?;
        Ok(vec![er.mul(g, t)?])
    })
    .samples(GY)
    .dtypes(&["f32", "f64"]),
    D::new("aten.threshold_backward.default", "where(x <= threshold, 0, grad_output)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let c = ex.le(x, number(d, "threshold")?)?;
        Ok(vec![er.select_scalar(c, 0.0, g)?])
    })
    .samples(&["grad_output: T[2,5]; self: T[2,5]; threshold: 0.1", "grad_output: T[]; self: T[]; threshold: 0"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.silu_backward.default", "grad_output * s * (1 + x * (1 - s)), s = sigmoid(x)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let s = ex.sigmoid(x)?;
        let t = ex.mul(s, ex.plus(ex.mul(x, ex.rsub(s, 1.0)?)?, 1.0)?)?;
        Ok(vec![er.mul(g, t)?])
    })
    .samples(GX)
    .dtypes(&["f32", "f64"]),
    D::new("aten.hardsigmoid_backward.default", "where(-3 < x < 3, grad_output / 6, 0)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let inside = ex.and(ex.gt(x, -3.0)?, ex.lt(x, 3.0)?)?;
        let outside = ex.unary_bool_not(inside)?;
        Ok(vec![er.select_scalar(outside, 0.0, er.scale(g, 1.0 / 6.0)?)?])
    })
    .samples(&["grad_output: T[2,8]; self: T[2,8]{-5..5}"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.hardswish_backward.default", "where(x <= -3, 0, where(x < 3, grad_output * (x / 3 + 0.5), grad_output))", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let middle = er.mul(g, ex.plus(ex.scale(x, 1.0 / 3.0)?, 0.5)?)?;
        let upper = er.select(ex.lt(x, 3.0)?, middle, g)?;
        Ok(vec![er.select_scalar(ex.le(x, -3.0)?, 0.0, upper)?])
    })
    .samples(&["grad_output: T[2,8]; self: T[2,8]{-5..5}"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.hardtanh_backward.default", "where(x <= min_val or x >= max_val, 0, grad_output)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let c = ex.or(
            ex.le(x, number(d, "min_val")?)?,
            ex.ge(x, number(d, "max_val")?)?,
        )?;
        Ok(vec![er.select_scalar(c, 0.0, g)?])
    })
    .samples(&["grad_output: T[2,8]; self: T[2,8]{-3..3}; min_val: -1; max_val: 1.5"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.leaky_relu_backward.default", "where(x > 0, grad_output, grad_output * negative_slope)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let c = ex.gt(x, 0.0)?;
        Ok(vec![er.select(c, g, er.scale(g, number(d, "negative_slope")?)?)?])
    })
    .samples(&["grad_output: T[2,5]; self: T[2,5]; negative_slope: 0.01; self_is_result: false"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.softshrink_backward.default", "where(-lambd <= x <= lambd, 0, grad_output)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let l = number(d, "lambd")?;
        let c = ex.and(ex.ge(x, -l)?, ex.le(x, l)?)?;
        Ok(vec![er.select_scalar(c, 0.0, g)?])
    })
    .samples(&["grad_output: T[2,8]; self: T[2,8]{-2..2}; lambd: 0.5"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.gelu_backward.default", "grad_output * (cdf(x) + x * pdf(x)) (or the tanh approximation's derivative)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let approximate = d.args.string("approximate").unwrap_or_else(|_| "none".into());
        let t = match approximate.as_str() {
            "none" => {
                let cdf = ex.scale(ex.plus(ex.erf(ex.scale(x, std::f64::consts::FRAC_1_SQRT_2)?)?, 1.0)?, 0.5)?;
                let k_alpha = std::f64::consts::FRAC_2_SQRT_PI * std::f64::consts::FRAC_1_SQRT_2 * 0.5;
                let pdf = ex.scale(ex.exp(ex.scale(ex.mul(x, x)?, -0.5)?)?, k_alpha)?;
                ex.add(cdf, ex.mul(x, pdf)?)?
            }
            "tanh" => {
                let k_beta = std::f64::consts::SQRT_2 * std::f64::consts::FRAC_2_SQRT_PI * 0.5;
                let k_kappa = 0.044715;
                let x_sq = ex.mul(x, x)?;
                let x_cube = ex.mul(x_sq, x)?;
                let inner = ex.scale(ex.add(x, ex.scale(x_cube, k_kappa)?)?, k_beta)?;
                let tanh_inner = ex.tanh(inner)?;
                let left = ex.scale(x, 0.5)?;
                let right = ex.plus(tanh_inner, 1.0)?;
                let left_derivative = ex.scale(right, 0.5)?;
                let tanh_derivative = ex.rsub(ex.mul(tanh_inner, tanh_inner)?, 1.0)?;
                let inner_derivative = ex.scale(ex.plus(ex.scale(x_sq, 3.0 * k_kappa)?, 1.0)?, k_beta)?;
                let right_derivative = ex.mul(ex.mul(left, tanh_derivative)?, inner_derivative)?;
                ex.add(left_derivative, right_derivative)?
            }
            other => return Err(format!("approximate='{other}' is not 'none' or 'tanh'")),
        };
        Ok(vec![er.mul(g, t)?])
    })
    .samples(&[
        "grad_output: T[2,5]; self: T[2,5]",
        "grad_output: T[2,5]; self: T[2,5]; approximate: \"tanh\"",
    ])
    .dtypes(&["f32", "f64"]),
    D::new("aten.elu_backward.default", "the ELU derivative from the input or from the result (is_result)", |d| {
        let x = d.args.tensor("self_or_result")?;
        let g = d.args.tensor("grad_output")?;
        let (ex, er) = (E { d, ty: d.type_of(x) }, E { d, ty: d.result_type(0)? });
        let neg_coef = number(d, "alpha")? * number(d, "scale")?;
        let pos_coef = number(d, "scale")?;
        let neg_input_coef = number(d, "input_scale")?;
        let c = ex.le(x, 0.0)?;
        let negative = if d.args.bool("is_result")? {
            er.mul(er.scale(g, neg_input_coef)?, ex.plus(x, neg_coef)?)?
        } else {
            let e = ex.exp(ex.scale(x, neg_input_coef)?)?;
            er.mul(er.scale(g, neg_input_coef * neg_coef)?, e)?
        };
        Ok(vec![er.select(c, negative, er.scale(g, pos_coef)?)?])
    })
    .samples(&[
        "grad_output: T[2,5]; alpha: 1.0; scale: 1.0; input_scale: 1.0; is_result: false; self_or_result: T[2,5]",
        "grad_output: T[2,5]; alpha: 0.7; scale: 1.2; input_scale: 0.9; is_result: false; self_or_result: T[2,5]",
        "grad_output: T[2,5]; alpha: 1.5; scale: 1.0; input_scale: 1.0; is_result: true; self_or_result: T[2,5]{-1..2}",
    ])
    .dtypes(&["f32", "f64"]),
    D::new("aten.softplus_backward.default", "where(x * beta > threshold, grad_output, grad_output * z / (z + 1)), z = exp(x * beta)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let beta = number(d, "beta")?;
        let xb = ex.scale(x, beta)?;
        let z = ex.exp(xb)?;
        let soft = er.mul(g, ex.div(z, ex.plus(z, 1.0)?)?)?;
        Ok(vec![er.select(ex.gt(xb, number(d, "threshold")?)?, g, soft)?])
    })
    .samples(&["grad_output: T[2,8]; self: T[2,8]{-4..4}; beta: 2; threshold: 3"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.mish_backward.default", "grad_output * (t + x * sigmoid(x) * (1 - t^2)), t = tanh(softplus(x))", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let s = ex.sigmoid(x)?;
        let t = ex.tanh(ex.softplus(x)?)?;
        let inner = ex.add(t, ex.mul(ex.mul(x, s)?, ex.rsub(ex.mul(t, t)?, 1.0)?)?)?;
        Ok(vec![er.mul(g, inner)?])
    })
    .samples(GX)
    .dtypes(&["f32", "f64"]),
    // The CPU kernel reads z from `buffer` (log_sigmoid_forward's second
    // result, exp(-|x|) on CPU); an empty buffer (CUDA's) is recomputed.
    D::new("aten.log_sigmoid_backward.default", "grad_output * (max_deriv - sign * z / (1 + z)), z = buffer or exp(-|x|)", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let negative = ex.lt(x, 0.0)?;
        let buffer = d.args.tensor("buffer")?;
        let empty = crate::builder::dims(d.type_of(buffer)).is_some_and(|dims| dims.contains(&Some(0)));
        let z = if empty {
            ex.exp(ex.neg(ex.abs(x)?)?)?
        } else {
            buffer
        };
        let ratio = ex.div(z, ex.plus(z, 1.0)?)?;
        // x < 0: 1 - z / (1 + z); x >= 0: z / (1 + z).
        let t = ex.select(negative, ex.rsub(ratio, 1.0)?, ratio)?;
        Ok(vec![er.mul(g, t)?])
    })
    .samples(&["grad_output: T[2,5]; self: T[2,5]; buffer: T[2,5]{pos}"])
    .dtypes(&["f32", "f64"]),
    D::new("aten.logit_backward.default", "where(x outside [eps, 1 - eps], 0 (NaN without eps), grad_output / (x * (1 - x)))", |d| {
        let (ex, er, x, g) = parts(d, "self")?;
        let inner = er.div(g, ex.mul(x, ex.rsub(x, 1.0)?)?)?;
        let (lo, hi, fill) = match d.args.opt_float("eps")? {
            Some(eps) => (eps, 1.0 - eps, 0.0),
            None => (0.0, 1.0, f64::NAN),
        };
        let outside = ex.or(ex.lt(x, lo)?, ex.gt(x, hi)?)?;
        Ok(vec![er.select_scalar(outside, fill, inner)?])
    })
    .samples(&[
        "grad_output: T[2,8]; self: T[2,8]",
        "grad_output: T[2,8]; self: T[2,8]{unit}; eps: 0.1",
        "grad_output: T[2,8]; self: T[2,8]; eps: 0.1",
    ])
    .dtypes(&["f32", "f64"]),
];

impl<'c, 'a> E<'_, 'c, 'a> {
    fn unary_bool_not(&self, a: V<'c, 'a>) -> R<'c, 'a> {
        self.d.call("aten.logical_not.default", &[("self", Arg::T(a))], self.d.bool_like(self.ty)?)
    }
}
