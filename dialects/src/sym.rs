//! Symbolic-scalar operations that torch.export graphs contain outside the
//! `aten` namespace (hand-written, not generated).
//!
//! A torch.export graph computes on symbolic sizes (SymInt / SymFloat /
//! SymBool) with plain Python callables. The .pt2 serializer writes their
//! targets as `<module>.<__name__>`: `_operator.add`, `torch.sym_max`,
//! `torch._sym_sqrt` (the `__name__` of `torch.sym_sqrt`), `math.trunc`.
//! The set follows `_SYM_OPS` of `torch/_export/serde/serialize.py`, plus
//! `math.ceil` / `math.floor` and the spelling `torch.sym_sqrt`.
//! Each target maps to an op of the `aten.sym` MLIR namespace.

/// The kind of the result of a symbolic op.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymResult {
    /// Python numeric promotion of the operands: int if every operand is an
    /// int, float otherwise (`add`, `mul`, `floordiv`, `sym_max`, `neg`, ...).
    Promote,
    Int,
    Float,
    Bool,
    /// The kind of the two branch operands (operands 1 and 2 of `sym_ite`).
    SameAsBranches,
}

/// One symbolic-scalar call target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SymOp {
    /// The serialized node target (`_operator.add`).
    pub target: &'static str,
    /// The MLIR operation name (`aten.sym.add`).
    pub op: &'static str,
    /// Number of (positional) operands.
    pub arity: usize,
    pub result: SymResult,
}

const fn s(target: &'static str, op: &'static str, arity: usize, result: SymResult) -> SymOp {
    SymOp { target, op, arity, result }
}

use SymResult::*;

/// All symbolic ops, sorted by target.
pub static SYM_OPS: &[SymOp] = &[
    s("_operator.add", "aten.sym.add", 2, Promote),
    s("_operator.and_", "aten.sym.and", 2, Bool),
    s("_operator.eq", "aten.sym.eq", 2, Bool),
    s("_operator.floordiv", "aten.sym.floordiv", 2, Promote),
    s("_operator.ge", "aten.sym.ge", 2, Bool),
    s("_operator.gt", "aten.sym.gt", 2, Bool),
    s("_operator.le", "aten.sym.le", 2, Bool),
    s("_operator.lshift", "aten.sym.lshift", 2, Int),
    s("_operator.lt", "aten.sym.lt", 2, Bool),
    s("_operator.mod", "aten.sym.mod", 2, Promote),
    s("_operator.mul", "aten.sym.mul", 2, Promote),
    s("_operator.ne", "aten.sym.ne", 2, Bool),
    s("_operator.neg", "aten.sym.neg", 1, Promote),
    s("_operator.not_", "aten.sym.not", 1, Bool),
    s("_operator.or_", "aten.sym.or", 2, Bool),
    s("_operator.pos", "aten.sym.pos", 1, Promote),
    s("_operator.pow", "aten.sym.pow", 2, Promote),
    s("_operator.rshift", "aten.sym.rshift", 2, Int),
    s("_operator.sub", "aten.sym.sub", 2, Promote),
    s("_operator.truediv", "aten.sym.truediv", 2, Float),
    s("math.ceil", "aten.sym.ceil", 1, Int),
    s("math.floor", "aten.sym.floor", 1, Int),
    s("math.trunc", "aten.sym.trunc", 1, Int),
    s("torch._sym_sqrt", "aten.sym.sqrt", 1, Float),
    s("torch.sym_float", "aten.sym.float", 1, Float),
    s("torch.sym_int", "aten.sym.int", 1, Int),
    s("torch.sym_ite", "aten.sym.ite", 3, SameAsBranches),
    s("torch.sym_max", "aten.sym.max", 2, Promote),
    s("torch.sym_min", "aten.sym.min", 2, Promote),
    s("torch.sym_not", "aten.sym.not", 1, Bool),
    s("torch.sym_sqrt", "aten.sym.sqrt", 1, Float),
];

/// All symbolic ops, sorted by target.
pub fn all() -> &'static [SymOp] {
    SYM_OPS
}

/// The symbolic op of a node target (`_operator.add`). Also accepts the
/// `operator.` spelling of the `_operator.` module.
pub fn lookup(target: &str) -> Option<&'static SymOp> {
    let find = |t: &str| SYM_OPS.binary_search_by(|op| op.target.cmp(t)).ok().map(|i| &SYM_OPS[i]);
    find(target).or_else(|| target.strip_prefix("operator.").and_then(|rest| find(&format!("_operator.{rest}"))))
}
