//! Lowerings of ops on complex tensors (`Rule::complex`): values are in the
//! real view, a trailing dim of 2 (real, imaginary); see
//! `lowering/complex.rs` and docs/lowering.md. Dims given to an op are
//! normalized against the rank of the COMPLEX tensor (the aten type), and
//! the trailing dim is kept last.

use super::elementwise_common::atan2;
use super::math_common::{isinf, unranked_bool};
use crate::{builder, complex, Ctx, IntArg};
use melior::ir::{r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

type Out<'c, 'a> = Result<Vec<Value<'c, 'a>>, String>;

/// The value returned for result 0: a complex result in the real view with
/// the result's component type, or a real result cast to its element type.
pub fn finish<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    if complex::is_complex_type(c.result_type(0)?) {
        c.complex_result(z, 0)
    } else {
        let element = c.result_element(0)?;
        let z = c.b.cast_like_type(z, element)?;
        c.b.onnx().identity(z).like(z)
    }
}

/// A 1-D constant of floats of element type `element`.
pub fn const_floats<'c, 'a>(c: &Ctx<'c, 'a>, element: Type<'c>, values: &[f64]) -> Result<Value<'c, 'a>, String> {
    let ty = RankedTensorType::new(&[values.len() as u64], element, None).into();
    let elements: Vec<Attribute> =
        values.iter().map(|v| crate::builder::float_attr(c.b.context, element, *v).into()).collect();
    c.b.constant(ty, &elements)
}

fn element_of<'c>(v: Value<'c, '_>) -> Result<Type<'c>, String> {
    builder::element_type(v.r#type()).ok_or_else(|| "not a tensor".to_string())
}

/// The complex operand `self` as it is (identity ops: clone, alias,
/// view_as_real, view_as_complex, resolve_conj, resolve_neg, ...).
pub fn identity<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    Ok(vec![finish(c, z)?])
}

/// `view_as_complex`: the real input `[..., 2]` is already the real view.
pub fn view_as_complex<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let ty = c.aten_type("self")?;
    if builder::dims(ty).and_then(|d| d.last().copied().flatten()) != Some(2) {
        return Err("view_as_complex needs a tensor whose last dim is 2".into());
    }
    identity(c)
}

/// `conj(z) = re - i im`.
pub fn conj<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    if !c.is_complex("self") {
        return identity(c);
    }
    let z = c.args.tensor("self")?;
    let signs = const_floats(c, element_of(z)?, &[1.0, -1.0])?;
    Ok(vec![finish(c, c.b.onnx().mul(z, signs).like(z)?)?])
}

/// `-z` (neg, _neg_view).
pub fn neg<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    Ok(vec![finish(c, c.b.onnx().neg(z).like(z)?)?])
}

/// `real(z)` / `imag(z)` (`part` 0 / 1).
pub fn part<'c, 'a>(c: &Ctx<'c, 'a>, part: i64) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    Ok(vec![finish(c, c.complex_part(z, part)?)?])
}

/// `|z|` = hypot(re, im), computed in float64 (no overflow of the squares
/// for float32 components); an infinite part gives +inf like hypot.
pub fn abs<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    let f64_type = Type::float64(c.b.context);
    let z64 = c.b.cast_like_type(z, f64_type)?;
    let sq = c.b.onnx().mul(z64, z64).like(z64)?;
    let axes = c.b.const_i64s(&[-1])?;
    let sum = c.b.onnx().reduce_sum(sq, Some(axes), Some(0), None).like(z64)?;
    let r = c.b.onnx().sqrt(sum).like(z64)?;
    let inf_part = isinf(c, z64, true, true)?;
    let inf_part = c.b.cast(inf_part, c.b.i64_type())?;
    let inf_any = c.b.onnx().reduce_max(inf_part, Some(axes), None, Some(0), None).like(inf_part)?;
    let inf_any = c.b.cast(inf_any, melior::ir::r#type::IntegerType::new(c.b.context, 1).into())?;
    let inf = c.b.const_scalar(f64_type, f64::INFINITY)?;
    let r = c.b.onnx().where_(inf_any, inf, r).like(z64)?;
    Ok(vec![finish(c, r)?])
}

/// `angle(z) = atan2(im, re)`.
pub fn angle<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    let re = c.complex_part(z, 0)?;
    let im = c.complex_part(z, 1)?;
    Ok(vec![finish(c, atan2(c, im, re)?)?])
}

/// `complex(real, imag)`, broadcast against each other.
pub fn make<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let re = c.tensor_as("real", component)?;
    let im = c.tensor_as("imag", component)?;
    let re = c.b.onnx().expand(re, c.b.shape(im)?).like(re)?;
    let im = c.b.onnx().expand(im, c.b.shape(re)?).like(im)?;
    Ok(vec![finish(c, c.make_complex(re, Some(im))?)?])
}

/// `polar(abs, angle) = abs (cos angle + i sin angle)`.
pub fn polar<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let r = c.tensor_as("abs", component)?;
    let t = c.tensor_as("angle", component)?;
    let cos = c.b.onnx().cos(t).like(t)?;
    let sin = c.b.onnx().sin(t).like(t)?;
    let re = c.b.onnx().mul(r, cos).like(r)?;
    let im = c.b.onnx().mul(r, sin).like(r)?;
    Ok(vec![finish(c, c.make_complex(re, Some(im))?)?])
}

/// The real `alpha` of add/sub (a complex alpha is refused).
fn alpha(c: &Ctx<'_, '_>) -> Result<Option<f64>, String> {
    if c.args.schema.arguments.iter().all(|a| a.name != "alpha") || c.args.is_none("alpha")? {
        return Ok(None);
    }
    let a = c.args.number("alpha").map_err(|_| "a complex or non-constant alpha is not supported".to_string())?;
    Ok(Some(a.as_f64()))
}

/// `self + alpha * other` / `self - alpha * other` with complex operands or
/// result (real operands get a zero imaginary part, like torch's promotion).
pub fn add<'c, 'a>(c: &Ctx<'c, 'a>, op: &str) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let a = c.complex_operand("self", component)?;
    let mut b = c.complex_operand("other", component)?;
    if let Some(alpha) = alpha(c)? {
        if alpha != 1.0 {
            let k = c.b.const_scalar(component, alpha)?;
            b = c.b.onnx().mul(b, k).like(b)?;
        }
    }
    Ok(vec![finish(c, c.b.op_like(op, &[a, b], &[], a)?)?])
}

/// A real operand as `[..., 1]` to scale both parts of a complex value.
fn real_scale<'c, 'a>(c: &Ctx<'c, 'a>, name: &str, component: Type<'c>) -> Result<Value<'c, 'a>, String> {
    let r = c.tensor_as(name, component)?;
    c.unsqueeze(r, &[-1])
}

/// Complex products: `(a + ib)(c + id) = (ac - bd) + i(ad + bc)`; a real
/// operand scales both parts.
pub fn mul<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let (sc, oc) = (c.is_complex("self"), c.is_complex("other"));
    let z = if sc && oc {
        let x = c.complex_operand("self", component)?;
        let y = c.complex_operand("other", component)?;
        let (a, b) = (c.complex_part(x, 0)?, c.complex_part(x, 1)?);
        let (p, q) = (c.complex_part(y, 0)?, c.complex_part(y, 1)?);
        let m = |u: Value<'c, 'a>, v: Value<'c, 'a>| c.b.onnx().mul(u, v).like(u);
        let re = c.b.onnx().sub(m(a, p)?, m(b, q)?).like(a)?;
        let im = c.b.onnx().add(m(a, q)?, m(b, p)?).like(a)?;
        c.make_complex(re, Some(im))?
    } else {
        let (zname, rname) = if sc { ("self", "other") } else { ("other", "self") };
        let z = c.complex_operand(zname, component)?;
        let r = real_scale(c, rname, component)?;
        c.b.onnx().mul(z, r).like(z)?
    };
    Ok(vec![finish(c, z)?])
}

/// Complex division as c10::complex computes it (Smith's scaling: the
/// larger of |c|, |d| divides); by a real tensor, both parts divided.
pub fn div<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    if c.args.schema.arguments.iter().any(|a| a.name == "rounding_mode") && !c.args.is_none("rounding_mode")? {
        return Err("division with a rounding mode is not defined for complex tensors".into());
    }
    let component = c.result_component(0)?;
    if !c.is_complex("other") {
        let z = c.complex_operand("self", component)?;
        let r = real_scale(c, "other", component)?;
        return Ok(vec![finish(c, c.b.onnx().div(z, r).like(z)?)?]);
    }
    let x = c.complex_operand("self", component)?;
    let y = c.complex_operand("other", component)?;
    let (a, b) = (c.complex_part(x, 0)?, c.complex_part(x, 1)?);
    let (p, q) = (c.complex_part(y, 0)?, c.complex_part(y, 1)?);
    let bb = &c.b;
    let add = |u: Value<'c, 'a>, v: Value<'c, 'a>| bb.onnx().add(u, v).like(u);
    let div = |u: Value<'c, 'a>, v: Value<'c, 'a>| bb.onnx().div(u, v).like(u);
    let mul = |u: Value<'c, 'a>, v: Value<'c, 'a>| bb.onnx().mul(u, v).like(u);
    let sub = |u: Value<'c, 'a>, v: Value<'c, 'a>| bb.onnx().sub(u, v).like(u);
    let ap = bb.onnx().abs(p).like(p)?;
    let aq = bb.onnx().abs(q).like(q)?;
    let big = c.b.onnx().greater_or_equal(ap, aq).typed(unranked_bool(c))?;
    // |c| >= |d|: rat = d/c, scl = 1/(c + d rat), re = (a + b rat) scl, im = (b - a rat) scl
    let rat1 = div(q, p)?;
    let den1 = add(p, mul(q, rat1)?)?;
    let re1 = div(add(a, mul(b, rat1)?)?, den1)?;
    let im1 = div(sub(b, mul(a, rat1)?)?, den1)?;
    // else: rat = c/d, scl = 1/(d + c rat), re = (a rat + b) scl, im = (b rat - a) scl
    let rat2 = div(p, q)?;
    let den2 = add(q, mul(p, rat2)?)?;
    let re2 = div(add(mul(a, rat2)?, b)?, den2)?;
    let im2 = div(sub(mul(b, rat2)?, a)?, den2)?;
    // Both zero: a / |c|, b / |d| (inf or NaN like c10).
    let zero = bb.const_scalar(component, 0.0)?;
    let both_zero = c
        .b
        .onnx()
        .and(c.b.onnx().equal(ap, zero).typed(unranked_bool(c))?, c.b.onnx().equal(aq, zero).typed(unranked_bool(c))?)
        .typed(unranked_bool(c))?;
    let re0 = div(a, ap)?;
    let im0 = div(b, aq)?;
    let re = bb.onnx().where_(big, re1, re2).like(a)?;
    let im = bb.onnx().where_(big, im1, im2).like(a)?;
    let re = bb.onnx().where_(both_zero, re0, re).like(a)?;
    let im = bb.onnx().where_(both_zero, im0, im).like(a)?;
    Ok(vec![finish(c, c.make_complex(re, Some(im))?)?])
}

/// `_to_copy` to or from a complex dtype: real -> complex adds a zero
/// imaginary part, complex -> complex casts both parts, complex -> real
/// keeps the real part (torch discards the imaginary part), complex -> bool
/// is `z != 0`.
pub fn to_copy<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let out = c.result_type(0)?;
    if complex::is_complex_type(out) {
        let component = c.result_component(0)?;
        return Ok(vec![finish(c, c.complex_operand("self", component)?)?]);
    }
    let z = c.args.tensor("self")?;
    let element = c.result_element(0)?;
    if builder::is_bool(element) {
        let zero = c.b.const_like(z, 0.0)?;
        let nz = c.b.onnx().not(c.b.onnx().equal(z, zero).typed(unranked_bool(c))?).typed(unranked_bool(c))?;
        let nz = c.b.cast(nz, c.b.i64_type())?;
        let axes = c.b.const_i64s(&[-1])?;
        let any = c.b.onnx().reduce_max(nz, Some(axes), None, Some(0), None).like(nz)?;
        return Ok(vec![finish(c, any)?]);
    }
    Ok(vec![finish(c, c.complex_part(z, 0)?)?])
}

/// View ops (view, _unsafe_view, reshape, squeeze, unsqueeze): with a
/// static result shape, `Reshape` to the result dims + [2] (`allowzero`: a 0
/// in the dims is an empty dim, not "copy"); with dynamic sizes (Llama 4's
/// rotary `freqs_cis[:, :, None, :]` over a dynamic sequence), each op from
/// its own arguments (`reshape_dynamic`).
pub fn reshape<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    let dims = builder::dims(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    let Some(mut dims) = dims.into_iter().collect::<Option<Vec<i64>>>() else {
        return Ok(vec![finish(c, reshape_dynamic(c, z)?)?]);
    };
    dims.push(2);
    let shape = c.b.const_i64s(&dims)?;
    Ok(vec![finish(c, c.b.onnx().reshape(z, shape, Some(1)).like(z)?)?])
}

/// The view ops of `reshape` on a result of dynamic shape: `unsqueeze` /
/// `squeeze` at dims normalized against the complex ranks; `view` /
/// `reshape` to the requested sizes (computed in the graph) + [2].
fn reshape_dynamic<'c, 'a>(c: &Ctx<'c, 'a>, z: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let name = crate::ir::op_name(c.args.op);
    let out_rank = builder::rank(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    match name.as_str() {
        "aten.unsqueeze.default" => {
            let d = c.dim(c.args.int("dim")?, out_rank)? as i64;
            c.unsqueeze(z, &[d])
        }
        "aten.squeeze.default" | "aten.squeeze.dim" | "aten.squeeze.dims" => {
            let dims = builder::dims(c.aten_type("self")?).ok_or("unknown rank")?;
            let rank = dims.len();
            let candidates: Vec<usize> = match name.as_str() {
                "aten.squeeze.default" => (0..rank).collect(),
                "aten.squeeze.dim" => vec![c.dim(c.args.int("dim")?, rank)?],
                _ => c.args.ints("dim")?.into_iter().map(|d| c.dim(d, rank)).collect::<Result<_, _>>()?,
            };
            // Static 1s go; dynamic dims stay when the capture's result
            // type says so (torch.export takes a dynamic size not to be 1).
            let axes: Vec<i64> = candidates.iter().filter(|&&d| dims[d] == Some(1)).map(|&d| d as i64).collect();
            if out_rank != rank - axes.len() {
                return Err("cannot tell whether a dynamic dim of a complex tensor is 1".into());
            }
            if axes.is_empty() {
                return c.b.onnx().identity(z).like(z);
            }
            c.squeeze(z, &axes)
        }
        "aten.view.default" | "aten._unsafe_view.default" | "aten.reshape.default" => {
            let arg = if name == "aten.reshape.default" { "shape" } else { "size" };
            let mut sizes = c.args.sym_ints(arg)?;
            // A -1 is inferred (then 0 cannot be literal in ONNX); otherwise
            // a 0 is an empty dim.
            let infer = sizes.iter().any(|s| matches!(s, IntArg::Static(-1)));
            sizes.push(IntArg::Static(2));
            let shape = c.int_list_tensor(&sizes)?;
            c.b.onnx().reshape(z, shape, Some(if infer { 0 } else { 1 })).like(z)
        }
        other => Err(format!("{other} of a complex tensor with dynamic sizes is not supported")),
    }
}

/// `expand`: `Expand` to the result dims + [2]; with dynamic sizes, to the
/// requested sizes (a -1, keep the size, is a 1 for ONNX's broadcasting) +
/// [2].
pub fn expand<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    let dims = builder::dims(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    let shape = match dims.into_iter().collect::<Option<Vec<i64>>>() {
        Some(mut dims) => {
            dims.push(2);
            c.b.const_i64s(&dims)?
        }
        None => {
            let mut sizes: Vec<IntArg> = c
                .args
                .sym_ints("size")?
                .into_iter()
                .map(|s| if matches!(s, IntArg::Static(-1)) { IntArg::Static(1) } else { s })
                .collect();
            sizes.push(IntArg::Static(2));
            c.int_list_tensor(&sizes)?
        }
    };
    Ok(vec![finish(c, c.b.onnx().expand(z, shape).like(z)?)?])
}

/// `Transpose` with `perm` over the complex dims, the trailing dim last.
fn transpose<'c, 'a>(c: &Ctx<'c, 'a>, mut perm: Vec<i64>) -> Out<'c, 'a> {
    let z = c.args.tensor("self")?;
    perm.push(perm.len() as i64);
    Ok(vec![finish(c, c.b.onnx().transpose(z, Some(&perm)).like(z)?)?])
}

pub fn permute<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let rank = c.aten_rank("self")?;
    let dims = c.args.ints("dims")?;
    if dims.len() != rank {
        return Err(format!("permute: {} dims for a tensor of rank {rank}", dims.len()));
    }
    let perm: Vec<i64> = dims.iter().map(|&d| c.dim(d, rank).map(|d| d as i64)).collect::<Result<_, _>>()?;
    transpose(c, perm)
}

pub fn transpose_int<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let rank = c.aten_rank("self")?;
    let d0 = c.dim(c.args.int("dim0")?, rank)?;
    let d1 = c.dim(c.args.int("dim1")?, rank)?;
    if rank == 0 {
        return identity(c);
    }
    let mut perm: Vec<i64> = (0..rank as i64).collect();
    perm.swap(d0, d1);
    transpose(c, perm)
}

/// `select.int`: `Gather` on the (non-negative) complex dim (ONNX Gather
/// takes negative indices like torch).
pub fn select<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let rank = c.aten_rank("self")?;
    if rank == 0 {
        return Err("select on a 0-d tensor".into());
    }
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let z = c.args.tensor("self")?;
    let index = c.int_scalar(c.args.sym_int("index")?, c.b.i64_type())?;
    Ok(vec![finish(c, c.b.onnx().gather(z, index, Some(dim as i64)).like(z)?)?])
}

/// `slice.Tensor` on the (non-negative) complex dim.
pub fn slice<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let rank = c.aten_rank("self")?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let z = c.args.tensor("self")?;
    let start = c.args.opt_sym_int("start")?.unwrap_or(IntArg::Static(0));
    let end = c.args.opt_sym_int("end")?.unwrap_or(IntArg::Static(i64::MAX));
    let step = c.args.sym_int("step")?;
    let starts = c.int_tensor(start)?;
    let ends = c.int_tensor(end)?;
    let axes = c.b.const_i64s(&[dim as i64])?;
    let steps = c.int_tensor(step)?;
    Ok(vec![finish(c, c.b.onnx().slice(z, starts, ends, Some(axes), Some(steps)).like(z)?)?])
}

/// The elements of the `tensors` list as complex values of `component`.
fn complex_list<'c, 'a>(c: &Ctx<'c, 'a>, component: Type<'c>) -> Result<Vec<(Value<'c, 'a>, Type<'c>)>, String> {
    let range = c.args.operand_range("tensors")?.ok_or("tensors is not a list of tensors")?;
    let values = c.args.tensors("tensors")?;
    let mut out = Vec::new();
    for (k, v) in values.into_iter().enumerate() {
        let ty = *c.aten_operand_types.get(range.start + k).ok_or("no aten type")?;
        let v = if complex::is_complex_type(ty) {
            c.b.cast_like_type(v, component)?
        } else {
            let v = c.b.cast_like_type(v, component)?;
            c.make_complex(v, None)?
        };
        out.push((v, ty));
    }
    Ok(out)
}

/// `cat` with a complex result (real elements get zero imaginary parts;
/// legacy 1-D empty elements are skipped like torch).
pub fn cat<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let rank = builder::rank(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let mut inputs = Vec::new();
    for (v, ty) in complex_list(c, component)? {
        if rank > 1 && builder::dims(ty).is_some_and(|d| d == [Some(0)]) {
            continue;
        }
        inputs.push(v);
    }
    if inputs.is_empty() {
        return Err("cat of empty tensors only".into());
    }
    let first = inputs[0];
    Ok(vec![finish(c, c.b.onnx().concat(&inputs, dim as i64).like(first)?)?])
}

/// `stack`: each element unsqueezed at `dim` (of the result's rank), then
/// concatenated.
pub fn stack<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    let component = c.result_component(0)?;
    let rank = builder::rank(c.result_type(0)?).ok_or("the result has an unknown rank")?;
    let dim = c.dim(c.args.int("dim")?, rank)?;
    let mut inputs = Vec::new();
    for (v, _) in complex_list(c, component)? {
        inputs.push(c.unsqueeze(v, &[dim as i64])?);
    }
    if inputs.is_empty() {
        return Err("stack of no tensors".into());
    }
    let first = inputs[0];
    Ok(vec![finish(c, c.b.onnx().concat(&inputs, dim as i64).like(first)?)?])
}

/// `constant_pad_nd` of a complex tensor with a zero value: `Pad` of the
/// real view (the trailing dim not padded; negative pads crop). Another
/// value would have to pad only the real part: refused.
pub fn constant_pad<'c, 'a>(c: &Ctx<'c, 'a>) -> Out<'c, 'a> {
    if !c.args.is_none("value")? && c.args.number("value").map(|v| v.as_f64()) != Ok(0.0) {
        return Err("constant_pad_nd of a complex tensor with a non-zero (or complex) value is not supported".into());
    }
    let rank = c.aten_rank("self")?;
    let pad = c.args.ints("pad")?;
    if pad.len() % 2 != 0 || pad.len() / 2 > rank {
        return Err(format!("constant_pad_nd: {} pad values for a tensor of rank {rank}", pad.len()));
    }
    let mut pads = vec![0i64; 2 * (rank + 1)];
    for (i, pair) in pad.chunks(2).enumerate() {
        let d = rank - 1 - i;
        pads[d] = pair[0];
        pads[rank + 1 + d] = pair[1];
    }
    let z = c.args.tensor("self")?;
    let pads = c.b.const_i64s(&pads)?;
    Ok(vec![finish(c, c.b.onnx().pad(z, pads, None, None, None).like(z)?)?])
}
