//! MLIR attributes of onnx-dialect ops -> ONNX AttributeProtos, and dense
//! elements -> TensorProtos.
//!
//! Forms (docs/dialects.md): integer (and bool) -> INT, float -> FLOAT,
//! string -> STRING, `array<i64>` (also `array<i32>`, `array<i1>`) -> INTS,
//! `array<f32>`/`array<f64>` -> FLOATS, an array of strings -> STRINGS (of
//! integers -> INTS, of floats -> FLOATS), dense elements -> TENSOR, an
//! array of dense elements -> TENSORS, a type -> TYPE_PROTO when the schema
//! asks for one (skipped otherwise). When the op's schema is known it decides
//! the kind of an empty array and of a number given for the other kind
//! (`1 : i64` for a FLOAT attribute).

use aten2onnx_dialects::onnx::AttrType;
use aten2onnx_passes::onnx_ir;
use melior::ir::{attribute::AttributeLike, r#type::TypeLike, Attribute, Type};
use mlir_sys as sys;
use onnx_protobuf::{attribute_proto::AttributeType, type_proto, AttributeProto, TensorProto, TypeProto};

/// Converts one attribute; `Ok(None)` when it has no ONNX form and is
/// skipped (a type attribute the schema does not ask for).
pub fn attribute(
    name: &str,
    attr: Attribute<'_>,
    expected: Option<AttrType>,
) -> Result<Option<AttributeProto>, String> {
    let raw = attr.to_raw();
    let mut proto = AttributeProto { name: name.to_string(), ..Default::default() };
    let set = |proto: &mut AttributeProto, ty: AttributeType| proto.type_ = ty.into();
    unsafe {
        if sys::mlirAttributeIsAInteger(raw) || sys::mlirAttributeIsABool(raw) {
            let value = integer_value(attr).ok_or("integer attribute wider than 64 bits")?;
            if expected == Some(AttrType::Float) {
                proto.f = value as f32;
                set(&mut proto, AttributeType::FLOAT);
            } else {
                proto.i = value;
                set(&mut proto, AttributeType::INT);
            }
        } else if sys::mlirAttributeIsAFloat(raw) {
            let value = sys::mlirFloatAttrGetValueDouble(raw);
            if expected == Some(AttrType::Int) && value.fract() == 0.0 {
                proto.i = value as i64;
                set(&mut proto, AttributeType::INT);
            } else {
                proto.f = value as f32;
                set(&mut proto, AttributeType::FLOAT);
            }
        } else if sys::mlirAttributeIsAString(raw) {
            proto.s = string_bytes(attr);
            set(&mut proto, AttributeType::STRING);
        } else if let Some(ints) = dense_int_array(attr) {
            if expected == Some(AttrType::Floats) {
                proto.floats = ints.iter().map(|&v| v as f32).collect();
                set(&mut proto, AttributeType::FLOATS);
            } else {
                proto.ints = ints;
                set(&mut proto, AttributeType::INTS);
            }
        } else if let Some(floats) = dense_float_array(attr) {
            proto.floats = floats;
            set(&mut proto, AttributeType::FLOATS);
        } else if sys::mlirAttributeIsAArray(raw) {
            array(&mut proto, attr, expected)?;
        } else if sys::mlirAttributeIsADenseElements(raw) {
            proto.t = Some(tensor(attr)?).into();
            set(&mut proto, AttributeType::TENSOR);
        } else if sys::mlirAttributeIsAType(raw) {
            if expected != Some(AttrType::TypeProto) {
                return Ok(None);
            }
            let ty = Type::from_raw(sys::mlirTypeAttrGetValue(raw));
            let elem_type = onnx_ir::data_type_code(ty).ok_or_else(|| format!("type {ty} has no ONNX data type"))?;
            proto.tp = Some(TypeProto {
                value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                    elem_type: elem_type as i32,
                    ..Default::default()
                })),
                ..Default::default()
            })
            .into();
            set(&mut proto, AttributeType::TYPE_PROTO);
        } else {
            return Err(format!("attribute `{name}` = {attr} has no ONNX form"));
        }
    }
    explicit_presence(&mut proto);
    Ok(Some(proto))
}

/// The message types are generated from onnx's proto3 schema, where a
/// scalar field equal to its default (`i: 0`, `f: 0.0`, `s: ""`) is not
/// written. onnx's checker and onnxruntime accept that (they go by `type`),
/// but proto2 readers that test presence (`HasField("i")`) would see no
/// value. Such a value is therefore added as an extra field on the wire,
/// which every reader parses as the field itself (and which keeps -0.0).
fn explicit_presence(proto: &mut AttributeProto) {
    let unknown = proto.special_fields.mut_unknown_fields();
    match proto.type_.enum_value() {
        Ok(AttributeType::INT) if proto.i == 0 => unknown.add_varint(3, 0),
        Ok(AttributeType::FLOAT) if proto.f == 0.0 => unknown.add_fixed32(2, proto.f.to_bits()),
        Ok(AttributeType::STRING) if proto.s.is_empty() => unknown.add_length_delimited(4, Vec::new()),
        _ => {}
    }
}

fn array(proto: &mut AttributeProto, attr: Attribute<'_>, expected: Option<AttrType>) -> Result<(), String> {
    let raw = attr.to_raw();
    let elements: Vec<Attribute> = unsafe {
        (0..sys::mlirArrayAttrGetNumElements(raw))
            .map(|i| Attribute::from_raw(sys::mlirArrayAttrGetElement(raw, i)))
            .collect()
    };
    let all = |f: unsafe extern "C" fn(sys::MlirAttribute) -> bool| elements.iter().all(|e| unsafe { f(e.to_raw()) });
    let kind = if elements.is_empty() {
        match expected {
            Some(AttrType::Floats) => AttributeType::FLOATS,
            Some(AttrType::Strings) => AttributeType::STRINGS,
            Some(AttrType::Tensors) => AttributeType::TENSORS,
            Some(AttrType::Ints) | None => AttributeType::INTS,
            Some(other) => {
                return Err(format!("attribute `{}`: an empty array for a {} attribute", proto.name, other.as_str()))
            }
        }
    } else if all(sys::mlirAttributeIsAString) {
        AttributeType::STRINGS
    } else if all(sys::mlirAttributeIsAInteger) {
        if expected == Some(AttrType::Floats) {
            AttributeType::FLOATS
        } else {
            AttributeType::INTS
        }
    } else if elements
        .iter()
        .all(|e| unsafe { sys::mlirAttributeIsAFloat(e.to_raw()) || sys::mlirAttributeIsAInteger(e.to_raw()) })
    {
        AttributeType::FLOATS
    } else if all(sys::mlirAttributeIsADenseElements) {
        AttributeType::TENSORS
    } else {
        return Err(format!("attribute `{}` = {attr}: an array mixing kinds has no ONNX form", proto.name));
    };
    proto.type_ = kind.into();
    for element in elements {
        let raw = element.to_raw();
        match kind {
            AttributeType::STRINGS => proto.strings.push(string_bytes(element)),
            AttributeType::INTS => proto.ints.push(integer_value(element).ok_or("integer wider than 64 bits")?),
            AttributeType::FLOATS => proto.floats.push(unsafe {
                if sys::mlirAttributeIsAFloat(raw) {
                    sys::mlirFloatAttrGetValueDouble(raw) as f32
                } else {
                    integer_value(element).ok_or("integer wider than 64 bits")? as f32
                }
            }),
            _ => proto.tensors.push(tensor(element)?),
        }
    }
    Ok(())
}

/// The value of an integer or bool attribute, sign-extended for signless
/// and signed types.
fn integer_value(attr: Attribute<'_>) -> Option<i64> {
    let raw = attr.to_raw();
    unsafe {
        if sys::mlirAttributeIsABool(raw) {
            return Some(sys::mlirBoolAttrGetValue(raw) as i64);
        }
        let ty = sys::mlirAttributeGetType(raw);
        if sys::mlirTypeIsAIndex(ty) {
            return Some(sys::mlirIntegerAttrGetValueInt(raw));
        }
        let width = sys::mlirIntegerTypeGetWidth(ty);
        if width > 64 {
            return None;
        }
        if sys::mlirIntegerTypeIsUnsigned(ty) {
            Some(sys::mlirIntegerAttrGetValueUInt(raw) as i64)
        } else if sys::mlirIntegerTypeIsSigned(ty) {
            Some(sys::mlirIntegerAttrGetValueSInt(raw))
        } else if width == 1 {
            // i1 holds 0 or 1 (not -1)
            Some(sys::mlirIntegerAttrGetValueUInt(raw) as i64)
        } else {
            Some(sys::mlirIntegerAttrGetValueInt(raw))
        }
    }
}

fn string_bytes(attr: Attribute<'_>) -> Vec<u8> {
    unsafe {
        let s = sys::mlirStringAttrGetValue(attr.to_raw());
        if s.length == 0 || s.data.is_null() {
            return Vec::new(); // an empty string's data pointer may be null
        }
        std::slice::from_raw_parts(s.data as *const u8, s.length).to_vec()
    }
}

fn dense_int_array(attr: Attribute<'_>) -> Option<Vec<i64>> {
    let raw = attr.to_raw();
    unsafe {
        let n = || sys::mlirDenseArrayGetNumElements(raw);
        if sys::mlirAttributeIsADenseI64Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseI64ArrayGetElement(raw, i)).collect())
        } else if sys::mlirAttributeIsADenseI32Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseI32ArrayGetElement(raw, i) as i64).collect())
        } else if sys::mlirAttributeIsADenseI16Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseI16ArrayGetElement(raw, i) as i64).collect())
        } else if sys::mlirAttributeIsADenseI8Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseI8ArrayGetElement(raw, i) as i64).collect())
        } else if sys::mlirAttributeIsADenseBoolArray(raw) {
            Some((0..n()).map(|i| sys::mlirDenseBoolArrayGetElement(raw, i) as i64).collect())
        } else {
            None
        }
    }
}

fn dense_float_array(attr: Attribute<'_>) -> Option<Vec<f32>> {
    let raw = attr.to_raw();
    unsafe {
        let n = || sys::mlirDenseArrayGetNumElements(raw);
        if sys::mlirAttributeIsADenseF32Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseF32ArrayGetElement(raw, i)).collect())
        } else if sys::mlirAttributeIsADenseF64Array(raw) {
            Some((0..n()).map(|i| sys::mlirDenseF64ArrayGetElement(raw, i) as f32).collect())
        } else {
            None
        }
    }
}

/// A dense elements attribute as a TensorProto (dims, data_type, raw_data
/// in row-major little-endian order; splats expanded).
pub fn tensor(attr: Attribute<'_>) -> Result<TensorProto, String> {
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsADenseElements(raw) {
            return Err(format!("{attr} is not a dense elements attribute"));
        }
        if let Some(strings) = string_tensor(attr) {
            return Ok(strings);
        }
        if !(sys::mlirAttributeIsADenseIntElements(raw) || sys::mlirAttributeIsADenseFPElements(raw)) {
            return Err(format!(
                "dense elements of type {} have no ONNX raw form",
                Type::from_raw(sys::mlirAttributeGetType(raw))
            ));
        }
        let ty = Type::from_raw(sys::mlirAttributeGetType(raw));
        if !sys::mlirShapedTypeHasStaticShape(ty.to_raw()) {
            return Err(format!("dense elements of type {ty} have no static shape"));
        }
        let elem = Type::from_raw(sys::mlirShapedTypeGetElementType(ty.to_raw()));
        let data_type =
            onnx_ir::data_type_code(elem).ok_or_else(|| format!("element type {elem} has no ONNX data type"))?;
        let rank = sys::mlirShapedTypeGetRank(ty.to_raw());
        let dims: Vec<i64> = (0..rank).map(|i| sys::mlirShapedTypeGetDimSize(ty.to_raw(), i as isize)).collect();
        let count = sys::mlirElementsAttrGetNumElements(raw) as usize;
        let width = element_bit_width(elem);
        let raw_data = if width == 1 {
            (0..count).map(|i| sys::mlirDenseElementsAttrGetBoolValue(raw, i as isize) as u8).collect()
        } else if width % 8 == 0 && width > 0 {
            let size = width / 8;
            let data = sys::mlirDenseElementsAttrGetRawData(raw) as *const u8;
            if count == 0 || data.is_null() {
                Vec::new()
            } else if sys::mlirDenseElementsAttrIsSplat(raw) {
                let one = std::slice::from_raw_parts(data, size);
                one.repeat(count)
            } else {
                std::slice::from_raw_parts(data, size * count).to_vec()
            }
        } else {
            return Err(format!("element type {elem} ({width} bits) is not supported in constant tensors"));
        };
        Ok(TensorProto { dims, data_type: data_type as i32, raw_data, ..Default::default() })
    }
}

/// Dense elements of `!onnx.string` (an imported ONNX model's string
/// tensor) as a TensorProto with `string_data`.
fn string_tensor(attr: Attribute<'_>) -> Option<TensorProto> {
    let raw = attr.to_raw();
    unsafe {
        let ty = sys::mlirAttributeGetType(raw);
        let elem = Type::from_raw(sys::mlirShapedTypeGetElementType(ty));
        if onnx_ir::data_type_code(elem) != Some(8) || !sys::mlirShapedTypeHasStaticShape(ty) {
            return None;
        }
        let rank = sys::mlirShapedTypeGetRank(ty);
        let dims: Vec<i64> = (0..rank).map(|i| sys::mlirShapedTypeGetDimSize(ty, i as isize)).collect();
        let count = sys::mlirElementsAttrGetNumElements(raw);
        let splat = sys::mlirDenseElementsAttrIsSplat(raw);
        let string_data = (0..count)
            .map(|i| {
                let s = if splat {
                    sys::mlirDenseElementsAttrGetStringSplatValue(raw)
                } else {
                    sys::mlirDenseElementsAttrGetStringValue(raw, i as isize)
                };
                if s.length == 0 || s.data.is_null() {
                    return Vec::new();
                }
                std::slice::from_raw_parts(s.data as *const u8, s.length).to_vec()
            })
            .collect();
        Some(TensorProto { dims, data_type: 8, string_data, ..Default::default() })
    }
}

/// Storage bit width of an element type (complex: both parts).
fn element_bit_width(elem: Type<'_>) -> usize {
    unsafe {
        let raw = elem.to_raw();
        if sys::mlirTypeIsAComplex(raw) {
            2 * element_bit_width(Type::from_raw(sys::mlirComplexTypeGetElementType(raw)))
        } else if sys::mlirTypeIsAInteger(raw) {
            sys::mlirIntegerTypeGetWidth(raw) as usize
        } else if sys::mlirTypeIsAFloat(raw) {
            sys::mlirFloatTypeGetWidth(raw) as usize
        } else {
            0
        }
    }
}
