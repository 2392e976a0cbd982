//! Translations of custom ops (`torch.library` ops outside ATen) given as
//! ONNX functions: `aten-translate --custom-ops LIB.onnx`, and
//! `custom_translation_table=` in `aten2onnx.export` (which writes such a
//! library). See docs/custom_ops.md.
//!
//! A library is an ONNX model whose `functions` translate the ops: the op
//! `mylib::my_op.<overload>` is translated by the function named
//! `my_op.<overload>`, else `my_op`, in domain `mylib`. At import, each call
//! of the op becomes `aten.custom.mylib::my_op.<overload>` whose region holds
//! the function instantiated for that call, in the onnx dialect: its inputs
//! are the call's tensor arguments (by name when every function input names
//! an argument of the op, else in order), its attributes the call's static
//! arguments of the same names (an argument the function does not declare is
//! an error: dropping it would silently change the result). The lowering
//! inlines the region, so shape inference and the optimizer see through the
//! function. A function written at an older opset than the conversion's is
//! upgraded (`onnx_import::upgrade`); a newer one is refused.

use crate::{onnx_import, Error};
use onnx_protobuf::{
    attribute_proto::AttributeType, tensor_shape_proto::dimension, type_proto, AttributeProto, FunctionProto,
    GraphProto, Message, ModelProto, NodeProto, OperatorSetIdProto, TensorShapeProto, TypeProto, ValueInfoProto,
};
use std::collections::HashSet;

/// A loaded translation library.
pub struct CustomOps {
    /// Where it came from, for messages.
    pub label: String,
    functions: Vec<FunctionProto>,
}

impl std::fmt::Debug for CustomOps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.functions.iter().map(|f| format!("{}::{}", f.domain, f.name)).collect();
        f.debug_struct("CustomOps").field("label", &self.label).field("functions", &names).finish()
    }
}

/// A static argument of a call, as the function's attribute takes it.
#[derive(Clone, Debug, PartialEq)]
pub enum StaticArg {
    Int(i64),
    Float(f64),
    Bool(bool),
    String(String),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
}

/// One argument of a call of a custom op.
#[derive(Clone, Debug)]
pub enum CallArg {
    /// A tensor (its ONNX type: element type code and dims, `None` for a
    /// dynamic one).
    Tensor {
        elem: i32,
        dims: Vec<Option<i64>>,
    },
    /// An optional tensor that is `None`.
    NoTensor,
    Static(StaticArg),
    /// `None` for a non-tensor argument: the function's default applies.
    Absent,
}

impl CustomOps {
    /// Loads `path` (an ONNX model; its graph, if any, is ignored).
    pub fn load(path: &str) -> Result<CustomOps, Error> {
        let fail = |message: &str| Error::Import { path: path.to_string(), message: message.to_string() };
        let meta = std::fs::metadata(path).map_err(|source| Error::Io { path: path.into(), source })?;
        // A device or a pipe (`/dev/zero`) would be read without end.
        if !meta.is_file() {
            return Err(fail("not a regular file; --custom-ops takes an ONNX model file"));
        }
        if meta.len() > i32::MAX as u64 {
            return Err(fail("larger than 2 GiB, past what a protobuf ONNX model can hold"));
        }
        let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.into(), source })?;
        Self::from_bytes(&bytes, path)
    }

    pub fn from_bytes(bytes: &[u8], label: &str) -> Result<CustomOps, Error> {
        let fail = |message: String| Error::Import { path: label.to_string(), message };
        let model = ModelProto::parse_from_bytes(bytes)
            .map_err(|e| fail(format!("not an ONNX model (protobuf): {e}; --custom-ops takes a model whose functions translate the custom ops (docs/custom_ops.md)")))?;
        if model.functions.is_empty() {
            return Err(fail(
                "the model has no functions; --custom-ops takes a model whose functions translate the custom ops \
                 (function `my_op` in domain `mylib` for `mylib::my_op`, docs/custom_ops.md)"
                    .into(),
            ));
        }
        let mut seen = HashSet::new();
        for f in &model.functions {
            if f.name.is_empty() {
                return Err(fail("a function has no name".into()));
            }
            if !seen.insert((f.domain.clone(), f.name.clone())) {
                return Err(fail(format!("function `{}` of domain `{}` is defined twice", f.name, f.domain)));
            }
        }
        Ok(CustomOps { label: label.to_string(), functions: model.functions })
    }

    /// The function translating `namespace::op.overload`.
    pub fn find(&self, namespace: &str, op: &str, overload: &str) -> Option<&FunctionProto> {
        let exact = format!("{op}.{overload}");
        let in_domain = |name: &str| self.functions.iter().find(|f| f.domain == namespace && f.name == name);
        in_domain(&exact).or_else(|| in_domain(op))
    }

    /// The onnx-dialect module text of `function` applied to one call:
    /// `func.func @forward` over the call's tensor arguments, returning
    /// `outputs` values, at opset `opset` of the default domain.
    pub fn instantiate(
        &self,
        function: &FunctionProto,
        args: &[(String, CallArg)],
        outputs: usize,
        opset: u32,
    ) -> Result<String, String> {
        let key = format!("{}::{}", function.domain, function.name);
        if function.output.len() < outputs {
            return Err(format!(
                "its translation `{key}` has {} output(s); the op returns {outputs}",
                function.output.len()
            ));
        }
        // Inputs: by name when the function's inputs all name arguments,
        // else the tensor arguments in order.
        let tensors: Vec<&(String, CallArg)> =
            args.iter().filter(|(_, a)| matches!(a, CallArg::Tensor { .. } | CallArg::NoTensor)).collect();
        let by_name = function.input.iter().all(|name| args.iter().any(|(n, _)| n == name));
        let mut graph = GraphProto { name: key.clone(), ..Default::default() };
        let mut call = NodeProto {
            op_type: function.name.clone(),
            domain: function.domain.clone(),
            name: key.clone(),
            ..Default::default()
        };
        let mut used = HashSet::new();
        for (k, formal) in function.input.iter().enumerate() {
            let actual = if by_name { args.iter().find(|(n, _)| n == formal) } else { tensors.get(k).copied() };
            match actual {
                Some((name, CallArg::Tensor { elem, dims })) => {
                    used.insert(name.clone());
                    let input = format!("in_{k}");
                    graph.input.push(ValueInfoProto {
                        name: input.clone(),
                        type_: Some(tensor_type(*elem, dims)).into(),
                        ..Default::default()
                    });
                    call.input.push(input);
                }
                Some((name, CallArg::NoTensor | CallArg::Absent)) => {
                    used.insert(name.clone());
                    call.input.push(String::new());
                }
                Some((name, _)) => {
                    return Err(format!(
                        "its translation `{key}` takes `{formal}` as an input, but argument `{name}` is not a tensor \
                         (declare it as an attribute of the function)"
                    ))
                }
                None if by_name => unreachable!("checked above"),
                None => call.input.push(String::new()),
            }
        }
        if !by_name && tensors.len() > function.input.len() {
            return Err(format!(
                "its translation `{key}` has {} input(s) but the call passes {} tensor(s)",
                function.input.len(),
                tensors.len()
            ));
        }
        let declared: Vec<&str> = function
            .attribute
            .iter()
            .map(String::as_str)
            .chain(function.attribute_proto.iter().map(|a| a.name.as_str()))
            .collect();
        for (name, arg) in args {
            match arg {
                CallArg::Static(value) => {
                    if !declared.contains(&name.as_str()) {
                        return Err(format!(
                            "argument `{name}` = {value:?} has no attribute of that name in its translation `{key}` \
                             (attributes: {}); ignoring it could change the result",
                            if declared.is_empty() { "none".to_string() } else { declared.join(", ") }
                        ));
                    }
                    call.attribute.push(attribute(name, value));
                }
                CallArg::Tensor { .. } | CallArg::NoTensor if !used.contains(name) => {
                    if by_name {
                        return Err(format!(
                            "tensor argument `{name}` is not an input of its translation `{key}` (inputs: {})",
                            function.input.join(", ")
                        ));
                    }
                }
                _ => {}
            }
        }
        for j in 0..outputs {
            let output = format!("out_{j}");
            call.output.push(output.clone());
            graph.output.push(ValueInfoProto { name: output, ..Default::default() });
        }
        graph.node.push(call);

        // The function's opset of the default domain (upgraded to `opset`).
        let own = function
            .opset_import
            .iter()
            .find(|i| i.domain.is_empty() || i.domain == "ai.onnx")
            .map(|i| i.version)
            .unwrap_or(i64::from(opset));
        if own > i64::from(opset) {
            return Err(format!(
                "its translation `{key}` is written at opset {own} of the default domain, newer than the \
                 conversion's {opset} (convert with --opset {own} or more)"
            ));
        }
        let mut opset_import = vec![OperatorSetIdProto { domain: String::new(), version: own, ..Default::default() }];
        for import in &function.opset_import {
            if !(import.domain.is_empty() || import.domain == "ai.onnx")
                && !opset_import.iter().any(|i| i.domain == import.domain)
            {
                opset_import.push(import.clone());
            }
        }
        for f in &self.functions {
            if !opset_import.iter().any(|i| i.domain == f.domain) {
                opset_import.push(OperatorSetIdProto { domain: f.domain.clone(), version: 1, ..Default::default() });
            }
        }
        // Every function of the library comes along (translations may call
        // helpers), each seeing the same default-domain version.
        let functions = self
            .functions
            .iter()
            .map(|f| {
                let mut f = f.clone();
                for import in &mut f.opset_import {
                    if import.domain.is_empty() || import.domain == "ai.onnx" {
                        import.version = own;
                    }
                }
                f
            })
            .collect();
        let mut model =
            ModelProto { ir_version: 10, opset_import, graph: Some(graph).into(), functions, ..Default::default() };
        if own < i64::from(opset) {
            onnx_import::upgrade::upgrade(&mut model, opset)
                .map_err(|e| format!("its translation `{key}` cannot be upgraded from opset {own} to {opset}: {e}"))?;
        }
        onnx_import::function_call_text(&model, &self.label)
            .map_err(|e| format!("its translation `{key}` (from {}): {e}", self.label))
    }
}

fn tensor_type(elem: i32, dims: &[Option<i64>]) -> TypeProto {
    let shape = TensorShapeProto {
        dim: dims
            .iter()
            .map(|d| onnx_protobuf::tensor_shape_proto::Dimension {
                value: d.map(dimension::Value::DimValue),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    TypeProto {
        value: Some(type_proto::Value::TensorType(type_proto::Tensor {
            elem_type: elem,
            shape: Some(shape).into(),
            ..Default::default()
        })),
        ..Default::default()
    }
}

fn attribute(name: &str, value: &StaticArg) -> AttributeProto {
    let mut a = AttributeProto { name: name.to_string(), ..Default::default() };
    match value {
        StaticArg::Int(i) => {
            a.i = *i;
            a.type_ = AttributeType::INT.into();
        }
        StaticArg::Bool(b) => {
            a.i = i64::from(*b);
            a.type_ = AttributeType::INT.into();
        }
        StaticArg::Float(f) => {
            a.f = *f as f32;
            a.type_ = AttributeType::FLOAT.into();
        }
        StaticArg::String(s) => {
            a.s = s.as_bytes().to_vec();
            a.type_ = AttributeType::STRING.into();
        }
        StaticArg::Ints(v) => {
            a.ints = v.clone();
            a.type_ = AttributeType::INTS.into();
        }
        StaticArg::Floats(v) => {
            a.floats = v.iter().map(|&f| f as f32).collect();
            a.type_ = AttributeType::FLOATS.into();
        }
    }
    a
}
