//! The memory layout (strides, storage offset) of a tensor, for the rules of
//! `sym_stride`, `sym_storage_offset` and `sym_is_contiguous`.
//!
//! ONNX tensors have no layout, and the aten dialect's types keep only
//! shapes: the importer attaches the capture's recorded strides and storage
//! offset of the `self` operand to these ops (`aten.self_strides`,
//! `aten.self_storage_offset`, see `aten_ir::META_QUERY_OPS` and
//! docs/dialects.md). A static value is a constant; a symbolic one is built
//! from the operand's runtime sizes when the recorded expression is a product
//! of integers and symbols that are sizes of the operand (`4*s1`); anything
//! else (an unbacked symbol such as the offset of a data-dependent slice, a
//! sum) and a missing record (a hand-written `.mlir`) is refused.

use crate::{
    aten_ir,
    ir,
    Ctx,
    shape::{shape_of, Dim},
};
use melior::ir::{
    attribute::{AttributeLike as _, IntegerAttribute},
    operation::OperationLike as _,
    r#type::{IntegerType, RankedTensorType},
    Attribute, Value,
};

/// A SymInt being computed: static, or a `tensor<1xi64>` of the graph.
#[derive(Clone, Copy)]
pub enum Iv<'c, 'a> {
    S(i64),
    D(Value<'c, 'a>),
}

/// A SymBool being computed: static, or a `tensor<1xi1>` of the graph.
#[derive(Clone, Copy)]
pub enum Bv<'c, 'a> {
    S(bool),
    D(Value<'c, 'a>),
}

/// A recorded stride or offset: an integer or the infix text of a symbolic
/// expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    Int(i64),
    Expr(String),
}

fn recorded(attr: Attribute<'_>) -> Option<Recorded> {
    if let Ok(i) = IntegerAttribute::try_from(attr) {
        return Some(Recorded::Int(i.value()));
    }
    ir::string_value(attr).map(Recorded::Expr)
}

fn missing(what: &str) -> String {
    format!(
        "the {what} of 'self' is not recorded on this op (the importer attaches the capture's tensor meta as \
         `{}` / `{}`; a module without them, e.g. hand-written, cannot say what torch's tensor layout was)",
        aten_ir::SELF_STRIDES_ATTR,
        aten_ir::SELF_STORAGE_OFFSET_ATTR
    )
}

/// The recorded strides of `self`, one per dim (checked against its rank).
pub fn strides(ctx: &Ctx) -> Result<Vec<Recorded>, String> {
    let attr = ctx.args.op.attribute(aten_ir::SELF_STRIDES_ATTR).map_err(|_| missing("strides"))?;
    if !unsafe { mlir_sys::mlirAttributeIsAArray(attr.to_raw()) } {
        return Err(format!("`{}` must be an array", aten_ir::SELF_STRIDES_ATTR));
    }
    let n = unsafe { mlir_sys::mlirArrayAttrGetNumElements(attr.to_raw()) };
    let mut out = Vec::new();
    for i in 0..n {
        let element = unsafe { Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(attr.to_raw(), i)) };
        out.push(recorded(element).ok_or_else(|| {
            format!("`{}` element {i} is neither an integer nor an expression", aten_ir::SELF_STRIDES_ATTR)
        })?);
    }
    let rank = self_dims(ctx)?.len();
    if out.len() != rank {
        return Err(format!("{} recorded strides for a tensor of rank {rank}", out.len()));
    }
    Ok(out)
}

/// The recorded storage offset of `self`.
pub fn storage_offset(ctx: &Ctx) -> Result<Recorded, String> {
    let attr = ctx.args.op.attribute(aten_ir::SELF_STORAGE_OFFSET_ATTR).map_err(|_| missing("storage offset"))?;
    recorded(attr).ok_or_else(|| format!("`{}` is neither an integer nor an expression", aten_ir::SELF_STORAGE_OFFSET_ATTR))
}

/// The dims of `self` as imported (static, or the symbolic expression).
fn self_dims(ctx: &Ctx) -> Result<Vec<Dim>, String> {
    let ty = ctx.aten_operand_types.first().copied().ok_or("no 'self' operand")?;
    shape_of(ty).ok_or_else(|| "'self' is not a ranked tensor".to_string())
}

/// The size of dim `d` of `self`.
pub fn size<'c, 'a>(ctx: &Ctx<'c, 'a>, d: usize) -> Result<Iv<'c, 'a>, String> {
    match self_dims(ctx)?.get(d) {
        Some(Dim::Static(n)) => Ok(Iv::S(*n)),
        Some(_) => {
            let x = ctx.args.tensor("self")?;
            let ty = RankedTensorType::new(&[1], ctx.b.i64_type(), None).into();
            let d = d as i64;
            Ok(Iv::D(ctx.b.onnx().shape(x, Some(d + 1), Some(d)).typed(ty)?))
        }
        None => Err(format!("dim {d} out of range")),
    }
}

/// `Some((k, symbols))` when `text` is a product `k*a*b` of integers and
/// symbol names (sympy's `Mul` printed by the importer).
fn product(text: &str) -> Option<(i64, Vec<String>)> {
    let mut k: i64 = 1;
    let mut symbols = Vec::new();
    for factor in text.split('*') {
        let f = factor.trim();
        if f.is_empty() {
            return None; // `**` (a power) or a stray `*`
        }
        if let Ok(n) = f.parse::<i64>() {
            k = k.checked_mul(n)?;
        } else if f.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            symbols.push(f.to_string());
        } else {
            return None;
        }
    }
    Some((k, symbols))
}

/// The value of the symbol `name`, from a dim of `self` whose size is
/// `k*name` (then `size / k`, exact).
fn symbol<'c, 'a>(ctx: &Ctx<'c, 'a>, name: &str) -> Result<Option<Iv<'c, 'a>>, String> {
    for (d, dim) in self_dims(ctx)?.iter().enumerate() {
        let Dim::Sym(text) = dim else { continue };
        let Some((k, symbols)) = product(text) else { continue };
        if symbols.len() == 1 && symbols[0] == name && k >= 1 {
            let s = size(ctx, d)?;
            return Ok(Some(if k == 1 { s } else { div(ctx, s, k)? }));
        }
    }
    Ok(None)
}

/// A recorded value as a SymInt: a constant, or the product of sizes of
/// `self` it is recorded as; `what` names it in the refusal.
pub fn value<'c, 'a>(ctx: &Ctx<'c, 'a>, v: &Recorded, what: &str) -> Result<Iv<'c, 'a>, String> {
    let text = match v {
        Recorded::Int(n) => return Ok(Iv::S(*n)),
        Recorded::Expr(text) => text,
    };
    let refuse = |why: &str| {
        format!(
            "the {what} of 'self' is the symbolic `{text}` in the capture, {why}; ONNX tensors have no layout to \
             read it from"
        )
    };
    let (k, symbols) = product(text).ok_or_else(|| refuse("not a product of sizes"))?;
    let mut acc = Iv::S(k);
    for s in &symbols {
        let v = symbol(ctx, s)?.ok_or_else(|| {
            refuse(&format!("and `{s}` is not a size of 'self' (e.g. a data-dependent value defined by this op)"))
        })?;
        acc = mul(ctx, acc, v)?;
    }
    Ok(acc)
}

fn i64_1<'c>(ctx: &Ctx<'c, '_>) -> melior::ir::Type<'c> {
    RankedTensorType::new(&[1], ctx.b.i64_type(), None).into()
}

fn bool_1<'c>(ctx: &Ctx<'c, '_>) -> melior::ir::Type<'c> {
    RankedTensorType::new(&[1], IntegerType::new(ctx.b.context, 1).into(), None).into()
}

fn dyn_i<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Iv<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    match v {
        Iv::S(n) => ctx.b.const_i64s(&[n]),
        Iv::D(v) => Ok(v),
    }
}

/// The value as a `tensor<1xi64>` of the graph.
pub fn int_value<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Iv<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    dyn_i(ctx, v)
}

/// The value as a `tensor<1xi1>` of the graph.
pub fn bool_value<'c, 'a>(ctx: &Ctx<'c, 'a>, v: Bv<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    match v {
        Bv::S(b) => {
            let i1: melior::ir::Type = IntegerType::new(ctx.b.context, 1).into();
            ctx.b.constant(bool_1(ctx), &[IntegerAttribute::new(i1, b as i64).into()])
        }
        Bv::D(v) => Ok(v),
    }
}

pub fn mul<'c, 'a>(ctx: &Ctx<'c, 'a>, a: Iv<'c, 'a>, b: Iv<'c, 'a>) -> Result<Iv<'c, 'a>, String> {
    match (a, b) {
        (Iv::S(x), Iv::S(y)) => x.checked_mul(y).map(Iv::S).ok_or_else(|| "int64 overflow".to_string()),
        (Iv::S(1), v) | (v, Iv::S(1)) => Ok(v),
        _ => Ok(Iv::D(ctx.b.onnx().mul(dyn_i(ctx, a)?, dyn_i(ctx, b)?).typed(i64_1(ctx))?)),
    }
}

fn div<'c, 'a>(ctx: &Ctx<'c, 'a>, a: Iv<'c, 'a>, k: i64) -> Result<Iv<'c, 'a>, String> {
    match a {
        Iv::S(x) => Ok(Iv::S(x / k)),
        Iv::D(_) => Ok(Iv::D(ctx.b.onnx().div(dyn_i(ctx, a)?, ctx.b.const_i64s(&[k])?).typed(i64_1(ctx))?)),
    }
}

pub fn eq<'c, 'a>(ctx: &Ctx<'c, 'a>, a: Iv<'c, 'a>, b: Iv<'c, 'a>) -> Result<Bv<'c, 'a>, String> {
    match (a, b) {
        (Iv::S(x), Iv::S(y)) => Ok(Bv::S(x == y)),
        _ => Ok(Bv::D(ctx.b.onnx().equal(dyn_i(ctx, a)?, dyn_i(ctx, b)?).typed(bool_1(ctx))?)),
    }
}

pub fn and<'c, 'a>(ctx: &Ctx<'c, 'a>, a: Bv<'c, 'a>, b: Bv<'c, 'a>) -> Result<Bv<'c, 'a>, String> {
    match (a, b) {
        (Bv::S(false), _) | (_, Bv::S(false)) => Ok(Bv::S(false)),
        (Bv::S(true), v) | (v, Bv::S(true)) => Ok(v),
        (Bv::D(x), Bv::D(y)) => Ok(Bv::D(ctx.b.onnx().and(x, y).typed(bool_1(ctx))?)),
    }
}

pub fn or<'c, 'a>(ctx: &Ctx<'c, 'a>, a: Bv<'c, 'a>, b: Bv<'c, 'a>) -> Result<Bv<'c, 'a>, String> {
    match (a, b) {
        (Bv::S(true), _) | (_, Bv::S(true)) => Ok(Bv::S(true)),
        (Bv::S(false), v) | (v, Bv::S(false)) => Ok(v),
        (Bv::D(x), Bv::D(y)) => Ok(Bv::D(ctx.b.onnx().or(x, y).typed(bool_1(ctx))?)),
    }
}

/// `if c { a } else { b }`.
pub fn select<'c, 'a>(ctx: &Ctx<'c, 'a>, c: Bv<'c, 'a>, a: Iv<'c, 'a>, b: Iv<'c, 'a>) -> Result<Iv<'c, 'a>, String> {
    match c {
        Bv::S(true) => Ok(a),
        Bv::S(false) => Ok(b),
        Bv::D(c) => Ok(Iv::D(ctx.b.onnx().where_(c, dyn_i(ctx, a)?, dyn_i(ctx, b)?).typed(i64_1(ctx))?)),
    }
}

#[cfg(test)]
mod tests {
    use super::product;

    #[test]
    fn products_of_sizes() {
        assert_eq!(product("4"), Some((4, vec![])));
        assert_eq!(product("4*s1"), Some((4, vec!["s1".to_string()])));
        assert_eq!(product("s0*s1*3"), Some((3, vec!["s0".to_string(), "s1".to_string()])));
        assert_eq!(product("u5"), Some((1, vec!["u5".to_string()])));
        assert_eq!(product("s0 + 1"), None);
        assert_eq!(product("s0**2"), None);
        assert_eq!(product("(s0 - 1)*4"), None);
        assert_eq!(product("max(1, s0)"), None);
    }
}
