//! Type helpers over MLIR tensor types (element type, rank, dims, float
//! kinds, torch's type promotion), shared by the lowering rules, the onnx
//! passes and the optimizer.

use melior::ir::r#type::TypeLike as _;
use melior::{
    ir::{attribute::FloatAttribute, r#type::IntegerType, Attribute, Type},
    Context,
};
use mlir_sys as sys;

/// The element type of a tensor type.
pub fn element_type(ty: Type<'_>) -> Option<Type<'_>> {
    unsafe {
        sys::mlirTypeIsATensor(ty.to_raw()).then(|| Type::from_raw(sys::mlirShapedTypeGetElementType(ty.to_raw())))
    }
}

/// The rank of a ranked tensor type.
pub fn rank(ty: Type<'_>) -> Option<usize> {
    unsafe {
        (sys::mlirTypeIsATensor(ty.to_raw()) && sys::mlirShapedTypeHasRank(ty.to_raw()))
            .then(|| sys::mlirShapedTypeGetRank(ty.to_raw()) as usize)
    }
}

/// Dims of a ranked tensor type (`None` for dynamic).
pub fn dims(ty: Type<'_>) -> Option<Vec<Option<i64>>> {
    let r = rank(ty)?;
    unsafe {
        Some(
            (0..r)
                .map(|i| {
                    let d = sys::mlirShapedTypeGetDimSize(ty.to_raw(), i as isize);
                    (!sys::mlirShapedTypeIsDynamicSize(d)).then_some(d)
                })
                .collect(),
        )
    }
}

/// The same tensor type with another element type (keeps shape and encoding).
pub fn with_element_type<'c>(ty: Type<'c>, element: Type<'c>) -> Option<Type<'c>> {
    unsafe {
        if !sys::mlirTypeIsATensor(ty.to_raw()) {
            return None;
        }
        if !sys::mlirShapedTypeHasRank(ty.to_raw()) {
            return Some(Type::from_raw(sys::mlirUnrankedTensorTypeGet(element.to_raw())));
        }
        let r = sys::mlirShapedTypeGetRank(ty.to_raw());
        let shape: Vec<i64> = (0..r).map(|i| sys::mlirShapedTypeGetDimSize(ty.to_raw(), i as isize)).collect();
        let encoding = sys::mlirRankedTensorTypeGetEncoding(ty.to_raw());
        Some(Type::from_raw(sys::mlirRankedTensorTypeGet(r as isize, shape.as_ptr(), element.to_raw(), encoding)))
    }
}

/// A float attribute of `element`. MLIR has no float attribute of an integer
/// type (building one corrupts memory), so a rule that reaches here with an
/// integer tensor has a bug: the panic becomes a clean "internal error" at
/// the op (convert-aten-to-onnx catches it) instead of a crash. Rules refuse
/// integer tensors they cannot handle before building constants.
pub fn float_attr<'c>(context: &'c melior::Context, element: Type<'c>, value: f64) -> Attribute<'c> {
    assert!(is_float(element), "a float constant of element type {element}: the rule does not handle this dtype");
    FloatAttribute::new(context, element, value).into()
}

pub fn is_float(ty: Type<'_>) -> bool {
    unsafe { sys::mlirTypeIsAFloat(ty.to_raw()) }
}

/// float16 or bfloat16.
pub fn is_half_float(ty: Type<'_>) -> bool {
    unsafe { sys::mlirTypeIsAF16(ty.to_raw()) || sys::mlirTypeIsABF16(ty.to_raw()) }
}

/// A float, or an integer type other than bool.
pub fn is_float_or_int(ty: Type<'_>) -> bool {
    is_float(ty) || (unsafe { sys::mlirTypeIsAInteger(ty.to_raw()) } && !is_bool(ty))
}

pub fn is_bool(ty: Type<'_>) -> bool {
    unsafe { sys::mlirTypeIsAInteger(ty.to_raw()) && sys::mlirIntegerTypeGetWidth(ty.to_raw()) == 1 }
}

/// torch's `promote_types` of two real element types: the float one; of
/// two floats the wider (float16 with bfloat16: float32); of a bool and an
/// int the int; of two ints of the same signedness the wider, of a signed
/// and an unsigned one a signed type holding both (uint8 with int8: int16).
pub fn promote_types<'c>(context: &'c Context, a: Type<'c>, b: Type<'c>) -> Type<'c> {
    if a == b {
        return a;
    }
    match (is_float(a), is_float(b)) {
        (true, false) => return a,
        (false, true) => return b,
        (true, true) => {
            let bits = |t: Type<'_>| {
                if is_half_float(t) {
                    16
                } else if unsafe { sys::mlirTypeIsAF64(t.to_raw()) } {
                    64
                } else {
                    32
                }
            };
            return match (bits(a), bits(b)) {
                (16, 16) => Type::float32(context),
                (x, y) if x >= y => a,
                _ => b,
            };
        }
        (false, false) => {}
    }
    if is_bool(a) {
        return b;
    }
    if is_bool(b) {
        return a;
    }
    let (Ok(x), Ok(y)) = (IntegerType::try_from(a), IntegerType::try_from(b)) else {
        return a;
    };
    if x.is_unsigned() == y.is_unsigned() {
        return if x.width() >= y.width() { a } else { b };
    }
    let (signed, unsigned) = if x.is_unsigned() { (y, x) } else { (x, y) };
    if signed.width() > unsigned.width() {
        signed.into()
    } else {
        IntegerType::new(context, (2 * unsigned.width()).min(64)).into()
    }
}

/// torch's `result_type` of tensor operands given as (element type, is
/// 0-d): the promoted type of the tensors with dims; 0-d tensors count only
/// when their category (bool < integer < float) is higher (then their own
/// promoted type). Python numbers are left out. None without operands.
pub fn result_type<'c>(context: &'c Context, operands: &[(Type<'c>, bool)]) -> Option<Type<'c>> {
    let category = |t: Type<'_>| {
        if is_bool(t) {
            0
        } else if is_float(t) {
            2
        } else {
            1
        }
    };
    let promote_all = |zero_dim: bool| {
        operands.iter().filter(|(_, z)| *z == zero_dim).map(|(t, _)| *t).reduce(|a, b| promote_types(context, a, b))
    };
    match (promote_all(false), promote_all(true)) {
        (Some(dims), Some(zero)) if category(zero) > category(dims) => Some(zero),
        (Some(dims), _) => Some(dims),
        (None, zero) => zero,
    }
}
