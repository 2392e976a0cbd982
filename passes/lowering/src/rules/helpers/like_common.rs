//! `Like`: an expression builder whose elementwise results are typed like
//! one value (the rule's working tensor: its element type, shape unknown);
//! comparisons and logic give bools. The loss rules use it in the result's
//! type, the special functions in float64 ([`Like::float64`]). Not a rule
//! file.

use super::math_common::unranked_bool;
use crate::Ctx;
use melior::ir::{Type, Value};

pub struct Like<'x, 'c, 'a> {
    pub ctx: &'x Ctx<'c, 'a>,
    pub like: Value<'c, 'a>,
}

impl<'x, 'c, 'a> Like<'x, 'c, 'a> {
    /// Results typed like `like`.
    pub fn new(ctx: &'x Ctx<'c, 'a>, like: Value<'c, 'a>) -> Self {
        Like { ctx, like }
    }

    /// `x` (any numeric type) as float64, and the builder over it (the
    /// special functions compute in float64).
    pub fn float64(ctx: &'x Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<(Self, Value<'c, 'a>), String> {
        let x = ctx.b.cast_like_type(x, Type::float64(ctx.b.context))?;
        Ok((Like { ctx, like: x }, x))
    }
    pub fn k(&self, v: f64) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.const_like(self.like, v)
    }
    pub fn add(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().add(a, b).like(self.like)
    }
    pub fn sub(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().sub(a, b).like(self.like)
    }
    pub fn mul(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().mul(a, b).like(self.like)
    }
    pub fn div(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().div(a, b).like(self.like)
    }
    pub fn max(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().max(&[a, b]).like(self.like)
    }
    pub fn min(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().min(&[a, b]).like(self.like)
    }
    pub fn pow(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().pow(a, b).like(self.like)
    }
    /// `x` broadcast to `shape`.
    pub fn expand(&self, x: Value<'c, 'a>, shape: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().expand(x, shape).like(self.like)
    }
    pub fn addk(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.add(a, k)
    }
    pub fn mulk(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.mul(a, k)
    }
    pub fn abs(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().abs(a).like(self.like)
    }
    pub fn ceil(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().ceil(a).like(self.like)
    }
    pub fn cos(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().cos(a).like(self.like)
    }
    pub fn exp(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().exp(a).like(self.like)
    }
    pub fn floor(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().floor(a).like(self.like)
    }
    pub fn log(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().log(a).like(self.like)
    }
    pub fn neg(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().neg(a).like(self.like)
    }
    pub fn round(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().round(a).like(self.like)
    }
    pub fn sin(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().sin(a).like(self.like)
    }
    pub fn sqrt(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().sqrt(a).like(self.like)
    }
    /// A bool result of unknown shape.
    fn bools(&self) -> Type<'c> {
        unranked_bool(self.ctx)
    }
    pub fn equal(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().equal(a, b).typed(self.bools())
    }
    pub fn less(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().less(a, b).typed(self.bools())
    }
    pub fn greater(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().greater(a, b).typed(self.bools())
    }
    pub fn equal_k(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.ctx.b.onnx().equal(a, k).typed(self.bools())
    }
    pub fn less_k(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.ctx.b.onnx().less(a, k).typed(self.bools())
    }
    pub fn less_or_equal_k(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.ctx.b.onnx().less_or_equal(a, k).typed(self.bools())
    }
    pub fn greater_k(&self, a: Value<'c, 'a>, v: f64) -> Result<Value<'c, 'a>, String> {
        let k = self.k(v)?;
        self.ctx.b.onnx().greater(a, k).typed(self.bools())
    }
    pub fn is_nan(&self, a: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().is_na_n(a).typed(self.bools())
    }
    pub fn select(&self, cond: Value<'c, 'a>, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().where_(cond, a, b).like(self.like)
    }
    /// Horner: `c[0] + t * (c[1] + t * (...))`.
    pub fn poly(&self, t: Value<'c, 'a>, coefficients: &[f64]) -> Result<Value<'c, 'a>, String> {
        let mut p = self.k(*coefficients.last().ok_or("empty polynomial")?)?;
        for &ck in coefficients.iter().rev().skip(1) {
            p = self.mul(p, t)?;
            p = self.addk(p, ck)?;
        }
        Ok(p)
    }
    /// `x` is a non-positive integer (a pole of gamma).
    pub fn is_pole(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        let f = self.floor(x)?;
        let int = self.equal(f, x)?;
        let nonpos = self.less_or_equal_k(x, 0.0)?;
        self.ctx.b.onnx().and(int, nonpos).typed(self.bools())
    }
    pub fn softplus(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().softplus(x).like(self.like)
    }
    pub fn where_(&self, cond: Value<'c, 'a>, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.select(cond, a, b)
    }
    pub fn and(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().and(a, b).typed(self.bools())
    }
    pub fn or(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().or(a, b).typed(self.bools())
    }
    pub fn not(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.ctx.b.onnx().not(x).typed(self.bools())
    }
}
