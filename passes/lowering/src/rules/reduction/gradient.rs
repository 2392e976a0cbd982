use super::math_common::elem;
use crate::{builder, Ctx, Rule};
use melior::ir::{operation::OperationLike, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.gradient.scalarint", gradient)
        .samples(&[
            "self: T[5]",
            "self: T[5]; spacing: 2.0",
            "self: T[4,5]; edge_order: 2",
            "self: T[4,5]; spacing: 0.5; dim: -1; edge_order: 2",
            "self: T[3,4,2]; dim: 1",
            "self: T[3,4,5]; spacing: 3",
        ])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.gradient.scalararray", gradient)
        .samples(&["self: T[4,5]; spacing: 2.0; dim: [0, 1]", "self: T[3,4,5]; spacing: 0.5; dim: [-1]; edge_order: 2"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.gradient.array", gradient)
        .samples(&["self: T[4,5]; dim: [1, 0]", "self: T[3,4,5]; dim: [0, 2]; edge_order: 2"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.gradient.scalarrayint", gradient)
        .samples(&["self: T[4,5]; spacing: [2.0, 2.5]", "self: T[4,5]; spacing: [0.5]; dim: 1; edge_order: 2"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.gradient.scalarrayarray", gradient)
        .samples(&["self: T[4,5]; spacing: [2.0, 2.5]; dim: [0, 1]", "self: T[4,4,4]; spacing: [2.0, 1.0]; dim: [0, 1]; edge_order: 2"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.gradient.tensorarrayint", gradient)
        .samples(&["self: T[4,5]; spacing: (f32[4]{sorted}, f32[5]{sorted})", "self: T[4,5]; spacing: (f32[5]{sorted}); dim: 1; edge_order: 2"])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.gradient.tensorarray", gradient)
        .samples(&[
            "self: T[3,3,3]; spacing: (T[3]{sorted}, T[3]{sorted}); dim: [0, -1]",
            "self: T[3,3,3]; spacing: (T[3]{sorted}, T[3]{sorted}); dim: [0, 1]; edge_order: 2",
        ])
        .dtypes(&["f32", "f64"]),
];

/// Spacing along one dim: uniform (a number) or sample coordinates.
enum Spacing<'c, 'a> {
    Uniform(f64),
    Coordinates(Value<'c, 'a>),
}

/// `v[start..end]` along `axis` (`end` None: to the end).
fn slice<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Value<'c, 'a>, axis: i64, start: i64, end: Option<i64>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let s = b.const_i64s(&[start])?;
    let e = b.const_i64s(&[end.unwrap_or(i64::MAX)])?;
    let a = b.const_i64s(&[axis])?;
    b.onnx().slice(v, s, e, Some(a), None).like(v)
}

/// torch.gradient: second-order central differences inside, first- or
/// second-order one-sided differences at both ends (`edge_order`), with
/// torch's formulas (uniform spacing `h`: `(f[i+1] - f[i-1]) / h / 2`;
/// coordinates: the non-uniform three-point stencil). One result per dim
/// (every dim when `dim` is None), computed in the result's float type.
fn gradient<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let edge_order = ctx.args.int("edge_order")?;
    if edge_order != 1 && edge_order != 2 {
        return Err(format!("gradient: edge_order must be 1 or 2, got {edge_order}"));
    }
    if builder::is_bool(elem(x)?) {
        return Err("gradient of a bool tensor is not supported".into());
    }
    let schema = ctx.args.schema;
    let dim_is_list = schema.arg("dim").is_some_and(|a| a.ty.starts_with("int[]"));
    let dims: Vec<i64> = if dim_is_list {
        ctx.args.ints("dim")?
    } else {
        match ctx.args.opt_int("dim")? {
            Some(d) => vec![d],
            None => (0..rank as i64).collect(),
        }
    };
    let dims: Vec<usize> = dims.into_iter().map(|d| ctx.dim(d, rank)).collect::<Result<_, _>>()?;
    if rank == 0 {
        return Err("gradient of a 0-d tensor is undefined (torch refuses it)".into());
    }
    let spacing_ty = schema.arg("spacing").map(|a| a.ty);
    let spacings: Vec<Spacing> = match spacing_ty {
        None => (0..dims.len()).map(|_| Spacing::Uniform(1.0)).collect(),
        Some("Scalar?") | Some("Scalar") => {
            let h = if ctx.args.is_none("spacing")? { 1.0 } else { ctx.args.number("spacing")?.as_f64() };
            (0..dims.len()).map(|_| Spacing::Uniform(h)).collect()
        }
        Some("Scalar[]") => {
            let hs = ctx.args.floats("spacing")?;
            hs.into_iter().map(Spacing::Uniform).collect()
        }
        Some(_) => ctx.args.tensors("spacing")?.into_iter().map(Spacing::Coordinates).collect(),
    };
    if spacings.len() != dims.len() {
        return Err(format!("gradient: {} spacing values for {} dims", spacings.len(), dims.len()));
    }
    let sizes = builder::dims(x.r#type()).ok_or("unknown rank")?;
    for &d in &dims {
        if let Some(n) = sizes[d] {
            if n < edge_order + 1 {
                return Err(format!("gradient: dim {d} has {n} elements, edge_order {edge_order} needs at least {}", edge_order + 1));
            }
        }
    }
    let n_results = ctx.args.op.result_count();
    if n_results != dims.len() {
        return Err(format!("gradient: {n_results} results for {} dims", dims.len()));
    }
    let mut out = Vec::new();
    for (i, (&d, sp)) in dims.iter().zip(spacings).enumerate() {
        let ty = ctx.result_type(i)?;
        let element = builder::element_type(ty).ok_or("result is not a tensor")?;
        let f = ctx.b.cast_like_type(x, element)?;
        let g = match sp {
            Spacing::Uniform(h) => uniform(ctx, f, d as i64, h, edge_order)?,
            Spacing::Coordinates(c) => {
                if ctx.rank(c)? != 1 {
                    return Err("gradient: each spacing tensor must be 1-D".into());
                }
                let c = ctx.b.cast_like_type(c, element)?;
                coordinates(ctx, f, d, rank, c, edge_order)?
            }
        };
        out.push(ctx.b.onnx().identity(g).typed(ty)?);
    }
    Ok(out)
}

fn uniform<'c, 'a>(ctx: &Ctx<'c, 'a>, f: Value<'c, 'a>, d: i64, h: f64, edge_order: i64) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let k = |v: f64| b.const_like(f, v);
    let mul = |a: Value<'c, 'a>, c: f64| -> Result<Value<'c, 'a>, String> { b.onnx().mul(k(c)?, a).like(f) };
    let add = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().add(a, c).like(f);
    let div = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().div(a, c).like(f);
    let sub = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().sub(a, c).like(f);
    let hh = k(h)?;
    let center = sub(slice(ctx, f, d, 2, None)?, slice(ctx, f, d, 0, Some(-2))?)?;
    let center = div(center, hh)?;
    let center = div(center, k(2.0)?)?;
    let (prepend, append) = if edge_order == 1 {
        let p = sub(slice(ctx, f, d, 1, Some(2))?, slice(ctx, f, d, 0, Some(1))?)?;
        let a = sub(slice(ctx, f, d, -1, None)?, slice(ctx, f, d, -2, Some(-1))?)?;
        (div(p, hh)?, div(a, hh)?)
    } else {
        let p = add(mul(slice(ctx, f, d, 0, Some(1))?, -1.5)?, mul(slice(ctx, f, d, 1, Some(2))?, 2.0)?)?;
        let p = sub(p, mul(slice(ctx, f, d, 2, Some(3))?, 0.5)?)?;
        let a = sub(mul(slice(ctx, f, d, -3, Some(-2))?, 0.5)?, mul(slice(ctx, f, d, -2, Some(-1))?, 2.0)?)?;
        let a = add(a, mul(slice(ctx, f, d, -1, None)?, 1.5)?)?;
        (div(p, hh)?, div(a, hh)?)
    };
    b.onnx().concat(&[prepend, center, append], d).like(f)
}

fn coordinates<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    f: Value<'c, 'a>,
    dim: usize,
    rank: usize,
    coords: Value<'c, 'a>,
    edge_order: i64,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let d = dim as i64;
    let add = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().add(a, c).like(f);
    let div = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().div(a, c).like(f);
    let mul = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().mul(a, c).like(f);
    let sub = |a: Value<'c, 'a>, c: Value<'c, 'a>| b.onnx().sub(a, c).like(f);
    let dx = sub(slice(ctx, coords, 0, 1, None)?, slice(ctx, coords, 0, 0, Some(-1))?)?;
    let dx1 = slice(ctx, dx, 0, 0, Some(-1))?;
    let dx2 = slice(ctx, dx, 0, 1, None)?;
    let mut shape = vec![1i64; rank];
    shape[dim] = -1;
    let shape = b.const_i64s(&shape)?;
    let along = |v: Value<'c, 'a>| b.onnx().reshape(v, shape, None).like(f);
    let sum12 = add(dx1, dx2)?;
    let neg_dx2 = b.onnx().neg(dx2).like(f)?;
    let a = along(div(neg_dx2, mul(dx1, sum12)?)?)?;
    let bb = along(div(sub(dx2, dx1)?, mul(dx1, dx2)?)?)?;
    let c = along(div(dx1, mul(dx2, sum12)?)?)?;
    let center = add(mul(a, slice(ctx, f, d, 0, Some(-2))?)?, mul(bb, slice(ctx, f, d, 1, Some(-1))?)?)?;
    let center = add(center, mul(c, slice(ctx, f, d, 2, None)?)?)?;
    let at = |i: i64| b.onnx().gather(dx, b.const_i64_scalar(i)?, Some(0)).like(f);
    let (prepend, append) = if edge_order == 1 {
        let p = sub(slice(ctx, f, d, 1, Some(2))?, slice(ctx, f, d, 0, Some(1))?)?;
        let q = sub(slice(ctx, f, d, -1, None)?, slice(ctx, f, d, -2, Some(-1))?)?;
        (div(p, at(0)?)?, div(q, at(-1)?)?)
    } else {
        let two = b.const_like(f, 2.0)?;
        let (h0, h1) = (at(0)?, at(1)?);
        let s01 = add(h0, h1)?;
        let a = b.onnx().neg(div(add(mul(two, h0)?, h1)?, mul(h0, s01)?)?).like(f)?;
        let bq = div(s01, mul(h0, h1)?)?;
        let cq = div(b.onnx().neg(h0).like(f)?, mul(h1, s01)?)?;
        let p = add(mul(a, slice(ctx, f, d, 0, Some(1))?)?, mul(bq, slice(ctx, f, d, 1, Some(2))?)?)?;
        let p = add(p, mul(cq, slice(ctx, f, d, 2, Some(3))?)?)?;
        let (hl, hm) = (at(-1)?, at(-2)?);
        let slm = add(hl, hm)?;
        let a = div(hl, mul(hm, slm)?)?;
        let bq = b.onnx().neg(div(slm, mul(hl, hm)?)?).like(f)?;
        let cq = div(add(mul(two, hl)?, hm)?, mul(hl, slm)?)?;
        let q = add(mul(a, slice(ctx, f, d, -3, Some(-2))?)?, mul(bq, slice(ctx, f, d, -2, Some(-1))?)?)?;
        let q = add(q, mul(cq, slice(ctx, f, d, -1, None)?)?)?;
        (p, q)
    };
    b.onnx().concat(&[prepend, center, append], d).like(f)
}
