//! The e-graph language: one generic node kind for every onnx op.
//!
//! An e-node is an onnx op as plain data — op type, domain, result count and
//! attributes in a hashable canonical form ([`Head`]) — with its operands as
//! children ([`ONode::Op`]). One e-class is one value:
//!
//! - an op with one result: the op node's e-class is that result;
//! - an op with several results: the op node's e-class is the tuple, and each
//!   used result is a projection `ONode::Proj(i, tuple)` in its own e-class;
//! - values defined outside the e-graph (block arguments, values captured
//!   from an enclosing region) are leaves `ONode::Leaf(i)`;
//! - ops that must not be rebuilt from their description (ops with regions,
//!   ops of other dialects, random ops, which two identical-looking copies of
//!   must stay two draws) are `ONode::Opaque(i, operands)`: distinct per op.
//!
//! Initializers (`onnx.initializer {name}`), constants (`onnx.Constant
//! {value}`) and `onnx.none` are ordinary ops without operands, so two
//! identical constants are one e-class. Nothing here depends on MLIR: the
//! converter (`convert.rs`) maps attributes it does not model to
//! [`AttrValue::Raw`] (an opaque handle it resolves again when rebuilding).

use egg::{Id, Language, Symbol};
use std::{fmt, sync::Arc};

/// ONNX `TensorProto.DataType` codes used by the rules.
pub mod dtype {
    pub const FLOAT: i32 = 1;
    pub const UINT8: i32 = 2;
    pub const INT8: i32 = 3;
    pub const UINT16: i32 = 4;
    pub const INT16: i32 = 5;
    pub const INT32: i32 = 6;
    pub const INT64: i32 = 7;
    pub const BOOL: i32 = 9;
    pub const FLOAT16: i32 = 10;
    pub const DOUBLE: i32 = 11;
    pub const UINT32: i32 = 12;
    pub const UINT64: i32 = 13;
    pub const BFLOAT16: i32 = 16;

    pub fn is_float(code: i32) -> bool {
        matches!(code, FLOAT | FLOAT16 | DOUBLE | BFLOAT16)
    }
}

/// The contents of a constant, when the converter read them (small tensors)
/// or a rule made them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Values {
    Ints(Vec<i64>),
    /// `f64::to_bits` of each element (exact for every float type we read).
    Floats(Vec<u64>),
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::Ints(v) => v.len(),
            Values::Floats(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` as f64 (ints converted).
    pub fn f64_at(&self, i: usize) -> f64 {
        match self {
            Values::Ints(v) => v[i] as f64,
            Values::Floats(v) => f64::from_bits(v[i]),
        }
    }

    pub fn ints(&self) -> Option<&[i64]> {
        match self {
            Values::Ints(v) => Some(v),
            Values::Floats(_) => None,
        }
    }

    /// True when every element equals `x` exactly (and there is at least one).
    /// `-0.0 == 0.0` here; callers that care about the sign check [`Values::all_bits`].
    pub fn all_eq(&self, x: f64) -> bool {
        !self.is_empty() && (0..self.len()).all(|i| self.f64_at(i) == x)
    }

    /// True when every element is a float with exactly the bits of `x`.
    pub fn all_bits(&self, x: f64) -> bool {
        match self {
            Values::Floats(v) => !v.is_empty() && v.iter().all(|&b| b == x.to_bits()),
            Values::Ints(v) => !v.is_empty() && x == 0.0 && x.is_sign_positive() && v.iter().all(|&e| e == 0),
        }
    }

    pub fn from_f64s(values: &[f64]) -> Values {
        Values::Floats(values.iter().map(|v| v.to_bits()).collect())
    }
}

/// A tensor attribute (`onnx.Constant {value = dense<...>}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tensor {
    /// The MLIR attribute it came from (uniqued by the context, so equal
    /// handles mean equal contents); `None` when a rule made it.
    pub raw: Option<u64>,
    pub elem: i32,
    pub shape: Vec<i64>,
    /// The elements, for tensors of at most [`crate::analysis::MAX_CONST_ELEMENTS`].
    pub values: Option<Values>,
}

impl Tensor {
    pub fn scalar_like(elem: i32, shape: Vec<i64>, values: Values) -> Tensor {
        Tensor { raw: None, elem, shape, values: Some(values) }
    }
}

/// One attribute value in canonical form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttrValue {
    /// INT (`i64`).
    Int(i64),
    /// FLOAT (`f32`), as f32 bits.
    Float(u32),
    /// INTS (`array<i64>`).
    Ints(Vec<i64>),
    /// STRING.
    Str(String),
    /// TENSOR.
    Tensor(Arc<Tensor>),
    /// Anything else, as an opaque handle the converter understands
    /// (MLIR attributes are uniqued: equal handles, equal attributes).
    Raw(u64),
}

impl AttrValue {
    pub fn float(x: f32) -> AttrValue {
        AttrValue::Float(x.to_bits())
    }
}

/// The default (ai.onnx) domain `""`, interned once: comparing symbols is
/// cheaper than resolving one to its text in the global symbol table.
pub fn default_domain() -> Symbol {
    static DEFAULT: std::sync::OnceLock<Symbol> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| Symbol::from(""))
}

/// What an op is, without its operands.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Head {
    /// ONNX domain, "" for ai.onnx.
    pub domain: Symbol,
    pub op: Symbol,
    /// How many results the op has (optional outputs change the op).
    pub results: u32,
    /// Sorted by name.
    pub attrs: Vec<(Symbol, AttrValue)>,
}

impl Head {
    pub fn new(op: &str, attrs: Vec<(&str, AttrValue)>) -> Head {
        let mut attrs: Vec<(Symbol, AttrValue)> = attrs.into_iter().map(|(k, v)| (Symbol::from(k), v)).collect();
        attrs.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        Head { domain: default_domain(), op: Symbol::from(op), results: 1, attrs }
    }

    pub fn is(&self, op: &str) -> bool {
        self.domain == default_domain() && self.op.as_str() == op
    }

    pub fn attr(&self, name: &str) -> Option<&AttrValue> {
        self.attrs.iter().find(|(k, _)| k.as_str() == name).map(|(_, v)| v)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            AttrValue::Int(v) => Some(*v),
            _ => None,
        }
    }

    pub fn float(&self, name: &str) -> Option<f32> {
        match self.attr(name)? {
            AttrValue::Float(v) => Some(f32::from_bits(*v)),
            _ => None,
        }
    }

    pub fn ints(&self, name: &str) -> Option<&[i64]> {
        match self.attr(name)? {
            AttrValue::Ints(v) => Some(v),
            _ => None,
        }
    }

    pub fn tensor(&self, name: &str) -> Option<&Arc<Tensor>> {
        match self.attr(name)? {
            AttrValue::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// True when every attribute is one the rules understand (no `Raw`):
    /// rules that rebuild an op from its attributes require this.
    pub fn fully_known(&self) -> bool {
        self.attrs.iter().all(|(_, v)| !matches!(v, AttrValue::Raw(_)))
    }
}

/// An e-node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ONode {
    /// An onnx op and its operands.
    Op(Arc<Head>, Vec<Id>),
    /// Result `i` of the multi-result op whose (tuple) e-class is the child.
    Proj(u32, [Id; 1]),
    /// A value defined outside the e-graph (index into the converter's table).
    Leaf(u32),
    /// An op kept as it is (index into the converter's table) and its operands.
    Opaque(u32, Vec<Id>),
}

/// What e-graph searches index nodes by: the op type for onnx ops.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Discriminant {
    Op(Symbol),
    Proj,
    Leaf,
    Opaque,
}

impl ONode {
    pub fn op(head: Head, children: Vec<Id>) -> ONode {
        ONode::Op(Arc::new(head), children)
    }

    pub fn head(&self) -> Option<&Arc<Head>> {
        match self {
            ONode::Op(h, _) => Some(h),
            _ => None,
        }
    }
}

impl Language for ONode {
    type Discriminant = Discriminant;

    fn discriminant(&self) -> Discriminant {
        match self {
            ONode::Op(h, _) => Discriminant::Op(h.op),
            ONode::Proj(..) => Discriminant::Proj,
            ONode::Leaf(_) => Discriminant::Leaf,
            ONode::Opaque(..) => Discriminant::Opaque,
        }
    }

    fn matches(&self, other: &Self) -> bool {
        match (self, other) {
            (ONode::Op(a, x), ONode::Op(b, y)) => a == b && x.len() == y.len(),
            (ONode::Proj(i, _), ONode::Proj(j, _)) => i == j,
            (ONode::Leaf(i), ONode::Leaf(j)) => i == j,
            (ONode::Opaque(i, x), ONode::Opaque(j, y)) => i == j && x.len() == y.len(),
            _ => false,
        }
    }

    fn children(&self) -> &[Id] {
        match self {
            ONode::Op(_, c) | ONode::Opaque(_, c) => c,
            ONode::Proj(_, c) => c,
            ONode::Leaf(_) => &[],
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            ONode::Op(_, c) | ONode::Opaque(_, c) => c,
            ONode::Proj(_, c) => c,
            ONode::Leaf(_) => &mut [],
        }
    }
}

impl fmt::Display for ONode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ONode::Op(h, _) if h.domain.as_str().is_empty() => write!(f, "{}", h.op),
            ONode::Op(h, _) => write!(f, "{}.{}", h.domain, h.op),
            ONode::Proj(i, _) => write!(f, "result{i}"),
            ONode::Leaf(i) => write!(f, "leaf{i}"),
            ONode::Opaque(i, _) => write!(f, "opaque{i}"),
        }
    }
}
