//! Pieces shared by the tensor-creation, view, indexing, scatter and sorting
//! rules.

use crate::{builder, Ctx};
use melior::ir::r#type::TypeLike as _;
use melior::ir::{attribute::IntegerAttribute, r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

/// A constant of shape `shape` and element type `element` from `values`
/// (converted like a C++ static_cast: truncation for integers).
pub fn constant<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    element: Type<'c>,
    shape: &[u64],
    values: &[f64],
) -> Result<Value<'c, 'a>, String> {
    let ty: Type = RankedTensorType::new(shape, element, None).into();
    let elements: Vec<Attribute> = values
        .iter()
        .map(|&v| -> Attribute {
            if builder::is_float(element) {
                crate::builder::float_attr(ctx.b.context, element, v).into()
            } else if builder::is_bool(element) {
                IntegerAttribute::new(element, (v != 0.0) as i64).into()
            } else {
                IntegerAttribute::new(element, v as i64).into()
            }
        })
        .collect();
    ctx.b.constant(ty, &elements)
}

/// A 1-D int64 constant of a static shape (`tensor<Nxi64>`) from `values`.
pub fn const_index<'c, 'a>(ctx: &Ctx<'c, 'a>, shape: &[u64], values: &[i64]) -> Result<Value<'c, 'a>, String> {
    let ty: Type = RankedTensorType::new(shape, ctx.b.i64_type(), None).into();
    let elements: Vec<Attribute> = values.iter().map(|&v| IntegerAttribute::new(ctx.b.i64_type(), v).into()).collect();
    ctx.b.constant(ty, &elements)
}

/// The broadcast shape of `values` (1-D int64): `Expand` broadcasts both
/// ways, so expanding a scalar by each shape in turn gives it.
pub fn broadcast_shape<'c, 'a>(ctx: &Ctx<'c, 'a>, values: &[Value<'c, 'a>]) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let mut acc = b.const_scalar(b.i64_type(), 0.0)?;
    for v in values {
        let s = b.shape(*v)?;
        acc = b.onnx().expand(acc, s).typed(b.unranked(b.i64_type()))?;
    }
    b.shape(acc)
}

/// A tensor of `shape` (1-D int64 value) filled with `fill` of `element`.
pub fn full<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    shape: Value<'c, 'a>,
    element: Type<'c>,
    fill: f64,
) -> Result<Value<'c, 'a>, String> {
    let s = ctx.b.const_scalar(element, fill)?;
    ctx.b.onnx().expand(s, shape).typed(ctx.b.unranked(element))
}

/// `Shape(x)[start..end]`.
pub use super::common::shape_slice as shape_part;

/// Concatenates 1-D int64 pieces.
pub fn concat<'c, 'a>(ctx: &Ctx<'c, 'a>, parts: &[Value<'c, 'a>]) -> Result<Value<'c, 'a>, String> {
    if parts.len() == 1 {
        return Ok(parts[0]);
    }
    ctx.b.onnx().concat(parts, 0).typed(ctx.b.unranked(ctx.b.i64_type()))
}

/// Static dims of a value, or an error naming `what`.
pub fn static_dims(ctx: &Ctx<'_, '_>, x: Value<'_, '_>, what: &str) -> Result<Vec<i64>, String> {
    builder::dims(x.r#type())
        .ok_or("operand has an unknown rank")?
        .into_iter()
        .map(|d| d.ok_or_else(|| format!("{what} needs static sizes")))
        .collect::<Result<_, _>>()
        .map_err(|e: String| {
            let _ = ctx;
            e
        })
}

/// A stable sort of `x` along `dim` (values and int64 indices), with NaN
/// ordered like torch: larger than everything (last ascending, first
/// descending). `TopK` (ties by lower index, i.e. stable) sorts the non-NaN
/// order; a second stable `TopK` on the NaN flag moves the NaNs.
pub fn sort<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: usize,
    descending: bool,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &ctx.b;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let i64_type = b.i64_type();
    let i64s = b.unranked(i64_type);
    let d = dim as i64;
    let k = b.onnx().shape(x, Some(d + 1), Some(d)).typed(i64s)?;
    let top_k = |keys: Value<'c, 'a>, types: &[Type<'c>]| {
        b.onnx().top_k(keys, k, Some(d), Some(descending as i64), Some(1)).results(types)
    };
    // TopK takes numbers: bools sort as int32.
    let keys = if builder::is_bool(element) {
        b.cast(x, melior::ir::r#type::IntegerType::new(b.context, 32).into())?
    } else {
        x
    };
    let keys_type = b.unranked(builder::element_type(keys.r#type()).ok_or("not a tensor")?);
    let float = builder::is_float(element);
    let nan = if float {
        Some(b.onnx().is_na_n(x).typed(b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into()))?)
    } else {
        None
    };
    // NaN keys become 0 for the first pass (their relative order then is
    // their index order, as in torch's stable sort).
    let keys = match nan {
        Some(nan) => {
            let zero = b.const_scalar(element, 0.0)?;
            b.onnx().where_(nan, zero, keys).typed(keys_type)?
        }
        None => keys,
    };
    let first = top_k(keys, &[keys_type, i64s])?;
    let mut indices = first[1];
    if let Some(nan) = nan {
        let flag = b.cast(nan, b.f32_type())?;
        let flag = b.onnx().gather_elements(flag, indices, Some(d)).typed(b.unranked(b.f32_type()))?;
        let second = top_k(flag, &[b.unranked(b.f32_type()), i64s])?;
        indices = b.onnx().gather_elements(indices, second[1], Some(d)).typed(i64s)?;
    }
    let values = b.onnx().gather_elements(x, indices, Some(d)).typed(b.unranked(element))?;
    Ok((values, indices))
}

/// The identity of a scatter reduction for `element` (`None`: no identity
/// needed).
fn reduction_identity(element: Type<'_>, reduce: &str) -> Option<f64> {
    let width = if builder::is_float(element) {
        None
    } else {
        Some(unsafe { mlir_sys::mlirIntegerTypeGetWidth(element.to_raw()) })
    };
    // The type's lowest and highest values (unsigned types start at 0: a
    // uint8 amax seeded with -128 read 128).
    let unsigned = width.is_some() && unsafe { mlir_sys::mlirIntegerTypeIsUnsigned(element.to_raw()) };
    Some(match reduce {
        "sum" | "mean" => 0.0,
        "prod" => 1.0,
        "amax" => match width {
            None => f64::NEG_INFINITY,
            Some(1) => 0.0,
            Some(_) if unsigned => 0.0,
            Some(w) => -(2f64.powi(w as i32 - 1)),
        },
        "amin" => match width {
            None => f64::INFINITY,
            Some(1) => 1.0,
            Some(w) if unsigned => 2f64.powi(w as i32) - 1.0,
            Some(w) => 2f64.powi(w as i32 - 1) - 1.0,
        },
        _ => return None,
    })
}

/// torch's scatter family on ONNX `ScatterElements`: `index` has the shape
/// of the updates `src` (already cut to it), `reduce` is one of "none",
/// "sum", "prod", "mean", "amax", "amin"; `include_self=false` first resets
/// the written positions to the reduction's identity. "mean" divides a sum
/// by a count (floor division for integers, like torch).
pub fn scatter_reduce<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    dim: usize,
    index: Value<'c, 'a>,
    src: Value<'c, 'a>,
    reduce: &str,
    include_self: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let scatter = |data: Value<'c, 'a>, updates: Value<'c, 'a>, reduction: &str| -> Result<Value<'c, 'a>, String> {
        let reduction = (reduction != "none").then_some(reduction);
        b.onnx().scatter_elements(data, index, updates, Some(dim as i64), reduction).like(x)
    };
    let onnx = match reduce {
        "none" => return scatter(x, src, "none"),
        "sum" | "mean" => "add",
        "prod" => "mul",
        "amax" => "max",
        "amin" => "min",
        other => return Err(format!("unknown scatter reduction '{other}'")),
    };
    if matches!(onnx, "max" | "min") && b.opset < 18 {
        return Err(format!("scatter reduction '{reduce}' needs ONNX opset 18 (ScatterElements max/min)"));
    }
    let index_shape = b.shape(index)?;
    let base = if include_self {
        x
    } else {
        let identity = reduction_identity(element, reduce).ok_or("no identity")?;
        let fill = full(ctx, index_shape, element, identity)?;
        scatter(x, fill, "none")?
    };
    let reduced = scatter(base, src, onnx)?;
    if matches!(onnx, "max" | "min") && builder::is_float(element) {
        // onnxruntime's max/min drop NaN; torch's amax/amin propagate it.
        let bool_type: Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
        let src_nan = b.onnx().is_na_n(src).typed(b.unranked(bool_type))?;
        let src_nan = b.cast(src_nan, element)?;
        let x_shape = b.shape(x)?;
        let zeros = full(ctx, x_shape, element, 0.0)?;
        let hits = scatter(zeros, src_nan, "add")?;
        let zero = b.const_scalar(element, 0.0)?;
        let mut nan_mask = b.onnx().greater(hits, zero).typed(b.unranked(bool_type))?;
        if include_self {
            let x_nan = b.onnx().is_na_n(x).typed(b.unranked(bool_type))?;
            nan_mask = b.onnx().or(nan_mask, x_nan).typed(b.unranked(bool_type))?;
        }
        let nan = b.const_scalar(element, f64::NAN)?;
        return b.onnx().where_(nan_mask, nan, reduced).like(x);
    }
    if reduce != "mean" {
        return Ok(reduced);
    }
    // count of contributions (+1 for self when included)
    let x_shape = b.shape(x)?;
    let zeros = full(ctx, x_shape, element, 0.0)?;
    let ones = full(ctx, index_shape, element, 1.0)?;
    let mut count = scatter(zeros, ones, "add")?;
    if include_self {
        let one = b.const_scalar(element, 1.0)?;
        count = b.onnx().add(count, one).like(x)?;
    }
    let one = b.const_scalar(element, 1.0)?;
    let safe = b.onnx().max(&[count, one]).like(x)?;
    let mean = if builder::is_float(element) {
        b.onnx().div(reduced, safe).like(x)?
    } else {
        // floor division: (a - a mod b) / b with a Python-style mod.
        let m = b.onnx().mod_(reduced, safe, Some(0)).like(x)?;
        let d = b.onnx().sub(reduced, m).like(x)?;
        b.onnx().div(d, safe).like(x)?
    };
    if include_self {
        return Ok(mean);
    }
    let zero = b.const_scalar(element, 0.0)?;
    let untouched =
        b.onnx().equal(count, zero).typed(b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into()))?;
    b.onnx().where_(untouched, x, mean).like(x)
}

/// `src` cut to the shape of `index` (torch's scatter reads only that
/// region of `src`).
pub fn cut_to<'c, 'a>(ctx: &Ctx<'c, 'a>, src: Value<'c, 'a>, index: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let (si, ii) = (builder::dims(src.r#type()), builder::dims(index.r#type()));
    if let (Some(s), Some(i)) = (&si, &ii) {
        if s == i && s.iter().all(Option::is_some) {
            return Ok(src);
        }
    }
    let rank = ctx.rank(index)?;
    let starts = b.const_i64s(&vec![0; rank])?;
    let ends = b.shape(index)?;
    let axes = b.const_i64s(&(0..rank as i64).collect::<Vec<_>>())?;
    b.onnx().slice(src, starts, ends, Some(axes), None).like(src)
}

/// A 1-D (or 0-d) `index` along `dim` made the shape of `like` (whose dim
/// `dim` has the index's length), for `ScatterElements`.
pub fn index_along<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    index: Value<'c, 'a>,
    dim: usize,
    rank: usize,
    like_shape: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let mut shape = vec![1i64; rank];
    shape[dim] = -1;
    let shape = b.const_i64s(&shape)?;
    let index = b.cast_like_type(index, b.i64_type())?;
    let r = b.onnx().reshape(index, shape, None).typed(b.unranked(b.i64_type()))?;
    b.onnx().expand(r, like_shape).typed(b.unranked(b.i64_type()))
}

/// Elements `start..end` of a 1-D int64 vector (`end` None: to the end).
pub fn vec_slice<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    v: Value<'c, 'a>,
    start: i64,
    end: Option<i64>,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let s = b.const_i64s(&[start])?;
    let e = b.const_i64s(&[end.unwrap_or(i64::MAX)])?;
    let axes = b.const_i64s(&[0])?;
    b.onnx().slice(v, s, e, Some(axes), None).typed(b.unranked(b.i64_type()))
}

/// `Where(cond, a, b)`, also for bool data (onnxruntime has no bool Where):
/// `(cond and a) or (not cond and b)`.
pub fn select<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    cond: Value<'c, 'a>,
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let bld = &ctx.b;
    let element = builder::element_type(a.r#type()).ok_or("not a tensor")?;
    if !builder::is_bool(element) {
        return bld.onnx().where_(cond, a, b).like(a);
    }
    let l = bld.onnx().and(cond, a).like(a)?;
    let n = bld.onnx().not(cond).like(a)?;
    let r = bld.onnx().and(n, b).like(a)?;
    bld.onnx().or(l, r).like(a)
}

/// `self` unchanged when `index` is statically empty: torch's scatters are
/// then a no-op and check nothing else (`src` may even be of another rank or
/// smaller, which `ScatterElements` would reject).
pub fn empty_index<'c, 'a>(ctx: &Ctx<'c, 'a>, index: Value<'c, 'a>) -> Result<Option<Value<'c, 'a>>, String> {
    let dims = crate::builder::dims(melior::ir::ValueLike::r#type(&index)).ok_or("index has an unknown rank")?;
    if !dims.contains(&Some(0)) {
        return Ok(None);
    }
    let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
    Ok(Some(ctx.b.onnx().identity(x).typed(ctx.result_type(0)?)?))
}

/// A scatter on 0-d tensors: on 1-element views, then back to 0-d.
pub fn zero_d<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    index: Value<'c, 'a>,
    src: Value<'c, 'a>,
    reduce: &str,
    include_self: bool,
) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let one = b.const_i64s(&[1])?;
    let (x1, i1, s1) = (
        b.onnx().reshape(x, one, None).like(x)?,
        b.onnx().reshape(index, one, None).like(index)?,
        b.onnx().reshape(src, one, None).like(src)?,
    );
    let r = scatter_reduce(ctx, x1, 0, i1, s1, reduce, include_self)?;
    let scalar = b.const_i64s(&[])?;
    ctx.b.onnx().reshape(r, scalar, None).typed(ctx.result_type(0)?)
}

/// Element `at` of `values` / `indices` along `dim`, keeping the dim or not.
pub fn pick<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    values: Value<'c, 'a>,
    indices: Value<'c, 'a>,
    dim: usize,
    at: i64,
    keepdim: bool,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let idx = if keepdim { b.const_i64s(&[at])? } else { b.const_i64_scalar(at)? };
    let axis = Some(dim as i64);
    Ok(vec![
        ctx.b.onnx().gather(values, idx, axis).typed(ctx.result_type(0)?)?,
        ctx.b.onnx().gather(indices, idx, axis).typed(ctx.result_type(1)?)?,
    ])
}
