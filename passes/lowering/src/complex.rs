//! Complex tensors in the lowering.
//!
//! In the aten dialect a complex tensor keeps its type
//! (`tensor<3x8xcomplex<f32>>`). ONNX operators have no complex element type
//! for compute, so the lowering represents its value as the **real view**:
//! a real tensor of the component type with an extra trailing dim of 2
//! (real, imaginary) — `tensor<3x8x2xf32>`, exactly `torch.view_as_real`
//! and the layout ONNX `DFT` reads and writes. [`real_view_type`] is the
//! mapping; `convert-aten-to-onnx` gives every value replacing a complex aten
//! result that type, retypes complex graph inputs the same way, and the
//! written graph's complex outputs are their real views.
//!
//! Safety: every rule is written for real tensors and would misread the
//! trailing dim (a `sum` would add the real and imaginary parts). A rule
//! therefore runs on an op with a complex operand or result only when it
//! opts in with [`Rule::complex`](super::Rule::complex), which gives the
//! lowering used then; the others are refused with
//! `"<op> on complex tensors is not supported: ..."`.

use super::{builder, Ctx};
use melior::ir::{operation::OperationLike as _, r#type::RankedTensorType, Type, TypeLike, Value, ValueLike};
use mlir_sys as sys;

/// True when `ty` is a tensor of complex elements.
pub fn is_complex_type(ty: Type<'_>) -> bool {
    builder::element_type(ty).is_some_and(|e| unsafe { sys::mlirTypeIsAComplex(e.to_raw()) })
}

/// The component type of a complex tensor type (`f32` for `complex<f32>`).
pub fn component_type(ty: Type<'_>) -> Option<Type<'_>> {
    let element = builder::element_type(ty)?;
    unsafe {
        sys::mlirTypeIsAComplex(element.to_raw())
            .then(|| Type::from_raw(sys::mlirComplexTypeGetElementType(element.to_raw())))
    }
}

/// The ONNX type of a complex tensor type: its real view (component type,
/// one more trailing dim of 2); `None` when `ty` is not complex.
pub fn real_view_type(ty: Type<'_>) -> Option<Type<'_>> {
    let component = component_type(ty)?;
    match builder::rank(ty) {
        None => Some(unsafe { Type::from_raw(sys::mlirUnrankedTensorTypeGet(component.to_raw())) }),
        Some(r) => {
            let mut shape: Vec<i64> =
                (0..r).map(|i| unsafe { sys::mlirShapedTypeGetDimSize(ty.to_raw(), i as isize) }).collect();
            shape.push(2);
            let shape: Vec<u64> = shape.into_iter().map(|d| d as u64).collect();
            Some(RankedTensorType::new(&shape, component, None).into())
        }
    }
}

/// The error of a rule without a complex lowering on complex tensors.
pub fn unsupported(target: &str) -> String {
    format!(
        "{target} on complex tensors is not supported: its lowering rule is written for real tensors (complex \
         tensors are lowered as real tensors with a trailing dim of 2, which the rule would misread)"
    )
}

impl<'c, 'a> Ctx<'c, 'a> {
    /// True when an operand or result of the op is a complex tensor.
    pub fn has_complex(&self) -> bool {
        self.aten_operand_types.iter().any(|t| is_complex_type(*t))
            || (0..self.args.op.result_count()).any(|i| self.args.result_type(i).is_ok_and(|t| is_complex_type(t)))
    }

    /// The aten type (as imported) of the tensor argument `name`.
    pub fn aten_type(&self, name: &str) -> Result<Type<'c>, String> {
        let range = self.args.operand_range(name)?.ok_or_else(|| format!("argument '{name}' is not a tensor"))?;
        if range.len() != 1 {
            return Err(format!("argument '{name}' is not one tensor"));
        }
        self.aten_operand_types.get(range.start).copied().ok_or_else(|| format!("no type for argument '{name}'"))
    }

    /// True when the tensor argument `name` is complex (false for numbers
    /// and absent arguments).
    pub fn is_complex(&self, name: &str) -> bool {
        self.aten_type(name).is_ok_and(is_complex_type)
    }

    /// The rank of the aten (complex or real) tensor argument `name`.
    pub fn aten_rank(&self, name: &str) -> Result<usize, String> {
        builder::rank(self.aten_type(name)?).ok_or_else(|| format!("argument '{name}' has an unknown rank"))
    }

    /// The component type of the complex result `index`.
    pub fn result_component(&self, index: usize) -> Result<Type<'c>, String> {
        component_type(self.result_type(index)?).ok_or_else(|| format!("result {index} is not complex"))
    }

    /// The tensor argument `name` as a complex value in the real view with
    /// components of type `component`: a complex operand cast, a real
    /// operand (or a real Python number) given a zero imaginary part.
    pub fn complex_operand(&self, name: &str, component: Type<'c>) -> Result<Value<'c, 'a>, String> {
        if self.is_complex(name) {
            let z = self.args.tensor(name)?;
            return self.b.cast_like_type(z, component);
        }
        let x = self.tensor_as(name, component)?;
        self.make_complex(x, None)
    }

    /// `[re, im]` along a new trailing dim (`im` zero when `None`).
    pub fn make_complex(&self, re: Value<'c, '_>, im: Option<Value<'c, '_>>) -> Result<Value<'c, 'a>, String> {
        let re = self.unsqueeze(re, &[-1])?;
        let im = match im {
            Some(im) => self.unsqueeze(im, &[-1])?,
            None => {
                // Zeros of re's shape (not re * 0: inf * 0 is NaN).
                let zero = self.b.const_like(re, 0.0)?;
                self.b.onnx().expand(zero, self.b.shape(re)?).like(re)?
            }
        };
        self.b.onnx().concat(&[re, im], -1).like(re)
    }

    /// The real (`part` 0) or imaginary (`part` 1) component of a value in
    /// the real view.
    pub fn complex_part(&self, z: Value<'c, '_>, part: i64) -> Result<Value<'c, 'a>, String> {
        let index = self.b.const_i64_scalar(part)?;
        self.b.onnx().gather(z, index, Some(-1)).like(z)
    }

    /// The real view typed like the complex aten result `index` (for the
    /// value a rule returns).
    pub fn complex_result(&self, z: Value<'c, '_>, index: usize) -> Result<Value<'c, 'a>, String> {
        let component = self.result_component(index)?;
        let element = builder::element_type(z.r#type()).ok_or("not a tensor")?;
        if element == component {
            self.b.onnx().identity(z).like(z)
        } else {
            self.b.cast(z, component)
        }
    }

    /// The static dims of the aten result `index` (complex or real).
    pub fn result_dims(&self, index: usize) -> Result<Vec<i64>, String> {
        builder::dims(self.result_type(index)?)
            .ok_or("the result has an unknown rank")?
            .into_iter()
            .map(|d| d.ok_or_else(|| "complex tensors with dynamic sizes are not supported here".to_string()))
            .collect()
    }
}
