//! Symbolic-scalar op table.

use aten2onnx_dialects::sym::{self, SymResult};

#[test]
fn lookups() {
    let add = sym::lookup("_operator.add").unwrap();
    assert_eq!((add.op, add.arity, add.result), ("aten.sym.add", 2, SymResult::Promote));
    assert_eq!(sym::lookup("operator.add"), Some(add));
    assert_eq!(sym::lookup("_operator.truediv").unwrap().result, SymResult::Float);
    assert_eq!(sym::lookup("_operator.ge").unwrap().result, SymResult::Bool);
    assert_eq!(sym::lookup("torch.sym_max").unwrap().op, "aten.sym.max");
    assert_eq!(sym::lookup("torch.sym_ite").unwrap().arity, 3);
    assert_eq!(sym::lookup("torch._sym_sqrt").unwrap().op, "aten.sym.sqrt");
    assert_eq!(sym::lookup("torch.sym_sqrt").unwrap().op, "aten.sym.sqrt");
    assert_eq!(sym::lookup("math.ceil").unwrap().result, SymResult::Int);
    assert_eq!(sym::lookup("torch.sym_not").unwrap().op, sym::lookup("_operator.not_").unwrap().op);
    assert!(sym::lookup("_operator.getitem").is_none());
    assert!(sym::lookup("aten.add.Tensor").is_none());
}

#[test]
fn table_is_sorted_and_complete() {
    let all = sym::all();
    assert!(all.windows(2).all(|w| w[0].target < w[1].target));
    for t in [
        "_operator.add",
        "_operator.sub",
        "_operator.mul",
        "_operator.floordiv",
        "_operator.truediv",
        "_operator.mod",
        "_operator.pow",
        "_operator.neg",
        "_operator.eq",
        "_operator.ne",
        "_operator.lt",
        "_operator.le",
        "_operator.gt",
        "_operator.ge",
        "_operator.and_",
        "_operator.or_",
        "_operator.not_",
        "torch.sym_max",
        "torch.sym_min",
        "torch.sym_not",
        "torch.sym_float",
        "torch.sym_int",
        "torch.sym_ite",
        "torch.sym_sqrt",
        "math.ceil",
        "math.floor",
        "math.trunc",
    ] {
        let op = sym::lookup(t).unwrap_or_else(|| panic!("{t} missing"));
        assert!(op.op.starts_with("aten.sym."));
        assert!((1..=3).contains(&op.arity));
    }
}
