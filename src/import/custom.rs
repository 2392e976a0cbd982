//! Calls of custom ops (`torch.library` ops outside ATen): an
//! `aten.custom.<namespace>::<op>.<overload>` op whose region holds the
//! op's translation instantiated for the call (see `crate::custom_ops`), in
//! the onnx dialect, ending in `onnx.yield`.

use super::{args, Importer, Scope};
use crate::custom_ops::{CallArg, StaticArg};
use aten2onnx_passes::{aten_ir, ir, lowering::builder, onnx_ir};
use aten2onnx_pt2::schema::{
    Argument, Node, OptionalTensorArgument, SymBoolArgument, SymFloatArgument, SymIntArgument,
};
use melior::ir::{
    attribute::{ArrayAttribute, StringAttribute},
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, Identifier, Location, Region, RegionLike, Type, Value, ValueLike,
};
use std::collections::HashMap;

type Attrs<'c> = Vec<(Identifier<'c>, Attribute<'c>)>;

impl<'c> Importer<'c, '_> {
    /// Operands (the tensor arguments), attributes (the static ones, and
    /// `arg_names`: every argument's name in call order, for `--verify`'s
    /// libtorch run) and the region of a custom op's call.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn custom_call<'b>(
        &self,
        block: &'b Block<'c>,
        node: &Node,
        scope: &Scope<'c, 'b>,
        constants: &HashMap<String, Argument>,
        location: Location<'c>,
        (namespace, op, overload): (&str, &str, &str),
        result_types: &[Type<'c>],
    ) -> Result<(Vec<Value<'c, 'b>>, Attrs<'c>, Region<'c>), String> {
        let library = self.custom_ops.ok_or("no custom-op translations were given (bug: checked before import)")?;
        if result_types.is_empty() {
            // Nothing to translate into: such an op writes its arguments in
            // place (`mutates_args`) or only has side effects, and dropping
            // the write would silently change what later ops read.
            return Err(format!(
                "custom op '{namespace}::{op}.{overload}' returns nothing: it writes its arguments in place or only \
                 has side effects, which a translation (a function of its inputs) cannot express; make it return \
                 the new value instead"
            ));
        }
        let function = library.find(namespace, op, overload).ok_or_else(|| {
            format!("custom op '{namespace}::{op}.{overload}' has no translation in {}", library.label)
        })?;
        let mut operands = Vec::new();
        let mut attributes: Attrs<'c> = Vec::new();
        let mut names = Vec::new();
        let mut call_args = Vec::new();
        let mut operand_names: Vec<Attribute<'c>> = Vec::new();
        for (index, input) in node.inputs.iter().enumerate() {
            let name = if input.name.is_empty() { format!("arg{index}") } else { input.name.clone() };
            names.push(StringAttribute::new(self.context, &name).into());
            // A constant input of the signature stands for its value.
            let resolved = match &input.arg {
                Argument::AsTensor(t) => constants.get(&t.name).unwrap_or(&input.arg),
                other => other,
            };
            let arg = match resolved {
                Argument::AsTensor(_) | Argument::AsOptionalTensor(OptionalTensorArgument::AsTensor(_)) => {
                    let values = args::dynamic_values(self, block, resolved, scope, constants, location)?
                        .ok_or_else(|| format!("argument `{name}`: a tensor without a value"))?;
                    let value = values[0];
                    let ty = value.r#type();
                    let elem = builder::element_type(ty).and_then(onnx_ir::data_type_code).ok_or_else(|| {
                        format!("argument `{name}` has type {ty}, which ONNX has no element type for")
                    })?;
                    let dims = builder::dims(ty).ok_or_else(|| format!("argument `{name}` is not a ranked tensor"))?;
                    operands.push(value);
                    operand_names.push(StringAttribute::new(self.context, &name).into());
                    CallArg::Tensor { elem: elem as i32, dims }
                }
                Argument::AsOptionalTensor(OptionalTensorArgument::AsNone(_)) => CallArg::NoTensor,
                Argument::AsNone(_) => CallArg::Absent,
                Argument::AsTensors(_) | Argument::AsOptionalTensors(_) => {
                    return Err(format!(
                        "argument `{name}` is a list of tensors, which custom-op translations do not take yet"
                    ))
                }
                Argument::AsSymInt(SymIntArgument::AsName(_))
                | Argument::AsSymFloat(SymFloatArgument::AsName(_))
                | Argument::AsSymBool(SymBoolArgument::AsName(_)) => {
                    return Err(format!(
                        "argument `{name}` is a symbolic scalar computed in the graph; an ONNX function attribute \
                         must be static (pass it to the op as a tensor)"
                    ))
                }
                other => {
                    let value = static_arg(other).ok_or_else(|| {
                        format!("argument `{name}` ({other:?}) has no ONNX attribute form for a custom-op translation")
                    })?;
                    attributes.push((
                        Identifier::new(self.context, &name),
                        args::static_attribute(self.context, other, None)?,
                    ));
                    CallArg::Static(value)
                }
            };
            call_args.push((name, arg));
        }
        attributes.push((Identifier::new(self.context, "arg_names"), ArrayAttribute::new(self.context, &names).into()));
        attributes.push((
            Identifier::new(self.context, aten_ir::CUSTOM_OPERANDS_ATTR),
            ArrayAttribute::new(self.context, &operand_names).into(),
        ));
        attributes.push((
            Identifier::new(self.context, aten_ir::CUSTOM_TRANSLATION_ATTR),
            StringAttribute::new(self.context, &format!("{}::{}", function.domain, function.name)).into(),
        ));

        let text = library.instantiate(function, &call_args, result_types.len(), self.opset)?;
        let region = self.translation_region(&text, &library.label)?;
        Ok((operands, attributes, region))
    }

    /// The body of `@forward` of `text` as a region ending in `onnx.yield`.
    fn translation_region(&self, text: &str, label: &str) -> Result<Region<'c>, String> {
        let module = crate::module::parse(self.context, text, label).map_err(|e| e.to_string())?;
        let func = module.body().first_operation().ok_or("the instantiated translation has no function")?;
        let source = func.region(0).map_err(|e| e.to_string())?;
        let region = Region::new();
        unsafe { mlir_sys::mlirRegionTakeBody(region.to_raw(), source.to_raw()) };
        let body = region.first_block().ok_or("the instantiated translation has no body")?;
        let ret = ir::last_op(body).ok_or("the instantiated translation has no terminator")?;
        let results: Vec<Value> = ret.operands().collect();
        let yielded = OperationBuilder::new(onnx_ir::YIELD_OP, ret.location())
            .add_operands(&results)
            .build()
            .map_err(|e| e.to_string())?;
        body.insert_operation_before(ret, yielded);
        unsafe { ir::erase(ret) };
        Ok(region)
    }
}

fn static_arg(arg: &Argument) -> Option<StaticArg> {
    Some(match arg {
        Argument::AsInt(i) | Argument::AsSymInt(SymIntArgument::AsInt(i)) => StaticArg::Int(*i),
        Argument::AsFloat(f) | Argument::AsSymFloat(SymFloatArgument::AsFloat(f)) => StaticArg::Float(*f),
        Argument::AsBool(b) | Argument::AsSymBool(SymBoolArgument::AsBool(b)) => StaticArg::Bool(*b),
        Argument::AsString(s) => StaticArg::String(s.clone()),
        Argument::AsInts(v) => StaticArg::Ints(v.clone()),
        Argument::AsFloats(v) => StaticArg::Floats(v.clone()),
        _ => return None,
    })
}
