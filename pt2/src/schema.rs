//! Typed mirror of `torch/_export/serde/schema.py` (export schema 8.x), as
//! written to `models/<name>.json` by `torch.export.save`.
//!
//! * Every `_Union` is a Rust enum, externally tagged: the JSON object
//!   `{"as_tensor": {"name": "x"}}` is `Argument::AsTensor(TensorArgument { name: "x" })`.
//!   An unknown tag is a deserialization error naming the tag.
//! * Integer enums (`ScalarType`, `Layout`, `MemoryFormat`, `ArgumentKind`) use the
//!   serializer's own numbering (e.g. `ScalarType::Float` = 7); unknown numbers are errors.
//! * Floats accept torch's `"Infinity"`, `"-Infinity"`, `"NaN"` strings.
//! * Unknown struct fields are ignored (minor-version additions); fields that
//!   have a default in schema.py are optional.
//! * JSON objects (dicts) become `BTreeMap`s (deterministic iteration order).
//! * `module_call_graph` and `treespec_namedtuple_fields` are not read.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// A JSON dict keyed by name.
pub type Map<V> = BTreeMap<String, V>;

macro_rules! int_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $value:expr ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
        #[serde(try_from = "i64")]
        #[repr(i32)]
        pub enum $name { $( $(#[$vmeta])* $variant = $value ),* }

        impl $name {
            /// All variants, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The serializer's integer code.
            pub fn code(self) -> i64 {
                self as i64
            }
        }

        impl TryFrom<i64> for $name {
            type Error = String;
            fn try_from(v: i64) -> Result<Self, String> {
                match v {
                    $( x if x == $value => Ok($name::$variant), )*
                    _ => Err(format!(concat!("unknown ", stringify!($name), " value {}"), v)),
                }
            }
        }
    };
}

int_enum! {
    /// `schema.ScalarType` (NOT c10's numbering for the newer types).
    pub enum ScalarType {
        Unknown = 0,
        Byte = 1,
        Char = 2,
        Short = 3,
        Int = 4,
        Long = 5,
        Half = 6,
        Float = 7,
        Double = 8,
        ComplexHalf = 9,
        ComplexFloat = 10,
        ComplexDouble = 11,
        Bool = 12,
        BFloat16 = 13,
        UInt16 = 28,
        Float8E4M3FN = 29,
        Float8E5M2 = 30,
        Float8E4M3FNUZ = 31,
        Float8E5M2FNUZ = 32,
        Float8E8M0FNU = 33,
        UInt32 = 34,
        UInt64 = 35,
    }
}

impl ScalarType {
    /// Bytes per element; `None` for `Unknown`.
    pub fn element_size(self) -> Option<usize> {
        use ScalarType::*;
        Some(match self {
            Unknown => return None,
            Byte | Char | Bool => 1,
            Float8E4M3FN | Float8E5M2 | Float8E4M3FNUZ | Float8E5M2FNUZ | Float8E8M0FNU => 1,
            Short | Half | BFloat16 | UInt16 => 2,
            Int | Float | ComplexHalf | UInt32 => 4,
            Long | Double | ComplexFloat | UInt64 => 8,
            ComplexDouble => 16,
        })
    }

    /// torch's dtype name (`torch.float32` -> `"float32"`).
    pub fn name(self) -> &'static str {
        use ScalarType::*;
        match self {
            Unknown => "unknown",
            Byte => "uint8",
            Char => "int8",
            Short => "int16",
            Int => "int32",
            Long => "int64",
            Half => "float16",
            Float => "float32",
            Double => "float64",
            ComplexHalf => "complex32",
            ComplexFloat => "complex64",
            ComplexDouble => "complex128",
            Bool => "bool",
            BFloat16 => "bfloat16",
            UInt16 => "uint16",
            Float8E4M3FN => "float8_e4m3fn",
            Float8E5M2 => "float8_e5m2",
            Float8E4M3FNUZ => "float8_e4m3fnuz",
            Float8E5M2FNUZ => "float8_e5m2fnuz",
            Float8E8M0FNU => "float8_e8m0fnu",
            UInt32 => "uint32",
            UInt64 => "uint64",
        }
    }

    pub fn is_floating_point(self) -> bool {
        use ScalarType::*;
        matches!(
            self,
            Half | Float
                | Double
                | BFloat16
                | Float8E4M3FN
                | Float8E5M2
                | Float8E4M3FNUZ
                | Float8E5M2FNUZ
                | Float8E8M0FNU
        )
    }

    pub fn is_complex(self) -> bool {
        matches!(self, ScalarType::ComplexHalf | ScalarType::ComplexFloat | ScalarType::ComplexDouble)
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

int_enum! {
    /// `schema.Layout`.
    pub enum Layout {
        Unknown = 0,
        SparseCoo = 1,
        SparseCsr = 2,
        SparseCsc = 3,
        SparseBsr = 4,
        SparseBsc = 5,
        Mkldnn = 6,
        Strided = 7,
    }
}

int_enum! {
    /// `schema.MemoryFormat`.
    pub enum MemoryFormat {
        Unknown = 0,
        ContiguousFormat = 1,
        ChannelsLast = 2,
        ChannelsLast3d = 3,
        PreserveFormat = 4,
    }
}

int_enum! {
    /// `schema.ArgumentKind`: whether an input was passed positionally or by keyword.
    pub enum ArgumentKind {
        Unknown = 0,
        Positional = 1,
        Keyword = 2,
    }
}

/// `schema.Device`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Device {
    /// JSON field `type` (`"cpu"`, `"cuda"`, `"meta"`...).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub index: Option<i64>,
}

/// `schema.SymExprHint`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymExprHint {
    AsInt(i64),
    AsBool(bool),
    #[serde(deserialize_with = "crate::de::f64")]
    AsFloat(f64),
}

/// `schema.SymExpr`: a sympy expression in `srepr` form, e.g.
/// `"Symbol('s77', positive=True, integer=True)"`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SymExpr {
    pub expr_str: String,
    #[serde(default)]
    pub hint: Option<SymExprHint>,
}

impl SymExpr {
    /// If the expression is a bare symbol (`Symbol('s77', ...)`), its name (`s77`),
    /// which is also the key used in `ExportedProgram::range_constraints`.
    pub fn symbol_name(&self) -> Option<&str> {
        let rest = self.expr_str.strip_prefix("Symbol(")?;
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let rest = &rest[1..];
        let end = rest.find(quote)?;
        let after = rest[end + 1..].trim_start();
        // Must be the whole expression: `Symbol('s0', k=v, ...)` with nothing after the `)`.
        if !after.ends_with(')') || after[..after.len() - 1].contains(')') {
            return None;
        }
        Some(&rest[..end])
    }

    /// The integer hint (example value), if recorded.
    pub fn int_hint(&self) -> Option<i64> {
        match self.hint {
            Some(SymExprHint::AsInt(v)) => Some(v),
            _ => None,
        }
    }
}

/// `schema.SymInt`: a concrete or symbolic integer (tensor sizes, strides...).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymInt {
    AsExpr(SymExpr),
    AsInt(i64),
}

impl SymInt {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            SymInt::AsInt(v) => Some(*v),
            SymInt::AsExpr(_) => None,
        }
    }
}

/// `schema.SymFloat`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymFloat {
    AsExpr(SymExpr),
    #[serde(deserialize_with = "crate::de::f64")]
    AsFloat(f64),
}

/// `schema.SymBool`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymBool {
    AsExpr(SymExpr),
    AsBool(bool),
}

/// `schema.TensorMeta`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TensorMeta {
    pub dtype: ScalarType,
    pub sizes: Vec<SymInt>,
    pub requires_grad: bool,
    pub device: Device,
    pub strides: Vec<SymInt>,
    pub storage_offset: SymInt,
    pub layout: Layout,
}

impl TensorMeta {
    /// The sizes if none is symbolic.
    pub fn static_sizes(&self) -> Option<Vec<i64>> {
        self.sizes.iter().map(SymInt::as_int).collect()
    }

    /// The strides if none is symbolic.
    pub fn static_strides(&self) -> Option<Vec<i64>> {
        self.strides.iter().map(SymInt::as_int).collect()
    }
}

/// `schema.SymIntArgument`: a reference to a SymInt value (`as_name`, see
/// `Graph::sym_int_values`) or a literal (`as_int`, used inside mixed lists).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymIntArgument {
    AsName(String),
    AsInt(i64),
}

/// `schema.SymFloatArgument`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymFloatArgument {
    AsName(String),
    #[serde(deserialize_with = "crate::de::f64")]
    AsFloat(f64),
}

/// `schema.SymBoolArgument`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymBoolArgument {
    AsName(String),
    AsBool(bool),
}

/// `schema.TensorArgument`: a reference to a tensor value by name (see `Graph::tensor_values`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
pub struct TensorArgument {
    pub name: String,
}

/// `schema.TokenArgument` (effect tokens).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
pub struct TokenArgument {
    pub name: String,
}

/// `schema.OptionalTensorArgument`: an element of a `Tensor?[]` list.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionalTensorArgument {
    AsTensor(TensorArgument),
    /// Always `true`.
    AsNone(bool),
}

/// `schema.GraphArgument`: a subgraph passed inline to a higher-order op
/// (`cond` branches, `while_loop` cond/body, ...).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GraphArgument {
    /// The submodule attribute name (e.g. `true_graph_0`).
    pub name: String,
    pub graph: Graph,
}

/// `schema.CustomObjArgument`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CustomObjArgument {
    pub name: String,
    pub class_fqn: String,
}

/// `schema.ComplexValue`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct ComplexValue {
    #[serde(deserialize_with = "crate::de::f64")]
    pub real: f64,
    #[serde(deserialize_with = "crate::de::f64")]
    pub imag: f64,
}

/// `schema.Argument`: the value of a node input, node output or graph input/output.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Argument {
    /// `None` (the payload is always `true`).
    AsNone(bool),
    AsTensor(TensorArgument),
    AsTensors(Vec<TensorArgument>),
    AsInt(i64),
    AsInts(Vec<i64>),
    #[serde(deserialize_with = "crate::de::f64")]
    AsFloat(f64),
    #[serde(deserialize_with = "crate::de::vec_f64")]
    AsFloats(Vec<f64>),
    AsString(String),
    AsStrings(Vec<String>),
    AsSymInt(SymIntArgument),
    AsSymInts(Vec<SymIntArgument>),
    AsScalarType(ScalarType),
    AsMemoryFormat(MemoryFormat),
    AsLayout(Layout),
    AsDevice(Device),
    AsBool(bool),
    AsBools(Vec<bool>),
    AsSymBool(SymBoolArgument),
    AsSymBools(Vec<SymBoolArgument>),
    AsGraph(Box<GraphArgument>),
    AsOptionalTensors(Vec<OptionalTensorArgument>),
    AsCustomObj(CustomObjArgument),
    /// An operator used as a value (e.g. `"torch.ops.aten.add.Tensor"`).
    AsOperator(String),
    AsSymFloat(SymFloatArgument),
    AsSymFloats(Vec<SymFloatArgument>),
    AsOptionalTensor(OptionalTensorArgument),
    AsComplex(ComplexValue),
    AsNestedTensors(Vec<Vec<TensorArgument>>),
    AsIntLists(Vec<Vec<i64>>),
    AsStringToArgument(Map<Argument>),
    #[serde(deserialize_with = "crate::de::vec_vec_f64")]
    AsFloatLists(Vec<Vec<f64>>),
}

impl Argument {
    /// The JSON tag of this variant (`"as_tensor"`, `"as_sym_ints"`, ...), for messages.
    pub fn tag(&self) -> &'static str {
        use Argument::*;
        match self {
            AsNone(_) => "as_none",
            AsTensor(_) => "as_tensor",
            AsTensors(_) => "as_tensors",
            AsInt(_) => "as_int",
            AsInts(_) => "as_ints",
            AsFloat(_) => "as_float",
            AsFloats(_) => "as_floats",
            AsString(_) => "as_string",
            AsStrings(_) => "as_strings",
            AsSymInt(_) => "as_sym_int",
            AsSymInts(_) => "as_sym_ints",
            AsScalarType(_) => "as_scalar_type",
            AsMemoryFormat(_) => "as_memory_format",
            AsLayout(_) => "as_layout",
            AsDevice(_) => "as_device",
            AsBool(_) => "as_bool",
            AsBools(_) => "as_bools",
            AsSymBool(_) => "as_sym_bool",
            AsSymBools(_) => "as_sym_bools",
            AsGraph(_) => "as_graph",
            AsOptionalTensors(_) => "as_optional_tensors",
            AsCustomObj(_) => "as_custom_obj",
            AsOperator(_) => "as_operator",
            AsSymFloat(_) => "as_sym_float",
            AsSymFloats(_) => "as_sym_floats",
            AsOptionalTensor(_) => "as_optional_tensor",
            AsComplex(_) => "as_complex",
            AsNestedTensors(_) => "as_nested_tensors",
            AsIntLists(_) => "as_int_lists",
            AsStringToArgument(_) => "as_string_to_argument",
            AsFloatLists(_) => "as_float_lists",
        }
    }

    /// The tensor name for `AsTensor`.
    pub fn as_tensor_name(&self) -> Option<&str> {
        match self {
            Argument::AsTensor(t) => Some(&t.name),
            _ => None,
        }
    }
}

/// `schema.NamedArgument`: one node input. Inputs left at their schema default
/// are NOT written by torch, so look inputs up by `name`, not by position.
/// Higher-order ops (`torch.ops.higher_order.*`) have empty names.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NamedArgument {
    pub name: String,
    pub arg: Argument,
    #[serde(default)]
    pub kind: Option<ArgumentKind>,
}

/// `schema.Node`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Node {
    /// E.g. `"torch.ops.aten.linear.default"`, `"torch.ops.higher_order.cond"`.
    /// There are no `getitem` nodes: multi-output ops list all their outputs
    /// in `outputs`.
    pub target: String,
    pub inputs: Vec<NamedArgument>,
    pub outputs: Vec<Argument>,
    /// String metadata, only the keys the importer reads (`stack_trace`,
    /// see `de::KEPT_NODE_METADATA`); torch also writes `nn_module_stack`,
    /// `source_fn_stack`, `torch_fn`, `custom`, `from_node`...
    #[serde(default, deserialize_with = "crate::de::kept_node_metadata")]
    pub metadata: Map<String>,
    #[serde(default)]
    pub is_hop_single_tensor_return: Option<bool>,
    #[serde(default)]
    pub name: Option<String>,
}

impl Node {
    /// The first input with the given schema name.
    pub fn input(&self, name: &str) -> Option<&Argument> {
        self.inputs.iter().find(|a| a.name == name).map(|a| &a.arg)
    }

    /// `metadata["stack_trace"]`.
    pub fn stack_trace(&self) -> Option<&str> {
        self.metadata.get("stack_trace").map(String::as_str)
    }
}

/// `schema.Graph`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Graph {
    pub inputs: Vec<Argument>,
    pub outputs: Vec<Argument>,
    pub nodes: Vec<Node>,
    #[serde(default)]
    pub tensor_values: Map<TensorMeta>,
    #[serde(default)]
    pub sym_int_values: Map<SymInt>,
    #[serde(default)]
    pub sym_bool_values: Map<SymBool>,
    #[serde(default)]
    pub is_single_tensor_return: bool,
    #[serde(default)]
    pub custom_obj_values: Map<CustomObjArgument>,
    #[serde(default)]
    pub sym_float_values: Map<SymFloat>,
}

/// `schema.UserInputSpec`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct UserInputSpec {
    pub arg: Argument,
}

/// `schema.ConstantValue`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstantValue {
    AsNone(bool),
    AsInt(i64),
    #[serde(deserialize_with = "crate::de::f64")]
    AsFloat(f64),
    AsString(String),
    AsBool(bool),
}

/// `schema.InputToConstantInputSpec`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct InputToConstantInputSpec {
    pub name: String,
    pub value: ConstantValue,
}

/// `schema.InputToParameterSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InputToParameterSpec {
    pub arg: TensorArgument,
    pub parameter_name: String,
}

/// `schema.InputToBufferSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InputToBufferSpec {
    pub arg: TensorArgument,
    pub buffer_name: String,
    /// Non-persistent buffers are stored with the constants, not the weights.
    pub persistent: bool,
}

/// `schema.InputToTensorConstantSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InputToTensorConstantSpec {
    pub arg: TensorArgument,
    pub tensor_constant_name: String,
}

/// `schema.InputToCustomObjSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InputToCustomObjSpec {
    pub arg: CustomObjArgument,
    pub custom_obj_name: String,
}

/// `schema.InputTokenSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct InputTokenSpec {
    pub arg: TokenArgument,
}

/// `schema.InputSpec`: what a graph input (placeholder) is bound to.
/// `GraphSignature::input_specs` is parallel to `Graph::inputs`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputSpec {
    UserInput(UserInputSpec),
    Parameter(InputToParameterSpec),
    Buffer(InputToBufferSpec),
    TensorConstant(InputToTensorConstantSpec),
    CustomObj(InputToCustomObjSpec),
    Token(InputTokenSpec),
    ConstantInput(InputToConstantInputSpec),
}

impl InputSpec {
    /// The JSON tag (`"user_input"`, `"parameter"`, ...).
    pub fn tag(&self) -> &'static str {
        match self {
            InputSpec::UserInput(_) => "user_input",
            InputSpec::Parameter(_) => "parameter",
            InputSpec::Buffer(_) => "buffer",
            InputSpec::TensorConstant(_) => "tensor_constant",
            InputSpec::CustomObj(_) => "custom_obj",
            InputSpec::Token(_) => "token",
            InputSpec::ConstantInput(_) => "constant_input",
        }
    }

    /// The placeholder name this spec binds, when it is a named value
    /// (`None` for a user input that is a literal, e.g. `as_int`).
    pub fn arg_name(&self) -> Option<&str> {
        match self {
            InputSpec::UserInput(s) => match &s.arg {
                Argument::AsTensor(t) => Some(&t.name),
                Argument::AsSymInt(SymIntArgument::AsName(n))
                | Argument::AsSymFloat(SymFloatArgument::AsName(n))
                | Argument::AsSymBool(SymBoolArgument::AsName(n)) => Some(n),
                Argument::AsCustomObj(c) => Some(&c.name),
                _ => None,
            },
            InputSpec::Parameter(s) => Some(&s.arg.name),
            InputSpec::Buffer(s) => Some(&s.arg.name),
            InputSpec::TensorConstant(s) => Some(&s.arg.name),
            InputSpec::CustomObj(s) => Some(&s.arg.name),
            InputSpec::Token(s) => Some(&s.arg.name),
            InputSpec::ConstantInput(s) => Some(&s.name),
        }
    }
}

/// `schema.UserOutputSpec`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct UserOutputSpec {
    pub arg: Argument,
}

/// `schema.LossOutputSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct LossOutputSpec {
    pub arg: TensorArgument,
}

/// `schema.BufferMutationSpec`: the output holds the new value of `buffer_name`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct BufferMutationSpec {
    pub arg: TensorArgument,
    pub buffer_name: String,
}

/// `schema.ParameterMutationSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ParameterMutationSpec {
    pub arg: TensorArgument,
    pub parameter_name: String,
}

/// `schema.GradientToParameterSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GradientToParameterSpec {
    pub arg: TensorArgument,
    pub parameter_name: String,
}

/// `schema.GradientToUserInputSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GradientToUserInputSpec {
    pub arg: TensorArgument,
    pub user_input_name: String,
}

/// `schema.UserInputMutationSpec`: the output holds the new value of a user input.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct UserInputMutationSpec {
    pub arg: TensorArgument,
    pub user_input_name: String,
}

/// `schema.OutputTokenSpec`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct OutputTokenSpec {
    pub arg: TokenArgument,
}

/// `schema.OutputSpec`: what a graph output means.
/// `GraphSignature::output_specs` is parallel to `Graph::outputs`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputSpec {
    UserOutput(UserOutputSpec),
    LossOutput(LossOutputSpec),
    BufferMutation(BufferMutationSpec),
    GradientToParameter(GradientToParameterSpec),
    GradientToUserInput(GradientToUserInputSpec),
    UserInputMutation(UserInputMutationSpec),
    Token(OutputTokenSpec),
    ParameterMutation(ParameterMutationSpec),
}

impl OutputSpec {
    /// The value this spec names, when it names one (`None` for a user
    /// output that is a literal or not a tensor / symbolic value).
    pub fn arg_name(&self) -> Option<&str> {
        match self {
            OutputSpec::UserOutput(s) => match &s.arg {
                Argument::AsTensor(t) => Some(&t.name),
                Argument::AsSymInt(SymIntArgument::AsName(n))
                | Argument::AsSymFloat(SymFloatArgument::AsName(n))
                | Argument::AsSymBool(SymBoolArgument::AsName(n)) => Some(n),
                _ => None,
            },
            OutputSpec::LossOutput(s) => Some(&s.arg.name),
            OutputSpec::BufferMutation(s) => Some(&s.arg.name),
            OutputSpec::ParameterMutation(s) => Some(&s.arg.name),
            OutputSpec::UserInputMutation(s) => Some(&s.arg.name),
            _ => None,
        }
    }

    /// The JSON tag (`"user_output"`, `"buffer_mutation"`, ...).
    pub fn tag(&self) -> &'static str {
        match self {
            OutputSpec::UserOutput(_) => "user_output",
            OutputSpec::LossOutput(_) => "loss_output",
            OutputSpec::BufferMutation(_) => "buffer_mutation",
            OutputSpec::GradientToParameter(_) => "gradient_to_parameter",
            OutputSpec::GradientToUserInput(_) => "gradient_to_user_input",
            OutputSpec::UserInputMutation(_) => "user_input_mutation",
            OutputSpec::Token(_) => "token",
            OutputSpec::ParameterMutation(_) => "parameter_mutation",
        }
    }
}

/// `schema.GraphSignature`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GraphSignature {
    pub input_specs: Vec<InputSpec>,
    pub output_specs: Vec<OutputSpec>,
}

/// `schema.RangeConstraint`: inclusive bounds of a symbol; `None` = unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct RangeConstraint {
    #[serde(default)]
    pub min_val: Option<i64>,
    #[serde(default)]
    pub max_val: Option<i64>,
}

/// `schema.SchemaVersion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct SchemaVersion {
    pub major: i64,
    pub minor: i64,
}

impl fmt::Display for SchemaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// `schema.GraphModule` (without `module_call_graph` / `treespec_namedtuple_fields`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GraphModule {
    pub graph: Graph,
    pub signature: GraphSignature,
    #[serde(default)]
    pub metadata: Map<String>,
}

/// `schema.ExportedProgram`: the content of `models/<name>.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ExportedProgram {
    pub graph_module: GraphModule,
    /// Opset namespace -> version, e.g. `{"aten": 10}`.
    #[serde(default)]
    pub opset_version: BTreeMap<String, i64>,
    /// Symbol name (e.g. `s77`) -> inclusive value range.
    #[serde(default)]
    pub range_constraints: Map<RangeConstraint>,
    pub schema_version: SchemaVersion,
    /// `["TRAINING"]` for `torch.export.export` output, `["ATEN"]` after
    /// `run_decompositions()`.
    #[serde(default)]
    pub verifiers: Vec<String>,
    #[serde(default)]
    pub torch_version: Option<String>,
    #[serde(default)]
    pub guards_code: Vec<String>,
}

impl ExportedProgram {
    /// The top-level graph.
    pub fn graph(&self) -> &Graph {
        &self.graph_module.graph
    }

    /// The top-level signature.
    pub fn signature(&self) -> &GraphSignature {
        &self.graph_module.signature
    }
}

/// Only the version, for diagnosing a failed full parse.
#[derive(Deserialize)]
pub(crate) struct VersionProbe {
    pub schema_version: SchemaVersion,
}

/// `schema.PayloadMeta`: one entry of `data/{weights,constants}/<model>_*_config.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PayloadMeta {
    /// File name inside `data/weights/` or `data/constants/` (e.g. `weight_0`).
    pub path_name: String,
    pub is_param: bool,
    pub use_pickle: bool,
    /// `None` for custom objects.
    #[serde(default)]
    pub tensor_meta: Option<TensorMeta>,
}

/// `schema.PayloadConfig` (order of the file preserved).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub(crate) struct PayloadConfig {
    #[serde(deserialize_with = "crate::de::ordered_map")]
    pub config: Vec<(String, PayloadMeta)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_name() {
        let e = |s: &str| SymExpr { expr_str: s.into(), hint: None };
        assert_eq!(e("Symbol('s77', positive=True, integer=True)").symbol_name(), Some("s77"));
        assert_eq!(e("Symbol('s0')").symbol_name(), Some("s0"));
        assert_eq!(e("Mul(Integer(2), Symbol('s0', integer=True))").symbol_name(), None);
    }

    /// Floats parse to the double their JSON text names, to the last bit
    /// (serde_json's `float_roundtrip`): the default parser read
    /// `-3.4028234663852886e+38` (-FLT_MAX, Hugging Face's mask fill) one
    /// ulp past it, which libtorch then refused to convert to float32 in
    /// `--verify`, and float64 programs would carry constants off by an ulp.
    #[test]
    fn floats_parse_exactly() {
        for (text, want) in [
            ("3.4028234663852886e+38", f32::MAX as f64),
            ("-3.4028234663852886e+38", f32::MIN as f64),
            ("0.1", 0.1),
            ("2.2250738585072014e-308", f64::MIN_POSITIVE),
            ("1.7976931348623157e+308", f64::MAX),
        ] {
            let a: Argument = serde_json::from_str(&format!(r#"{{"as_float": {text}}}"#)).unwrap();
            assert_eq!(a, Argument::AsFloat(want), "{text}");
            let Argument::AsFloat(got) = a else { unreachable!() };
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
        }
    }

    #[test]
    fn non_finite_floats() {
        let a: Argument = serde_json::from_str(r#"{"as_float": "-Infinity"}"#).unwrap();
        assert_eq!(a, Argument::AsFloat(f64::NEG_INFINITY));
        let a: Argument = serde_json::from_str(r#"{"as_floats": [1, 2.5, "NaN", "Infinity"]}"#).unwrap();
        match a {
            Argument::AsFloats(v) => {
                assert_eq!(v[0], 1.0);
                assert_eq!(v[1], 2.5);
                assert!(v[2].is_nan());
                assert_eq!(v[3], f64::INFINITY);
            }
            _ => panic!(),
        }
        let a: Argument = serde_json::from_str(r#"{"as_float_lists": [[1.0], ["-Infinity", 0]]}"#).unwrap();
        assert_eq!(a, Argument::AsFloatLists(vec![vec![1.0], vec![f64::NEG_INFINITY, 0.0]]));
        assert!(serde_json::from_str::<Argument>(r#"{"as_float": "inf-ish"}"#).is_err());
    }

    #[test]
    fn unknown_tag_is_named() {
        let err = serde_json::from_str::<Argument>(r#"{"as_quaternion": 1}"#).unwrap_err();
        assert!(err.to_string().contains("as_quaternion"), "{err}");
        let err = serde_json::from_str::<OutputSpec>(r#"{"teleport": {}}"#).unwrap_err();
        assert!(err.to_string().contains("teleport"), "{err}");
    }

    #[test]
    fn int_enums() {
        let a: Argument = serde_json::from_str(r#"{"as_scalar_type": 13}"#).unwrap();
        assert_eq!(a, Argument::AsScalarType(ScalarType::BFloat16));
        let err = serde_json::from_str::<Argument>(r#"{"as_scalar_type": 14}"#).unwrap_err();
        assert!(err.to_string().contains("unknown ScalarType value 14"), "{err}");
        for &t in ScalarType::ALL {
            assert_eq!(ScalarType::try_from(t.code()), Ok(t));
        }
    }

    #[test]
    fn large_ints() {
        let a: Argument = serde_json::from_str(r#"{"as_int": 9223372036854775807}"#).unwrap();
        assert_eq!(a, Argument::AsInt(i64::MAX));
        let a: Argument = serde_json::from_str(r#"{"as_ints": [-9223372036854775808]}"#).unwrap();
        assert_eq!(a, Argument::AsInts(vec![i64::MIN]));
    }
}
