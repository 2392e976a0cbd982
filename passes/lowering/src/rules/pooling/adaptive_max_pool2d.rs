use super::nn_common::{nan_max_pool, unranked_like, with_batch, PoolAttrs};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_max_pool2d.default", |c| adaptive_max_pool(c, 2)).samples(&[
    "self: T[1,2,4,4]; output_size: [1,1]",
    "self: T[2,3,4,6]; output_size: [2,3]",
    "self: T[1,2,5,5]; output_size: [2,2]",
    "self: T[1,2,7,5]; output_size: [3,4]",
    "self: T[3,5,7]; output_size: [2,3]",
    "self: T[1,2,3,3]; output_size: [4,4]",
])];

/// Values and torch's per-plane indices. Output sizes dividing the static
/// input: MaxPool (its indices modulo the plane size); otherwise one
/// ReduceMax / ArgMax per output cell over torch's bins (the first maximum
/// in row-major order, like torch), its window index mapped to the plane;
/// bins of a dynamic spatial size are computed from its run-time size.
pub(super) fn adaptive_max_pool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.len() != spatial || out.iter().any(|&o| o <= 0) {
        return Err(format!("output_size {out:?} for {spatial} spatial dims"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Err("adaptive max pooling of a non-float tensor".into());
    }
    let i64_type = c.b.i64_type();
    with_batch(c, x, spatial + 2, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let inputs: Vec<Option<i64>> = dims[2..].to_vec();
        if inputs.iter().zip(&out).all(|(i, o)| i.is_some_and(|i| i % o == 0)) {
            let kernel: Vec<i64> = inputs.iter().zip(&out).map(|(i, o)| i.unwrap_or(0) / o).collect();
            return nan_max_pool(c, xb, spatial, &PoolAttrs::tiling(kernel), true);
        }
        // A spatial size known only at run time (an image size exported as
        // dynamic) gets its bins, window sizes and plane strides computed in
        // the graph from Shape; static ones stay constants.
        let b = &c.b;
        let shape = if inputs.iter().any(Option::is_none) { Some(b.shape(xb)?) } else { None };
        let sizes: Vec<I> = inputs
            .iter()
            .enumerate()
            .map(|(a, d)| match d {
                Some(d) => Ok(I::S(*d)),
                None => {
                    let axis = 2 + a as i64;
                    let (from, to) = (b.const_i64s(&[axis])?, b.const_i64s(&[axis + 1])?);
                    Ok(I::D(b.onnx().slice(shape.unwrap(), from, to, None, None).typed(b.unranked(i64_type))?))
                }
            })
            .collect::<Result<_, String>>()?;
        let cells: i64 = out.iter().product();
        let flat_shape = c.b.const_i64s(&[0, 0, -1])?;
        let axes: Vec<i64> = (2..2 + spatial as i64).collect();
        let (mut values, mut indices) = (Vec::new(), Vec::new());
        for cell in 0..cells {
            // Row-major cell coordinates.
            let mut rest = cell;
            let mut coord = vec![0i64; spatial];
            for a in (0..spatial).rev() {
                coord[a] = rest % out[a];
                rest /= out[a];
            }
            // torch's bin of cell j on an axis of size n: [floor(j n / o), ceil((j + 1) n / o)).
            let windows: Vec<(I, I)> = (0..spatial)
                .map(|a| {
                    let (j, o, n) = (coord[a], out[a], &sizes[a]);
                    let start = n.mul(c, j)?.div(c, o)?;
                    let end = n.mul(c, j + 1)?.add(c, o - 1)?.div(c, o)?;
                    Ok((start, end))
                })
                .collect::<Result<_, String>>()?;
            let starts = I::concat(c, &windows.iter().map(|w| w.0.clone()).collect::<Vec<_>>())?;
            let ends = I::concat(c, &windows.iter().map(|w| w.1.clone()).collect::<Vec<_>>())?;
            let ax = c.b.const_i64s(&axes)?;
            let win = c.b.onnx().slice(xb, starts, ends, Some(ax), None).like(xb)?;
            let flat = c.b.onnx().reshape(win, flat_shape, None).like(xb)?;
            // torch: a NaN wins (the window's last NaN); ReduceMax / ArgMax skip NaN.
            let bool_t = c.b.unranked(melior::ir::r#type::IntegerType::new(c.b.context, 1).into());
            let nan_f = c.b.cast_like(c.b.onnx().is_na_n(flat).typed(bool_t)?, xb)?;
            let nan_count = c.reduce(crate::Reduction::Max, nan_f, Some(&[-1]), true, unranked_like(c, xb)?)?;
            let has_nan = c.b.onnx().greater(nan_count, c.b.const_like(xb, 0.0)?).typed(bool_t)?;
            let max = c.reduce(crate::Reduction::Max, flat, Some(&[-1]), true, unranked_like(c, xb)?)?;
            values.push(c.b.onnx().where_(has_nan, c.b.const_like(xb, f64::NAN)?, max).like(xb)?);
            let arg = c.b.onnx().arg_max(flat, Some(-1), Some(1), None).typed(c.b.unranked(i64_type))?;
            let last_nan = c.b.onnx().arg_max(nan_f, Some(-1), Some(1), Some(1)).typed(c.b.unranked(i64_type))?;
            let local = c.b.onnx().where_(has_nan, last_nan, arg).typed(c.b.unranked(i64_type))?;
            // Window-local flat index -> plane index.
            let mut global: Option<Value> = None;
            let mut divisor = I::S(1);
            let mut stride = I::S(1);
            for a in (0..spatial).rev() {
                let size = windows[a].1.sub(c, &windows[a].0)?;
                let mut part = local;
                if !matches!(divisor, I::S(1)) {
                    part = c.b.onnx().div(part, divisor.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                if a > 0 {
                    part = c.b.onnx().mod_(part, size.value(c)?, None).typed(c.b.unranked(i64_type))?;
                }
                if !matches!(windows[a].0, I::S(0)) {
                    part = c.b.onnx().add(part, windows[a].0.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                if !matches!(stride, I::S(1)) {
                    part = c.b.onnx().mul(part, stride.value(c)?).typed(c.b.unranked(i64_type))?;
                }
                global = Some(match global {
                    None => part,
                    Some(g) => c.b.onnx().add(g, part).typed(c.b.unranked(i64_type))?,
                });
                divisor = divisor.mul_i(c, &size)?;
                stride = stride.mul_i(c, &sizes[a])?;
            }
            indices.push(global.unwrap());
        }
        let mut shape = vec![0i64, 0];
        shape.extend(&out);
        let shape = c.b.const_i64s(&shape)?;
        let v = c.b.onnx().concat(&values, -1).like(xb)?;
        let v = c.b.onnx().reshape(v, shape, None).like(xb)?;
        let i = c.b.onnx().concat(&indices, -1).typed(c.b.unranked(i64_type))?;
        let i = c.b.onnx().reshape(i, shape, None).typed(c.b.unranked(i64_type))?;
        Ok(vec![v, i])
    })
}

/// A non-negative index quantity: a constant, or a 1-element int64 tensor
/// computed at run time. Arithmetic folds constants.
#[derive(Clone)]
enum I<'c, 'a> {
    S(i64),
    D(Value<'c, 'a>),
}

impl<'c, 'a> I<'c, 'a> {
    fn value(&self, c: &Ctx<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        match self {
            I::S(v) => c.b.const_i64s(&[*v]),
            I::D(v) => Ok(*v),
        }
    }

    /// `self <op> other`: `fold` of the two when both are known, else
    /// `build` of their values (int64).
    fn binary(
        &self,
        c: &Ctx<'c, 'a>,
        other: &I<'c, 'a>,
        fold: fn(i64, i64) -> i64,
        build: impl FnOnce(Value<'c, 'a>, Value<'c, 'a>) -> Result<Value<'c, 'a>, String>,
    ) -> Result<Self, String> {
        if let (I::S(l), I::S(r)) = (self, other) {
            return Ok(I::S(fold(*l, *r)));
        }
        Ok(I::D(build(self.value(c)?, other.value(c)?)?))
    }

    fn mul(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        match k {
            1 => Ok(self.clone()),
            0 => Ok(I::S(0)),
            _ => self.binary(c, &I::S(k), |l, r| l * r, |l, r| c.b.onnx().mul(l, r).typed(c.b.unranked(c.b.i64_type()))),
        }
    }

    fn mul_i(&self, c: &Ctx<'c, 'a>, other: &I<'c, 'a>) -> Result<Self, String> {
        match (self, other) {
            (I::S(1), _) => Ok(other.clone()),
            (_, I::S(1)) => Ok(self.clone()),
            _ => self.binary(c, other, |l, r| l * r, |l, r| c.b.onnx().mul(l, r).typed(c.b.unranked(c.b.i64_type()))),
        }
    }

    fn add(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        if k == 0 {
            return Ok(self.clone());
        }
        self.binary(c, &I::S(k), |l, r| l + r, |l, r| c.b.onnx().add(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    fn sub(&self, c: &Ctx<'c, 'a>, other: &I<'c, 'a>) -> Result<Self, String> {
        self.binary(c, other, |l, r| l - r, |l, r| c.b.onnx().sub(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    /// Integer division of a non-negative value.
    fn div(&self, c: &Ctx<'c, 'a>, k: i64) -> Result<Self, String> {
        if k == 1 {
            return Ok(self.clone());
        }
        self.binary(c, &I::S(k), |l, r| l / r, |l, r| c.b.onnx().div(l, r).typed(c.b.unranked(c.b.i64_type())))
    }

    /// The 1-D int64 tensor of `items`.
    fn concat(c: &Ctx<'c, 'a>, items: &[I<'c, 'a>]) -> Result<Value<'c, 'a>, String> {
        if let Some(statics) = items.iter().map(|i| if let I::S(v) = i { Some(*v) } else { None }).collect::<Option<Vec<_>>>() {
            return c.b.const_i64s(&statics);
        }
        let parts: Vec<Value> = items.iter().map(|i| i.value(c)).collect::<Result<_, _>>()?;
        c.b.onnx().concat(&parts, 0).typed(c.b.unranked(c.b.i64_type()))
    }
}
