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

    /// `onnx.none`: an optional input left out.
    pub fn none(&self) -> Result<Value<'c, 'a>, String> {
        let op = OperationBuilder::new(onnx_ir::NONE_OP, self.location)
            .add_results(&[Type::none(self.context)])
            .build()
            .map_err(|e| e.to_string())?;
        crate::ir::result_at(self.block.insert_operation_before(self.before, op), 0)
            .ok_or_else(|| "onnx.none without a result".to_string())
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
        self.onnx().cast(value, None, None, to).typed(ty)
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
        self.onnx().shape(value, None, None).typed(ty)
    }

    /// An ArrayAttribute of strings (STRINGS attributes).
    pub fn strings(&self, values: &[&str]) -> Attribute<'c> {
        let items: Vec<Attribute> = values.iter().map(|s| StringAttribute::new(self.context, s).into()).collect();
        ArrayAttribute::new(self.context, &items).into()
    }
}

pub use aten2onnx_ir::types::*;

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
