//! Shapes of tensor types with symbolic dims: a symbolic dim travels in the
//! tensor encoding (`tensor<?x16xf32, ["s77"]>`); shared by
//! `onnx-shape-inference`, the lowering and the optimizer.

use crate::{ir, types::dims};
use melior::ir::r#type::TypeLike as _;
use melior::ir::{
    attribute::{ArrayAttribute, StringAttribute},
    r#type::RankedTensorType,
    Attribute, Type,
};
use mlir_sys as sys;

/// One dimension: static, symbolic (an expression over capture symbols), or unknown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    Static(i64),
    Sym(String),
    Unknown,
}

/// The dims of a tensor.
pub type Shape = Vec<Dim>;

/// The shape of a tensor type, with symbols from its encoding.
pub fn shape_of(ty: Type<'_>) -> Option<Shape> {
    let d = dims(ty)?;
    let symbols: Vec<String> = unsafe {
        let enc = sys::mlirRankedTensorTypeGetEncoding(ty.to_raw());
        if enc.ptr.is_null() || !sys::mlirAttributeIsAArray(enc) {
            Vec::new()
        } else {
            (0..sys::mlirArrayAttrGetNumElements(enc))
                .map(|i| {
                    ir::string_value(Attribute::from_raw(sys::mlirArrayAttrGetElement(enc, i))).unwrap_or_default()
                })
                .collect()
        }
    };
    let mut next = symbols.into_iter();
    Some(
        d.into_iter()
            .map(|d| match d {
                Some(n) => Dim::Static(n),
                None => match next.next() {
                    Some(s) if !s.is_empty() => Dim::Sym(s),
                    _ => Dim::Unknown,
                },
            })
            .collect(),
    )
}

/// A ranked tensor type of `shape`, with symbols in the encoding.
pub fn tensor_type<'c>(context: &'c melior::Context, shape: &[Dim], element: Type<'c>) -> Type<'c> {
    // A negative size (an invalid model's Reshape to [-2, 3]) is no type:
    // unknown instead.
    let shape: Vec<Dim> =
        shape.iter().map(|d| if matches!(d, Dim::Static(n) if *n < 0) { Dim::Unknown } else { d.clone() }).collect();
    let shape = &shape[..];
    const DYNAMIC: u64 = i64::MIN as u64;
    let dims: Vec<u64> = shape.iter().map(|d| if let Dim::Static(n) = d { *n as u64 } else { DYNAMIC }).collect();
    let symbols: Vec<Attribute> = shape
        .iter()
        .filter_map(|d| match d {
            Dim::Static(_) => None,
            Dim::Sym(s) => Some(StringAttribute::new(context, s).into()),
            Dim::Unknown => Some(StringAttribute::new(context, "").into()),
        })
        .collect();
    let has_symbols = shape.iter().any(|d| matches!(d, Dim::Sym(_)));
    let encoding = has_symbols.then(|| ArrayAttribute::new(context, &symbols).into());
    RankedTensorType::new(&dims, element, encoding).into()
}

/// The size of `total` (all dims of a tensor) divided by the size of
/// `taken`: static factors divide, a symbolic dim of `taken` cancels one
/// equal symbol of `total` (symbols are atoms: `2*s0` does not cancel
/// `s0`). What is left is a static size or the product of the symbols left,
/// named as torch prints one (`4*s0`, `s0*s1`). `None` when something does
/// not cancel or divide, or a size is 0.
pub fn remaining_dim(total: &[Dim], taken: &[Dim]) -> Option<Dim> {
    let mut numeric: i64 = 1;
    let mut symbols: Vec<String> = Vec::new();
    for d in total {
        match d {
            Dim::Static(n) if *n > 0 => numeric = numeric.checked_mul(*n)?,
            Dim::Sym(_) => symbols.push(text(d)),
            _ => return None,
        }
    }
    for d in taken {
        match d {
            Dim::Static(n) if *n > 0 && numeric % n == 0 => numeric /= n,
            Dim::Sym(_) => {
                let at = symbols.iter().position(|s| *s == text(d))?;
                symbols.remove(at);
            }
            _ => return None,
        }
    }
    if symbols.is_empty() {
        return Some(Dim::Static(numeric));
    }
    symbols.sort();
    let factors: Vec<String> = (numeric != 1).then(|| numeric.to_string()).into_iter().chain(symbols).collect();
    Some(Dim::Sym(factors.join("*")))
}

/// The number of elements of a tensor of these dims: static, a product of
/// symbols named as torch prints one (`4*s0`), or unknown.
pub fn size_of(dims: &[Dim]) -> Dim {
    if dims.contains(&Dim::Static(0)) {
        return Dim::Static(0);
    }
    remaining_dim(dims, &[]).unwrap_or(Dim::Unknown)
}

/// A dim as torch prints it in an expression (a sum in parentheses).
pub fn text(d: &Dim) -> String {
    match d {
        Dim::Static(n) => n.to_string(),
        Dim::Sym(s) if s.contains(' ') => format!("({s})"),
        Dim::Sym(s) => s.clone(),
        Dim::Unknown => "?".into(),
    }
}
