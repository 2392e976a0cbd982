//! Small helpers over the MLIR C API where melior's safe wrappers stop short
//! (erasing ops, use lists, attribute kinds, locations).

use melior::ir::{
    attribute::AttributeLike, operation::OperationLike, r#type::TypeLike, Attribute, BlockLike, Location, OperationRef,
    RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;

/// True when `value` has at least one use.
pub fn has_uses(value: Value<'_, '_>) -> bool {
    unsafe { !sys::mlirOpOperandIsNull(sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Erases `op` (which must have no used results) from its block.
///
/// # Safety
/// The caller must not use `op` (or anything nested in it) afterwards.
pub unsafe fn erase(op: OperationRef<'_, '_>) {
    unsafe { sys::mlirOperationDestroy(op.to_raw()) }
}

/// The op whose result `value` is (`None` for a block argument).
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    unsafe {
        sys::mlirValueIsAOpResult(value.to_raw())
            .then(|| OperationRef::from_raw(sys::mlirOpResultGetOwner(value.to_raw())))
    }
}

/// The operations of every block of every region of `op`, in order (one level).
pub fn nested_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(o) = next {
                out.push(o);
                next = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    out
}

/// Calls `f` on `op` and every operation nested in it, pre-order.
pub fn walk<'c, 'a>(op: OperationRef<'c, 'a>, f: &mut dyn FnMut(OperationRef<'c, 'a>)) {
    f(op);
    for inner in nested_ops(op) {
        walk(inner, f);
    }
}

/// The short name of an attribute's kind, for error messages and checks.
pub fn attribute_kind(attr: Attribute<'_>) -> &'static str {
    let raw = attr.to_raw();
    unsafe {
        if sys::mlirAttributeIsABool(raw) {
            "bool"
        } else if sys::mlirAttributeIsAInteger(raw) {
            "integer"
        } else if sys::mlirAttributeIsAFloat(raw) {
            "float"
        } else if sys::mlirAttributeIsAString(raw) {
            "string"
        } else if sys::mlirAttributeIsADenseI64Array(raw) {
            "array<i64>"
        } else if sys::mlirAttributeIsADenseF64Array(raw) {
            "array<f64>"
        } else if sys::mlirAttributeIsADenseBoolArray(raw) {
            "array<i1>"
        } else if sys::mlirAttributeIsADenseI32Array(raw) {
            "array<i32>"
        } else if sys::mlirAttributeIsAType(raw) {
            "type"
        } else if sys::mlirAttributeIsAArray(raw) {
            "array"
        } else if sys::mlirAttributeIsADenseElements(raw) {
            "dense elements"
        } else if sys::mlirAttributeIsAUnit(raw) {
            "unit"
        } else if sys::mlirAttributeIsADictionary(raw) {
            "dictionary"
        } else {
            "other"
        }
    }
}

/// Elements of a `array<i32: ...>` attribute.
pub fn dense_i32_values(attr: Attribute<'_>) -> Option<Vec<i32>> {
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsADenseI32Array(raw) {
            return None;
        }
        let n = sys::mlirDenseArrayGetNumElements(raw);
        Some((0..n).map(|i| sys::mlirDenseI32ArrayGetElement(raw, i)).collect())
    }
}

/// Elements of a `array<i64: ...>` attribute.
pub fn dense_i64_values(attr: Attribute<'_>) -> Option<Vec<i64>> {
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsADenseI64Array(raw) {
            return None;
        }
        let n = sys::mlirDenseArrayGetNumElements(raw);
        Some((0..n).map(|i| sys::mlirDenseI64ArrayGetElement(raw, i)).collect())
    }
}

/// The string of a string attribute.
pub fn string_value<'c>(attr: Attribute<'c>) -> Option<String> {
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsAString(raw) {
            return None;
        }
        let s = sys::mlirStringAttrGetValue(raw);
        if s.length == 0 || s.data.is_null() {
            return Some(String::new());
        }
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        // `from_utf8` first: same result, quicker (see `string_ref_text`).
        match std::str::from_utf8(bytes) {
            Ok(text) => Some(text.to_string()),
            Err(_) => Some(String::from_utf8_lossy(bytes).into_owned()),
        }
    }
}

/// The elements of an array attribute as strings (a non-string element is
/// `""`); `None` when `attr` is not an array.
pub fn string_array(attr: Attribute<'_>) -> Option<Vec<String>> {
    let raw = attr.to_raw();
    unsafe {
        if !sys::mlirAttributeIsAArray(raw) {
            return None;
        }
        Some(
            (0..sys::mlirArrayAttrGetNumElements(raw))
                .map(|i| string_value(Attribute::from_raw(sys::mlirArrayAttrGetElement(raw, i))).unwrap_or_default())
                .collect(),
        )
    }
}

/// Kinds of value types the dialects use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Ranked or unranked builtin tensor.
    Tensor,
    /// `none`: an absent element of an optional-tensor list.
    None,
    /// Signless or signed integer scalar (SymInt is `i64`, SymBool `i1`).
    Integer,
    /// Float scalar (SymFloat is `f64`).
    Float,
    Other,
}

pub fn value_kind(ty: Type<'_>) -> ValueKind {
    let raw = ty.to_raw();
    unsafe {
        if sys::mlirTypeIsATensor(raw) {
            ValueKind::Tensor
        } else if sys::mlirTypeIsANone(raw) {
            ValueKind::None
        } else if sys::mlirTypeIsAInteger(raw) {
            ValueKind::Integer
        } else if sys::mlirTypeIsAFloat(raw) {
            ValueKind::Float
        } else {
            ValueKind::Other
        }
    }
}

/// The text of an MLIR string reference. Unlike melior's `StringRef::as_str`
/// this accepts an empty (possibly null) reference and invalid UTF-8.
pub fn string_ref_text(s: melior::StringRef<'_>) -> String {
    let raw = s.to_raw();
    if raw.length == 0 || raw.data.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) };
    // `from_utf8` first: its ASCII fast path is several times quicker than
    // `from_utf8_lossy`'s chunk walk (names are read per op in every walk).
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// [`op_name`] without copying the name (borrowed from the context, where
/// identifiers are uniqued; copied only if it is not UTF-8), for walks over
/// every op such as the verifiers.
pub fn op_name_cow<'c>(op: OperationRef<'c, '_>) -> std::borrow::Cow<'c, str> {
    let raw = op.name().as_string_ref().to_raw();
    if raw.length == 0 || raw.data.is_null() {
        return std::borrow::Cow::Borrowed("");
    }
    // SAFETY: the identifier's storage lives as long as the context ('c).
    let bytes: &'c [u8] = unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) };
    // `from_utf8` first: same result, quicker (see `string_ref_text`).
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The text of an identifier (attribute name, op name), see [`string_ref_text`].
pub fn identifier_text(id: melior::ir::Identifier<'_>) -> String {
    string_ref_text(id.as_string_ref())
}

/// Where a location points: the innermost file position and the node name,
/// when the importer recorded them (`loc("node"("file.py":12:0))`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourcePosition {
    pub file: Option<String>,
    pub line: usize,
    pub column: usize,
    pub node: Option<String>,
    /// The aten op (`aten.linear.default`) an onnx op was lowered from:
    /// `convert-aten-to-onnx` locates the ops a rule builds at
    /// `loc("<node>"("<aten op>"(<file position>)))`.
    pub aten_op: Option<String>,
}

impl SourcePosition {
    pub fn of(location: Location<'_>) -> SourcePosition {
        let mut pos = SourcePosition::default();
        collect_position(location, &mut pos);
        pos
    }

    /// `file:line:col` or `<unknown>`.
    pub fn file_line(&self) -> String {
        match &self.file {
            Some(file) => format!("{}:{}:{}", file, self.line, self.column),
            None => "<unknown location>".to_string(),
        }
    }
}

fn collect_position(location: Location<'_>, pos: &mut SourcePosition) {
    if location.is_name() {
        let name = identifier_text(location.name_value());
        if pos.node.is_none() {
            pos.node = Some(name);
        } else if pos.aten_op.is_none() && name.starts_with("aten.") {
            pos.aten_op = Some(name);
        }
        collect_position(location.name_child_location(), pos);
    } else if location.is_file_line_col_range() {
        if pos.file.is_none() {
            pos.file = Some(identifier_text(location.file_line_col_range_filename()));
            pos.line = location.file_line_col_range_start_line();
            pos.column = location.file_line_col_range_start_column();
        }
    } else if location.is_call_site() {
        collect_position(location.call_site_callee(), pos);
    } else if location.is_fused() {
        for i in 0..location.fused_num_locations() {
            collect_position(location.fused_location(i), pos);
        }
    }
}

/// The op's name as a Rust string.
pub fn op_name(op: OperationRef<'_, '_>) -> String {
    identifier_text(op.name())
}

/// Appends `values` to the results of `function` (a `func.func` whose body
/// ends in `ret`): the return's operands, the function type and one
/// `res_attrs` dictionary of string attributes per new result.
pub fn append_function_results(
    function: OperationRef<'_, '_>,
    ret: OperationRef<'_, '_>,
    values: &[Value<'_, '_>],
    attributes: &[Vec<(&str, String)>],
) -> Result<(), String> {
    use melior::ir::{
        attribute::{ArrayAttribute, DictionaryAttribute, StringAttribute, TypeAttribute},
        r#type::FunctionType,
        Identifier,
    };
    // `to_ref` borrows the ContextRef: keep it alive as long as the context is used.
    let context_ref = function.context();
    let context = unsafe { context_ref.to_ref() };
    let mut operands: Vec<sys::MlirValue> = ret.operands().map(|v| v.to_raw()).collect();
    operands.extend(values.iter().map(|v| v.to_raw()));
    unsafe { sys::mlirOperationSetOperands(ret.to_raw(), operands.len() as isize, operands.as_ptr()) };
    let function_type = function
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .ok_or("function has no function_type")?;
    let inputs: Vec<Type> = (0..function_type.input_count()).filter_map(|i| function_type.input(i).ok()).collect();
    let results: Vec<Type> = ret.operands().map(|v| v.r#type()).collect();
    let mut attrs: Vec<Attribute> =
        match function.attribute("res_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) {
            Some(array) => (0..array.len()).filter_map(|i| array.element(i).ok()).collect(),
            None => (0..function_type.result_count()).map(|_| DictionaryAttribute::new(context, &[]).into()).collect(),
        };
    for entries in attributes {
        let entries: Vec<(Identifier, Attribute)> = entries
            .iter()
            .map(|(k, v)| (Identifier::new(context, k), StringAttribute::new(context, v).into()))
            .collect();
        attrs.push(DictionaryAttribute::new(context, &entries).into());
    }
    let set = |name: &str, attr: Attribute| unsafe {
        sys::mlirOperationSetAttributeByName(
            function.to_raw(),
            sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
            attr.to_raw(),
        )
    };
    set("function_type", TypeAttribute::new(FunctionType::new(context, &inputs, &results).into()).into());
    set("res_attrs", ArrayAttribute::new(context, &attrs).into());
    Ok(())
}

/// `op.operand(i)`, `None` when out of range. melior's own error path
/// prints the operation, which numbers every value of the enclosing module
/// (an `AsmState`): called per op, that made passes quadratic.
pub fn operand_at<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Option<Value<'c, 'a>> {
    if i < op.operand_count() {
        op.operand(i).ok()
    } else {
        None
    }
}

/// `op.result(i)` as a value, `None` when out of range (see [`operand_at`]).
pub fn result_at<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Option<Value<'c, 'a>> {
    if i < op.result_count() {
        op.result(i).ok().map(Into::into)
    } else {
        None
    }
}

/// Re-derives each `func.func`'s `function_type` from its entry block's
/// argument types and its `func.return` operand types (complex inputs and
/// outputs are real views after the lowering; outputs of unknown rank get
/// the type shape inference found).
pub fn sync_function_types(root: OperationRef<'_, '_>) {
    use melior::ir::{attribute::TypeAttribute, r#type::FunctionType};
    let mut funcs = Vec::new();
    walk(root, &mut |op| {
        if op_name(op) == "func.func" {
            funcs.push(op);
        }
    });
    for func in funcs {
        let Ok(region) = func.region(0) else { continue };
        let Some(block) = region.first_block() else { continue };
        let Some(ret) = block.terminator() else { continue };
        if op_name(ret) != "func.return" {
            continue;
        }
        let inputs: Vec<Type> =
            (0..block.argument_count()).filter_map(|i| block.argument(i).ok()).map(|a| a.r#type()).collect();
        let results: Vec<Type> = ret.operands().map(|v| v.r#type()).collect();
        let context_ref = func.context();
        let context = unsafe { context_ref.to_ref() };
        let ty = TypeAttribute::new(FunctionType::new(context, &inputs, &results).into());
        let name = "function_type";
        unsafe {
            sys::mlirOperationSetAttributeByName(
                func.to_raw(),
                sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
                ty.to_raw(),
            )
        };
    }
}

/// An integer attribute of `op` (`None` when absent or not an integer).
pub fn int_attribute(op: OperationRef<'_, '_>, name: &str) -> Option<i64> {
    let attr = op.attribute(name).ok()?;
    unsafe { sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| sys::mlirIntegerAttrGetValueInt(attr.to_raw())) }
}

/// The uses of `value`: (owner op, operand index), in use-list order.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut out = Vec::new();
    unsafe {
        let mut u = sys::mlirValueGetFirstUse(value.to_raw());
        while !sys::mlirOpOperandIsNull(u) {
            out.push((
                OperationRef::from_raw(sys::mlirOpOperandGetOwner(u)),
                sys::mlirOpOperandGetOperandNumber(u) as usize,
            ));
            u = sys::mlirOpOperandGetNextUse(u);
        }
    }
    out
}

/// True when `value` has exactly one use.
pub fn single_use(value: Value<'_, '_>) -> bool {
    unsafe {
        let first = sys::mlirValueGetFirstUse(value.to_raw());
        !sys::mlirOpOperandIsNull(first) && sys::mlirOpOperandIsNull(sys::mlirOpOperandGetNextUse(first))
    }
}

/// Sets the discardable attribute `name` of `op` to the i64 `value` (the
/// passes' summaries on their function: `onnx.fuse_weights = N`).
pub fn set_i64_attribute(op: OperationRef<'_, '_>, name: &str, value: i64) {
    // The ContextRef must outlive `to_ref`'s borrow (a temporary dangles).
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let attr: Attribute = melior::ir::attribute::IntegerAttribute::new(i64_type, value).into();
    unsafe {
        sys::mlirOperationSetDiscardableAttributeByName(
            op.to_raw(),
            sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
            attr.to_raw(),
        )
    };
}

/// The last op of `block` (its terminator, when it has one; unregistered
/// terminators such as `onnx.yield` are not known to MLIR as such).
pub fn last_op<'c, 'a>(block: melior::ir::BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut op = block.first_operation()?;
    while let Some(next) = op.next_in_block() {
        op = next;
    }
    Some(op)
}
