//! Typed access to the arguments of the aten op being lowered, by schema
//! argument name (see `aten_ir` for how arguments are carried).

use crate::{
    aten_ir::{self, Slot},
    ir::{self, attribute_kind, dense_i64_values},
};
use aten2onnx_dialects::aten::OpSchema;
use melior::ir::{attribute::AttributeLike, Attribute, OperationRef, Type, Value, ValueLike};
use mlir_sys as sys;

/// A static or computed integer (a `SymInt`): computed ones are onnx values
/// of type `tensor<1xi64>` after lowering.
#[derive(Clone, Copy, Debug)]
pub enum IntArg<'c, 'a> {
    Static(i64),
    Dynamic(Value<'c, 'a>),
}

/// A Python number from an attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
            Number::Bool(b) => b as i64 as f64,
        }
    }
}

pub struct Args<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub schema: &'static OpSchema,
    slots: Vec<Slot<'c>>,
}

impl<'c, 'a> Args<'c, 'a> {
    pub fn new(op: OperationRef<'c, 'a>, schema: &'static OpSchema) -> Result<Self, String> {
        let slots = aten_ir::layout(op, schema)?;
        Ok(Args { op, schema, slots })
    }

    fn slot(&self, name: &str) -> Result<&Slot<'c>, String> {
        let index = self
            .schema
            .arguments
            .iter()
            .position(|a| a.name == name)
            .ok_or_else(|| format!("rule bug: {} has no argument '{name}'", self.schema.target_name()))?;
        Ok(&self.slots[index])
    }

    fn operands(&self, name: &str) -> Result<Option<Vec<Value<'c, 'a>>>, String> {
        Ok(match self.slot(name)? {
            Slot::Operands(range) => Some(aten_ir::operands_of(self.op, range)),
            _ => None,
        })
    }

    /// The operand indices of a tensor argument (`None` for an attribute or
    /// an absent argument).
    pub fn operand_range(&self, name: &str) -> Result<Option<std::ops::Range<usize>>, String> {
        Ok(match self.slot(name)? {
            Slot::Operands(range) => Some(range.clone()),
            _ => None,
        })
    }

    fn attribute(&self, name: &str) -> Result<Option<Attribute<'c>>, String> {
        Ok(match self.slot(name)? {
            Slot::Attribute(a) => Some(*a),
            _ => None,
        })
    }

    /// True when the argument is `None`.
    pub fn is_none(&self, name: &str) -> Result<bool, String> {
        Ok(matches!(self.slot(name)?, Slot::Absent))
    }

    /// A tensor operand.
    pub fn tensor(&self, name: &str) -> Result<Value<'c, 'a>, String> {
        match self.operands(name)? {
            Some(values) if values.len() == 1 => Ok(values[0]),
            _ => Err(format!("argument '{name}' must be a tensor value")),
        }
    }

    /// An optional tensor operand.
    pub fn opt_tensor(&self, name: &str) -> Result<Option<Value<'c, 'a>>, String> {
        if self.is_none(name)? {
            Ok(None)
        } else {
            self.tensor(name).map(Some)
        }
    }

    /// The argument is a value computed in the graph (an operand), not a
    /// number the capture recorded: a `Scalar` from `t.item()` or a
    /// symbolic number.
    pub fn is_dynamic(&self, name: &str) -> Result<bool, String> {
        Ok(self.attribute(name)?.is_none() && self.operand_range(name)?.is_some_and(|r| !r.is_empty()))
    }

    /// A tensor argument that the capture may have recorded as a Python
    /// number ("wrapped number").
    pub fn tensor_or_number(&self, name: &str) -> Result<Result<Value<'c, 'a>, Number>, String> {
        match self.attribute(name)? {
            Some(attr) => Ok(Err(number(attr).ok_or_else(|| format!("argument '{name}' is not a number"))?)),
            None => self.tensor(name).map(Ok),
        }
    }

    /// The values of a `Tensor[]` argument.
    pub fn tensors(&self, name: &str) -> Result<Vec<Value<'c, 'a>>, String> {
        Ok(self.operands(name)?.unwrap_or_default())
    }

    /// The elements of a `Tensor?[]` argument (`None` for missing ones).
    pub fn opt_tensors(&self, name: &str) -> Result<Vec<Option<Value<'c, 'a>>>, String> {
        Ok(self
            .tensors(name)?
            .into_iter()
            .map(|v| (ir::value_kind(v.r#type()) != ir::ValueKind::None).then_some(v))
            .collect())
    }

    /// A static int.
    pub fn int(&self, name: &str) -> Result<i64, String> {
        match self.attribute(name)? {
            Some(a) if attribute_kind(a) == "integer" => Ok(unsafe { sys::mlirIntegerAttrGetValueInt(a.to_raw()) }),
            Some(a) if attribute_kind(a) == "bool" => Ok(unsafe { sys::mlirBoolAttrGetValue(a.to_raw()) } as i64),
            _ => Err(format!("argument '{name}' must be a static int")),
        }
    }

    pub fn opt_int(&self, name: &str) -> Result<Option<i64>, String> {
        if self.is_none(name)? {
            Ok(None)
        } else {
            self.int(name).map(Some)
        }
    }

    /// A `SymInt`: static, or a computed value.
    pub fn sym_int(&self, name: &str) -> Result<IntArg<'c, 'a>, String> {
        match self.operands(name)? {
            Some(values) if values.len() == 1 => Ok(int_arg(values[0])),
            _ => self.int(name).map(IntArg::Static),
        }
    }

    pub fn opt_sym_int(&self, name: &str) -> Result<Option<IntArg<'c, 'a>>, String> {
        if self.is_none(name)? {
            Ok(None)
        } else {
            self.sym_int(name).map(Some)
        }
    }

    /// A static int list.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, String> {
        self.attribute(name)?
            .and_then(dense_i64_values)
            .ok_or_else(|| format!("argument '{name}' must be a static int list"))
    }

    /// A `SymInt[]`: static elements, or computed ones.
    pub fn sym_ints(&self, name: &str) -> Result<Vec<IntArg<'c, 'a>>, String> {
        match self.operands(name)? {
            Some(values) => Ok(values.into_iter().map(int_arg).collect()),
            None => Ok(self.ints(name)?.into_iter().map(IntArg::Static).collect()),
        }
    }

    pub fn float(&self, name: &str) -> Result<f64, String> {
        self.attribute(name)?
            .and_then(number)
            .map(Number::as_f64)
            .ok_or_else(|| format!("argument '{name}' must be a static float"))
    }

    /// A static float list (`float[]`); int lists are accepted too.
    pub fn floats(&self, name: &str) -> Result<Vec<f64>, String> {
        let attr = self.attribute(name)?.ok_or_else(|| format!("argument '{name}' must be a static float list"))?;
        let raw = attr.to_raw();
        unsafe {
            if sys::mlirAttributeIsADenseF64Array(raw) {
                let n = sys::mlirDenseArrayGetNumElements(raw);
                return Ok((0..n).map(|i| sys::mlirDenseF64ArrayGetElement(raw, i)).collect());
            }
        }
        dense_i64_values(attr)
            .map(|v| v.into_iter().map(|i| i as f64).collect())
            .ok_or_else(|| format!("argument '{name}' must be a static float list"))
    }

    pub fn opt_float(&self, name: &str) -> Result<Option<f64>, String> {
        if self.is_none(name)? {
            Ok(None)
        } else {
            self.float(name).map(Some)
        }
    }

    pub fn bool(&self, name: &str) -> Result<bool, String> {
        match self.attribute(name)? {
            Some(a) if attribute_kind(a) == "bool" => Ok(unsafe { sys::mlirBoolAttrGetValue(a.to_raw()) }),
            Some(a) if attribute_kind(a) == "integer" => {
                Ok(unsafe { sys::mlirIntegerAttrGetValueInt(a.to_raw()) } != 0)
            }
            _ => Err(format!("argument '{name}' must be a static bool")),
        }
    }

    /// A Python number (`Scalar`).
    pub fn number(&self, name: &str) -> Result<Number, String> {
        self.attribute(name)?.and_then(number).ok_or_else(|| format!("argument '{name}' must be a static number"))
    }

    pub fn string(&self, name: &str) -> Result<String, String> {
        self.attribute(name)?.and_then(ir::string_value).ok_or_else(|| format!("argument '{name}' must be a string"))
    }

    /// A `ScalarType` argument (a type attribute), if given.
    pub fn dtype(&self, name: &str) -> Result<Option<Type<'c>>, String> {
        match self.attribute(name)? {
            Some(a) if unsafe { sys::mlirAttributeIsAType(a.to_raw()) } => {
                Ok(Some(unsafe { Type::from_raw(sys::mlirTypeAttrGetValue(a.to_raw())) }))
            }
            Some(_) => Err(format!("argument '{name}' must be a dtype")),
            None => Ok(None),
        }
    }

    /// The type of result `index` of the aten op.
    pub fn result_type(&self, index: usize) -> Result<Type<'c>, String> {
        Ok(ir::result_at(self.op, index).ok_or_else(|| format!("the op has no result {index}"))?.r#type())
    }
}

/// The number held by an integer, float or bool attribute.
pub fn number(attr: Attribute<'_>) -> Option<Number> {
    let raw = attr.to_raw();
    unsafe {
        match attribute_kind(attr) {
            "bool" => Some(Number::Bool(sys::mlirBoolAttrGetValue(raw))),
            "integer" => Some(Number::Int(sys::mlirIntegerAttrGetValueInt(raw))),
            "float" => Some(Number::Float(sys::mlirFloatAttrGetValueDouble(raw))),
            _ => None,
        }
    }
}

/// A lowered symbolic int: static when it is a one-element `onnx.Constant`
/// (a static element of a list that also held symbolic ones).
fn int_arg<'c, 'a>(value: Value<'c, 'a>) -> IntArg<'c, 'a> {
    unsafe {
        if sys::mlirValueIsAOpResult(value.to_raw()) {
            let owner = sys::mlirOpResultGetOwner(value.to_raw());
            let name = melior::ir::OperationRef::from_raw(owner);
            if ir::op_name(name) == "onnx.Constant" {
                let attr = sys::mlirOperationGetAttributeByName(
                    owner,
                    sys::MlirStringRef { data: "value".as_ptr() as *const _, length: 5 },
                );
                if !attr.ptr.is_null()
                    && sys::mlirAttributeIsADenseIntElements(attr)
                    && sys::mlirElementsAttrGetNumElements(attr) == 1
                {
                    return IntArg::Static(sys::mlirDenseElementsAttrGetInt64Value(attr, 0));
                }
            }
        }
    }
    IntArg::Dynamic(value)
}
