//! `aten2onnx-lowering`: the aten -> onnx lowering rules used by
//! `convert-aten-to-onnx`, and the aten decompositions of `aten-decompose`
//! ([`decompositions`]). Depends on `aten2onnx-ir` only; the passes crate
//! re-exports it as `aten2onnx_passes::lowering`.
//!
//! A [`Rule`] lowers one ATen overload. Rules live in `rules/<family>/<op>.rs`, named
//! after the ATen op (the rule of `aten.gelu.default` is in `rules/activation/gelu.rs`),
//! and found by `passes/lowering/build.rs` (a file is a rule file). A simple 1:1 rule is one line
//! (`Rule::unary("aten.relu.default", "Relu")`); anything else is a plain
//! Rust function over [`Ctx`]: typed arguments ([`Args`]) and a [`Builder`]
//! that creates onnx ops before the aten op. See docs/lowering.md.

pub mod args;
pub mod builder;
pub mod complex;
pub mod decompositions;
pub mod inexpressible;
// Generated (tools/gen/gen_registries.py): kept as written, so that the
// freshness test can compare it.
#[rustfmt::skip]
pub mod onnx_ops;
pub mod rules;

// The shared layer, under the names the rules use (`crate::ir`, ...).
pub use aten2onnx_ir::{aten_ir, diag, ir, onnx_ir, shape, types};

pub use args::{Args, IntArg, Number};
pub use builder::{Attr, Builder};

use melior::ir::{Type, Value, ValueLike};

/// The opsets the lowering can target (`--opset`).
pub const MIN_OPSET: u32 = 17;
pub const MAX_OPSET: u32 = 28;

/// An ONNX reduction, by kind: [`Ctx::reduce`] builds it with the typed
/// builder (`reduce_sum`, `reduce_max`, ...), axes as an input or an
/// attribute as the opset wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
    L1,
    L2,
    LogSum,
    LogSumExp,
    SumSquare,
}

/// What a rule gets: the op's arguments, a builder, and the opset.
pub struct Ctx<'c, 'a> {
    pub args: Args<'c, 'a>,
    pub b: Builder<'c, 'a>,
    /// The aten types of the op's operands as imported (before the ops
    /// producing them were lowered): a complex operand is
    /// `tensor<...xcomplex<f32>>` here while its ONNX value is the real view
    /// (see [`complex`]).
    pub aten_operand_types: Vec<Type<'c>>,
}

impl<'c, 'a> Ctx<'c, 'a> {
    /// True when result `index` of the aten op has uses (a rule may skip or
    /// refuse a result nobody reads).
    pub fn result_used(&self, index: usize) -> Result<bool, String> {
        let r = self.args.op.result(index).map_err(|e| e.to_string())?;
        Ok(crate::ir::has_uses(r.into()))
    }

    /// The type of result `index` of the aten op (shape and dtype torch inferred).
    pub fn result_type(&self, index: usize) -> Result<Type<'c>, String> {
        self.args.result_type(index)
    }

    /// The element type of result `index`.
    pub fn result_element(&self, index: usize) -> Result<Type<'c>, String> {
        builder::element_type(self.result_type(index)?).ok_or_else(|| "result is not a tensor".to_string())
    }

    /// A one-result onnx op typed like aten result 0.
    pub fn op(&self, op_type: &str, inputs: &[Value<'c, '_>], attrs: &[(&str, Attr)]) -> Result<Value<'c, 'a>, String> {
        self.b.op(op_type, inputs, attrs, self.result_type(0)?)
    }

    /// A tensor argument that may be a Python number, as a value with the
    /// element type `element`.
    pub fn tensor_as(&self, name: &str, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
        match self.args.tensor_or_number(name)? {
            // A symbolic number for a `Scalar` argument (`i < x.shape[0]` is
            // `lt.Scalar(i, sym_size)`) is lowered as a 1-element tensor;
            // the number is 0-d, so that it does not add a dim by broadcasting.
            Ok(value) if self.is_scalar_argument(name) && builder::rank(value.r#type()) == Some(1) => {
                let squeezed = self.squeeze(value, &[0])?;
                self.b.cast_like_type(squeezed, element)
            }
            Ok(value) => {
                if builder::element_type(value.r#type()) == Some(element) {
                    Ok(value)
                } else {
                    self.b.cast(value, element)
                }
            }
            Err(number) => self.b.const_scalar(element, number.as_f64()),
        }
    }

    /// True when the schema argument `name` is a number (`Scalar`, `int`,
    /// `float`, ...), not a tensor.
    fn is_scalar_argument(&self, name: &str) -> bool {
        self.args.schema.arguments.iter().find(|a| a.name == name).is_some_and(|a| {
            matches!(
                a.ty.trim_end_matches('?'),
                "Scalar" | "int" | "SymInt" | "float" | "SymFloat" | "bool" | "SymBool"
            )
        })
    }

    /// A `SymInt` as a 1-D int64 tensor of one element.
    pub fn int_tensor(&self, value: IntArg<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        match value {
            IntArg::Static(v) => self.b.const_i64s(&[v]),
            IntArg::Dynamic(v) => Ok(v),
        }
    }

    /// A `SymInt[]` as one 1-D int64 tensor (a constant when all static).
    pub fn int_list_tensor(&self, values: &[IntArg<'c, 'a>]) -> Result<Value<'c, 'a>, String> {
        let statics: Option<Vec<i64>> =
            values.iter().map(|v| if let IntArg::Static(s) = v { Some(*s) } else { None }).collect();
        if let Some(statics) = statics {
            return self.b.const_i64s(&statics);
        }
        let parts: Vec<Value> = values.iter().map(|v| self.int_tensor(*v)).collect::<Result<_, _>>()?;
        let ty = melior::ir::r#type::RankedTensorType::new(&[values.len() as u64], self.b.i64_type(), None).into();
        self.b.onnx().concat(&parts, 0).typed(ty)
    }
}

/// How a rule lowers.
#[derive(Clone, Copy)]
pub enum Lower {
    /// `onnx.<op>(self)` typed like the result.
    Unary(&'static str),
    /// `onnx.<op>(self, other)`, both cast to the result's element type
    /// (torch's type promotion already decided it).
    Binary(&'static str),
    /// Plain Rust.
    Custom(for<'c, 'a> fn(&Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>),
}

/// The lowering of one ATen overload.
#[derive(Clone, Copy)]
pub struct Rule {
    /// The MLIR op name: `aten.<op>.<overload>`.
    pub target: &'static str,
    /// First and last ONNX opset the rule supports.
    pub opsets: (u32, u32),
    pub lower: Lower,
    /// Argument sets the differential tests run (libtorch vs onnxruntime),
    /// in the sample language of docs/lowering.md, e.g.
    /// `"self: T[2,3]; other: T[3]; alpha: 2"`. `T` is each of `dtypes`.
    /// Unary and binary rules get broadcast, size-1, zero-size and 0-d
    /// samples when they declare none.
    pub samples: &'static [&'static str],
    /// Element types the rule claims (default `["f32"]`).
    pub dtypes: &'static [&'static str],
    /// Samples the rule must refuse, with a piece of the expected error.
    pub refuses: &'static [(&'static str, &'static str)],
    /// The lowering used when an operand or result of the op is a complex
    /// tensor (see [`complex`]): rules without one are refused on complex
    /// tensors, since their lowering does not know the trailing dim of 2.
    pub complex: Option<LowerFn>,
    /// Samples with complex tensors (`C[2,3]`), which the differential test
    /// runs with `C` = complex64 (`T` = float32) and complex128 (`T` =
    /// float64), comparing complex outputs through `view_as_real`.
    pub complex_samples: &'static [&'static str],
}

/// A rule's lowering function.
pub type LowerFn = for<'c, 'a> fn(&Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>;

impl Rule {
    const fn new(target: &'static str, lower: Lower) -> Rule {
        Rule {
            target,
            opsets: (MIN_OPSET, MAX_OPSET),
            lower,
            samples: &[],
            dtypes: &["f32"],
            refuses: &[],
            complex: None,
            complex_samples: &[],
        }
    }

    pub const fn unary(target: &'static str, onnx: &'static str) -> Rule {
        Rule::new(target, Lower::Unary(onnx))
    }

    pub const fn binary(target: &'static str, onnx: &'static str) -> Rule {
        Rule::new(target, Lower::Binary(onnx))
    }

    pub const fn custom(
        target: &'static str,
        lower: for<'c, 'a> fn(&Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String>,
    ) -> Rule {
        Rule::new(target, Lower::Custom(lower))
    }

    /// Declares the differential-test samples.
    pub const fn samples(mut self, samples: &'static [&'static str]) -> Rule {
        self.samples = samples;
        self
    }

    /// Declares the element types the rule supports.
    pub const fn dtypes(mut self, dtypes: &'static [&'static str]) -> Rule {
        self.dtypes = dtypes;
        self
    }

    /// Declares samples the rule refuses (with a piece of the error).
    pub const fn refuses(mut self, refuses: &'static [(&'static str, &'static str)]) -> Rule {
        self.refuses = refuses;
        self
    }

    /// Opts the rule in for complex tensors: `lower` runs instead of the
    /// rule's own lowering when an operand or result is complex (values in
    /// the real view, see [`complex`]).
    pub const fn complex(mut self, lower: LowerFn) -> Rule {
        self.complex = Some(lower);
        self
    }

    /// Declares samples with complex tensors (`C[...]`, see `complex_samples`).
    pub const fn complex_samples(mut self, samples: &'static [&'static str]) -> Rule {
        self.complex_samples = samples;
        self
    }

    /// Restricts the opsets (e.g. an op first defined in opset 20).
    pub const fn opsets(mut self, first: u32, last: u32) -> Rule {
        self.opsets = (first, last);
        self
    }

    pub fn supports(&self, opset: u32) -> bool {
        (self.opsets.0..=self.opsets.1).contains(&opset)
    }

    /// Runs the rule.
    pub fn apply<'c, 'a>(&self, ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
        if ctx.has_complex() {
            return match self.complex {
                Some(f) => f(ctx),
                None => Err(complex::unsupported(self.target)),
            };
        }
        match self.lower {
            Lower::Unary(onnx) => {
                // Integer inputs of float ops (sin of an int tensor) promote.
                let x = ctx.tensor_as("self", ctx.result_element(0)?)?;
                Ok(vec![ctx.op(onnx, &[x], &[])?])
            }
            Lower::Binary(onnx) => {
                let element = ctx.result_element(0)?;
                let lhs = ctx.tensor_as("self", element)?;
                let rhs = ctx.tensor_as("other", element)?;
                Ok(vec![ctx.op(onnx, &[lhs, rhs], &[])?])
            }
            Lower::Custom(f) => f(ctx),
        }
    }
}

/// The rule for an op name, if any.
pub fn rule(target: &str) -> Option<&'static Rule> {
    // Indexed once: a linear scan over every rule per op (twice per op in
    // convert-aten-to-onnx, once in aten-decompose) was 5% of a conversion.
    // The first rule of a target wins, as with `find`.
    static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static Rule>> =
        std::sync::OnceLock::new();
    INDEX
        .get_or_init(|| {
            let mut index = std::collections::HashMap::new();
            for r in all_rules() {
                index.entry(r.target).or_insert(r);
            }
            index
        })
        .get(target)
        .copied()
}

/// The source file of the rule for an op name (`passes/lowering/src/rules/activation/gelu.rs`).
pub fn rule_file(target: &str) -> Option<String> {
    rules::ALL
        .iter()
        .find(|(_, group)| group.iter().any(|r| r.target == target))
        .map(|(file, _)| format!("passes/lowering/src/rules/{file}"))
}

/// The first sentence of the documentation of the file holding the rule
/// for `target` (`aten-opt --list-rules`).
pub fn rule_summary(target: &str) -> Option<&'static str> {
    let (file, _) = rules::ALL.iter().find(|(_, group)| group.iter().any(|r| r.target == target))?;
    rules::SUMMARIES.iter().find(|(f, _)| f == file).map(|(_, s)| *s)
}

/// Every rule, for docs and the differential tests.
pub fn all_rules() -> impl Iterator<Item = &'static Rule> {
    rules::ALL.iter().flat_map(|(_, group)| group.iter())
}

/// Helpers shared by rules.
impl<'c, 'a> Ctx<'c, 'a> {
    /// The rank of a value's (ranked) tensor type.
    pub fn rank(&self, value: Value<'c, '_>) -> Result<usize, String> {
        builder::rank(value.r#type()).ok_or_else(|| "operand has an unknown rank".to_string())
    }

    /// `dim` made non-negative for a tensor of rank `rank`.
    pub fn norm_dim(&self, dim: i64, rank: usize) -> i64 {
        if dim < 0 {
            dim + rank as i64
        } else {
            dim
        }
    }

    /// `dim` checked against a tensor of rank `rank` and made non-negative,
    /// like torch's `maybe_wrap_dim`: valid dims are `-rank..rank`, and a 0-d
    /// tensor accepts `0` and `-1` (both give 0). Out of range is an error.
    pub fn dim(&self, dim: i64, rank: usize) -> Result<usize, String> {
        let r = rank.max(1) as i64;
        if dim < -r || dim >= r {
            return Err(format!(
                "dimension {dim} out of range for a tensor of rank {rank} (expected {}..{})",
                -r,
                r - 1
            ));
        }
        Ok(if dim < 0 { dim + r } else { dim } as usize)
    }

    /// A reduction over `axes` (`None` = all axes): axes are an input from
    /// opset 18 (13 for ReduceSum), an attribute before.
    pub fn reduce(
        &self,
        op_type: Reduction,
        x: Value<'c, '_>,
        axes: Option<&[i64]>,
        keepdims: bool,
        result: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        // ONNX ReduceMin/ReduceMax have no 16-bit integer types: computed in
        // int32 (exact for a minimum or maximum) and cast back.
        let element = builder::element_type(x.r#type());
        let width = element.and_then(|e| melior::ir::r#type::IntegerType::try_from(e).ok()).map(|t| t.width());
        let back = || builder::element_type(result).or(element).ok_or("reduction of a non-tensor");
        let narrow = matches!(op_type, crate::Reduction::Min | crate::Reduction::Max)
            && element.is_some_and(|e| melior::ir::r#type::IntegerType::try_from(e).is_ok_and(|t| t.width() == 16));
        if narrow {
            let i32_t: Type<'c> = melior::ir::r#type::IntegerType::new(self.b.context, 32).into();
            let wide = self.b.cast(x, i32_t)?;
            let wide_result = builder::with_element_type(result, i32_t).unwrap_or_else(|| self.b.unranked(i32_t));
            let reduced = self.reduce(op_type, wide, axes, keepdims, wide_result)?;
            return self.b.cast(reduced, back()?);
        }
        let i64_t = self.b.i64_type();
        let wide_result = || builder::with_element_type(result, i64_t).unwrap_or_else(|| self.b.unranked(i64_t));
        // ONNX ReduceSum / ReduceProd have no bool, 8- or 16-bit integer
        // types (torch's `x.sum(dtype=torch.int16)`): computed in int64 and
        // cast back (Cast wraps around), torch's value: a sum or product
        // modulo 2^n does not depend on the width it is computed in, and
        // bool sums / products are any / all. (onnxruntime 1.32's integer
        // ReduceSum / ReduceProd are exact only while the partial results
        // stay below 2^53 in magnitude, which sums of values below 2^16 do,
        // and saturate on overflow: the prod rules multiply instead.)
        if matches!(op_type, crate::Reduction::Sum | crate::Reduction::Prod) && matches!(width, Some(1 | 8 | 16)) {
            let wide = self.b.cast(x, i64_t)?;
            let reduced = self.reduce(op_type, wide, axes, keepdims, wide_result())?;
            return self.b.cast(reduced, back()?);
        }
        // int32 sums wrap around in torch where onnxruntime's saturate (and
        // lose exactness beyond 2^53 in int64): each value is split into 16-bit
        // halves, `x = 65536 * hi + lo` (`lo` in [0, 65536)), whose sums in
        // int64 are exact, recombined in int64 and cast back (modulo 2^32).
        if op_type == crate::Reduction::Sum && width == Some(32) {
            let wide = self.b.cast(x, i64_t)?;
            let m = self.b.const_scalar(i64_t, 65536.0)?;
            let lo = self.b.onnx().mod_(wide, m, Some(0)).like(wide)?;
            let high_part = self.b.onnx().sub(wide, lo).like(wide)?;
            let hi = self.b.onnx().div(high_part, m).like(wide)?;
            let lo = self.reduce(op_type, lo, axes, keepdims, wide_result())?;
            let hi = self.reduce(op_type, hi, axes, keepdims, wide_result())?;
            let hi = self.b.onnx().mul(hi, m).like(hi)?;
            let sum = self.b.onnx().add(hi, lo).like(hi)?;
            return self.b.cast(sum, back()?);
        }
        // Axes are an input from opset 13 for ReduceSum, 18 for the others.
        let axes_as_input = op_type == crate::Reduction::Sum || self.b.opset >= 18;
        let (input, attr) = match axes {
            None => (None, None),
            Some(axes) if axes_as_input => (Some(self.b.const_i64s(axes)?), None),
            Some(axes) => (None, Some(axes)),
        };
        let x: Value<'c, 'a> = unsafe { Value::from_raw(x.to_raw()) };
        let k = Some(keepdims as i64);
        let o = self.b.onnx();
        let node = match op_type {
            Reduction::Sum => o.reduce_sum(x, input, k, None),
            Reduction::Mean => o.reduce_mean(x, input, attr, k, None),
            Reduction::Max => o.reduce_max(x, input, attr, k, None),
            Reduction::Min => o.reduce_min(x, input, attr, k, None),
            Reduction::Prod => o.reduce_prod(x, input, attr, k, None),
            Reduction::L1 => o.reduce_l1(x, input, attr, k, None),
            Reduction::L2 => o.reduce_l2(x, input, attr, k, None),
            Reduction::LogSum => o.reduce_log_sum(x, input, attr, k, None),
            Reduction::LogSumExp => o.reduce_log_sum_exp(x, input, attr, k, None),
            Reduction::SumSquare => o.reduce_sum_square(x, input, attr, k, None),
        };
        node.typed(result)
    }

    /// The element type a rule computes in: float32 for a float16/bfloat16
    /// result, the result's otherwise. torch's CPU kernels compute half ops
    /// in float32 ("opmath") with their Python-number arguments in float32
    /// (lerp's weight, addcmul's value, softplus' beta, ...), so rules using
    /// such numbers compute in this type and finish with `opmath_result`.
    pub fn opmath_element(&self) -> Result<Type<'c>, String> {
        let element = self.result_element(0)?;
        Ok(if builder::is_half_float(element) { self.b.f32_type() } else { element })
    }

    /// `value`, computed in `opmath_element`, as the result's element type.
    pub fn opmath_result(&self, value: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        self.b.cast_like_type(value, self.result_element(0)?)
    }

    /// `onnx.none`, for an optional input left out.
    pub fn none(&self) -> Result<Value<'c, 'a>, String> {
        self.b.none()
    }

    /// `Unsqueeze(x, axes)`.
    pub fn unsqueeze(&self, x: Value<'c, '_>, axes: &[i64]) -> Result<Value<'c, 'a>, String> {
        let axes = self.b.const_i64s(axes)?;
        self.b.onnx().unsqueeze(x, axes).like(x)
    }

    /// `Squeeze(x, axes)`.
    pub fn squeeze(&self, x: Value<'c, '_>, axes: &[i64]) -> Result<Value<'c, 'a>, String> {
        let axes = self.b.const_i64s(axes)?;
        self.b.onnx().squeeze(x, Some(axes)).like(x)
    }

    /// A `SymInt` as a 0-d tensor of element type `element` (for Range,
    /// Gather indices, ...).
    pub fn int_scalar(&self, value: IntArg<'c, 'a>, element: Type<'c>) -> Result<Value<'c, 'a>, String> {
        match value {
            IntArg::Static(v) => self.b.const_scalar(element, v as f64),
            IntArg::Dynamic(v) => {
                let squeezed = self.squeeze(v, &[0])?;
                self.b.cast_like_type(squeezed, element)
            }
        }
    }
}
