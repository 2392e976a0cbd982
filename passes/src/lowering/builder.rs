//! A small builder for onnx-dialect ops, used by lowering rules. Ops are
//! inserted before the aten op being lowered and get its location.

use crate::onnx_ir;
use melior::ir::r#type::TypeLike as _;
use melior::{
    ir::{
        attribute::{ArrayAttribute, DenseElementsAttribute, FloatAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{IntegerType, RankedTensorType},
        Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use mlir_sys as sys;

/// An ONNX attribute value, converted to the dialect's attribute forms.
#[derive(Clone, Debug)]
pub enum Attr {
    Int(i64),
    Float(f32),
    String(String),
    Ints(Vec<i64>),
    Floats(Vec<f32>),
    /// A STRINGS attribute (e.g. the `activations` of RNN ops).
    Strings(Vec<String>),
}

pub struct Builder<'c, 'a> {
    pub context: &'c Context,
    block: BlockRef<'c, 'a>,
    before: OperationRef<'c, 'a>,
    pub location: Location<'c>,
    pub opset: u32,
    /// Ops built so far (raw handles), to tell new values from forwarded ones.
    created: std::cell::RefCell<Vec<sys::MlirOperation>>,
}

impl<'c, 'a> Builder<'c, 'a> {
    pub fn new(context: &'c Context, before: OperationRef<'c, 'a>, opset: u32) -> Result<Self, String> {
        let block = before.block().ok_or("op is not in a block")?;
        Ok(Builder { context, block, before, location: before.location(), opset, created: Default::default() })
    }

    fn id(&self, name: &str) -> Identifier<'c> {
        Identifier::new(self.context, name)
    }

    pub fn attribute(&self, attr: &Attr) -> Attribute<'c> {
        let ctx = self.context;
        match attr {
            Attr::Int(v) => IntegerAttribute::new(IntegerType::new(ctx, 64).into(), *v).into(),
            Attr::Float(v) => FloatAttribute::new(ctx, Type::float32(ctx), *v as f64).into(),
            Attr::String(s) => StringAttribute::new(ctx, s).into(),
            Attr::Ints(v) => melior::ir::attribute::DenseI64ArrayAttribute::new(ctx, v).into(),
            Attr::Floats(v) => unsafe {
                Attribute::from_raw(sys::mlirDenseF32ArrayGet(ctx.to_raw(), v.len() as isize, v.as_ptr()))
            },
            Attr::Strings(v) => self.strings(&v.iter().map(String::as_str).collect::<Vec<_>>()),
        }
    }

    /// Builds `onnx.<op_type>` with explicit result types.
    pub fn build(
        &self,
        op_type: &str,
        inputs: &[Value<'c, '_>],
        attrs: &[(&str, Attr)],
        results: &[Type<'c>],
    ) -> Result<Vec<Value<'c, 'a>>, String> {
        if op_type == "MatMul" && inputs.len() == 2 && results.len() == 1 {
            if let Some(widened) = self.narrow_int_matmul(inputs, results[0])? {
                return Ok(vec![widened]);
            }
        }
        let attributes: Vec<(Identifier<'c>, Attribute<'c>)> =
            attrs.iter().map(|(name, value)| (self.id(name), self.attribute(value))).collect();
        self.build_raw(op_type, inputs, attributes, results)
    }

    /// ONNX MatMul has no 8/16-bit integer types, torch's integer matmul
    /// (mm, bmm, linear, addmm, ...) does, wrapping around in the type: the
    /// product in int64 cast back to the type is the same value modulo 2^n.
    fn narrow_int_matmul(&self, inputs: &[Value<'c, '_>], result: Type<'c>) -> Result<Option<Value<'c, 'a>>, String> {
        let Some(element) = element_type(inputs[0].r#type()) else { return Ok(None) };
        let narrow = melior::ir::r#type::IntegerType::try_from(element)
            .is_ok_and(|t| (t.width() == 8 || t.width() == 16) && !is_bool(element));
        if !narrow {
            return Ok(None);
        }
        let i64_type = self.i64_type();
        let a = self.cast(inputs[0], i64_type)?;
        let b = self.cast(inputs[1], i64_type)?;
        let wide = with_element_type(result, i64_type).unwrap_or_else(|| self.unranked(i64_type));
        let product = self.build_raw("MatMul", &[a, b], Vec::new(), &[wide])?.remove(0);
        let back = element_type(result).unwrap_or(element);
        Ok(Some(self.cast(product, back)?))
    }

    /// Builds `onnx.<op_type>` with attributes already in MLIR form.
    pub fn build_raw(
        &self,
        op_type: &str,
        inputs: &[Value<'c, '_>],
        attributes: Vec<(Identifier<'c>, Attribute<'c>)>,
        results: &[Type<'c>],
    ) -> Result<Vec<Value<'c, 'a>>, String> {
        let op = OperationBuilder::new(&format!("{}{op_type}", onnx_ir::DIALECT_PREFIX), self.location)
            .add_operands(inputs)
            .add_attributes(&attributes)
            .add_results(results)
            .build()
            .map_err(|e| format!("cannot build onnx.{op_type}: {e}"))?;
        let op = self.block.insert_operation_before(self.before, op);
        self.created.borrow_mut().push(op.to_raw());
        Ok(op.results().map(Into::into).collect())
    }

    /// True when `value` is a result of an op this builder created.
    pub fn created(&self, value: Value<'_, '_>) -> bool {
        unsafe {
            sys::mlirValueIsAOpResult(value.to_raw()) && {
                let owner = sys::mlirOpResultGetOwner(value.to_raw());
                self.created.borrow().iter().any(|op| op.ptr == owner.ptr)
            }
        }
    }

    /// Builds a one-result op.
    pub fn op(
        &self,
        op_type: &str,
        inputs: &[Value<'c, '_>],
        attrs: &[(&str, Attr)],
        result: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        Ok(self.build(op_type, inputs, attrs, &[result])?.remove(0))
    }

    /// A one-result op whose result has the element type of `like` and an
    /// unknown shape (shape propagation refines it).
    pub fn op_like(
        &self,
        op_type: &str,
        inputs: &[Value<'c, '_>],
        attrs: &[(&str, Attr)],
        like: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, String> {
        let ty = self.unranked(element_type(like.r#type()).ok_or("operand is not a tensor")?);
        self.op(op_type, inputs, attrs, ty)
    }

    /// `onnx.Cast` to `element`.
    pub fn cast(&self, value: Value<'c, '_>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
        let to = onnx_ir::data_type_code(element).ok_or_else(|| format!("no ONNX data type for {element}"))?;
        let ty = with_element_type(value.r#type(), element).unwrap_or_else(|| self.unranked(element));
        self.op("Cast", &[value], &[("to", Attr::Int(to))], ty)
    }

    /// Casts `value` to the element type of `like` if they differ.
    pub fn cast_like(&self, value: Value<'c, 'a>, like: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let target = element_type(like.r#type()).ok_or("not a tensor")?;
        if element_type(value.r#type()) == Some(target) {
            Ok(value)
        } else {
            self.cast(value, target)
        }
    }

    /// `tensor<*xT>`.
    pub fn unranked(&self, element: Type<'c>) -> Type<'c> {
        unsafe { Type::from_raw(sys::mlirUnrankedTensorTypeGet(element.to_raw())) }
    }

    pub fn i64_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 64).into()
    }

    pub fn f32_type(&self) -> Type<'c> {
        Type::float32(self.context)
    }

    /// `onnx.Constant {value = dense<...> : tensor<...>}` from raw elements.
    pub fn constant(&self, ty: Type<'c>, elements: &[Attribute<'c>]) -> Result<Value<'c, 'a>, String> {
        let value = DenseElementsAttribute::new(ty, elements).map_err(|e| e.to_string())?;
        self.build_raw("Constant", &[], vec![(self.id("value"), value.into())], &[ty]).map(|mut v| v.remove(0))
    }

    /// A 1-D int64 constant.
    pub fn const_i64s(&self, values: &[i64]) -> Result<Value<'c, 'a>, String> {
        let ty = RankedTensorType::new(&[values.len() as u64], self.i64_type(), None).into();
        let elements: Vec<Attribute> =
            values.iter().map(|v| IntegerAttribute::new(self.i64_type(), *v).into()).collect();
        self.constant(ty, &elements)
    }

    /// A 0-d int64 constant.
    pub fn const_i64_scalar(&self, value: i64) -> Result<Value<'c, 'a>, String> {
        let ty = RankedTensorType::new(&[], self.i64_type(), None).into();
        self.constant(ty, &[IntegerAttribute::new(self.i64_type(), value).into()])
    }

    /// A 0-d constant of element type `element` holding `value`.
    pub fn const_scalar(&self, element: Type<'c>, value: f64) -> Result<Value<'c, 'a>, String> {
        let ty = RankedTensorType::new(&[], element, None).into();
        let attr: Attribute = if is_float(element) {
            FloatAttribute::new(self.context, element, value).into()
        } else {
            IntegerAttribute::new(element, if is_bool(element) { (value != 0.0) as i64 } else { value as i64 }).into()
        };
        self.constant(ty, &[attr])
    }

    /// A 0-d constant with the element type of `like`.
    pub fn const_like(&self, like: Value<'c, '_>, value: f64) -> Result<Value<'c, 'a>, String> {
        self.const_scalar(element_type(like.r#type()).ok_or("not a tensor")?, value)
    }

    /// `onnx.Shape` of a value (1-D int64).
    pub fn shape(&self, value: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let ty = match rank(value.r#type()) {
            Some(r) => RankedTensorType::new(&[r as u64], self.i64_type(), None).into(),
            None => self.unranked(self.i64_type()),
        };
        self.op("Shape", &[value], &[], ty)
    }

    /// An ArrayAttribute of strings (STRINGS attributes).
    pub fn strings(&self, values: &[&str]) -> Attribute<'c> {
        let items: Vec<Attribute> = values.iter().map(|s| StringAttribute::new(self.context, s).into()).collect();
        ArrayAttribute::new(self.context, &items).into()
    }
}

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

impl<'c, 'a> Builder<'c, 'a> {
    /// Casts `value` to `element` unless it already has it.
    pub fn cast_like_type(&self, value: Value<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
        if element_type(value.r#type()) == Some(element) {
            Ok(value)
        } else {
            self.cast(value, element)
        }
    }
}
