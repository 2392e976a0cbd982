//! The storage positions as_strided reads, shared by as_strided and as_strided_scatter. Not a rule file.

use super::tensor_common::static_dims;
use crate::{Ctx, IntArg};
use melior::ir::{Value, ValueLike};

/// Ops whose result is a strided view of its input's storage: `as_strided`
/// of their result indexes that storage, not the contiguous tensor ONNX has.
const NON_CONTIGUOUS_VIEWS: &[&str] = &[
    "aten.transpose.int",
    "aten.permute.default",
    "aten.t.default",
    "aten.numpy_T.default",
    "aten.expand.default",
    "aten.diagonal.default",
    "aten.select.int",
    "aten.slice.Tensor",
    "aten.as_strided.default",
    "aten.unfold.default",
    "aten.movedim.int",
    "aten.movedim.intlist",
    "aten.swapaxes.default",
    "aten.narrow.default",
    "aten.split.Tensor",
    "aten.chunk.default",
    "aten.unbind.int",
    "aten.broadcast_to.default",
    "aten.expand_as.default",
    "aten.split_with_sizes.default",
    "aten.unsafe_split.Tensor",
    "aten.unsafe_chunk.default",
    "aten.hsplit.int",
    "aten.hsplit.array",
    "aten.vsplit.int",
    "aten.vsplit.array",
    "aten.dsplit.int",
    "aten.dsplit.array",
    "aten.tensor_split.sections",
    "aten.tensor_split.indices",
    "aten.tensor_split.tensor_indices_or_sections",
    "aten.linalg_diagonal.default",
    "aten.matrix_H.default",
    "aten.mT.default",
    "aten.mH.default",
    "aten.adjoint.default",
];

/// The flat positions (in `x`'s contiguous storage) `as_strided` reads,
/// from the op's `size`, `stride` and `storage_offset` arguments, with the
/// result shape; shared with `as_strided_scatter`.
pub(super) fn strided_positions(ctx: &Ctx<'_, '_>, x: Value<'_, '_>) -> Result<(Vec<u64>, Vec<i64>), String> {
    let statics = |v: Vec<IntArg>| -> Result<Vec<i64>, String> {
        v.into_iter()
            .map(|a| match a {
                IntArg::Static(n) => Ok(n),
                IntArg::Dynamic(_) => Err("as_strided with symbolic sizes or strides is not supported".to_string()),
            })
            .collect()
    };
    let size = statics(ctx.args.sym_ints("size")?)?;
    let stride = statics(ctx.args.sym_ints("stride")?)?;
    let offset = match ctx.args.opt_sym_int("storage_offset")? {
        None => 0,
        Some(IntArg::Static(n)) => n,
        Some(IntArg::Dynamic(_)) => return Err("as_strided with a symbolic storage_offset is not supported".into()),
    };
    if size.len() != stride.len() || size.iter().any(|&s| s < 0) || stride.iter().any(|&s| s < 0) || offset < 0 {
        return Err("as_strided: size and stride must have the same length, with non-negative entries".into());
    }
    unsafe {
        if mlir_sys::mlirValueIsAOpResult(x.to_raw()) {
            let owner = melior::ir::OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(x.to_raw()));
            let name = crate::ir::op_name(owner);
            if NON_CONTIGUOUS_VIEWS.contains(&name.as_str()) {
                return Err(format!(
                    "as_strided of the result of {name} (a strided view: its storage layout differs from the tensor's) is not supported"
                ));
            }
        }
    }
    let numel: i64 = static_dims(ctx, x, "as_strided")?.iter().product();
    let total: i64 = size.iter().product();
    if total > 1 << 24 {
        return Err("as_strided result too large for constant indices".into());
    }
    let mut indices = Vec::with_capacity(total as usize);
    let mut counter = vec![0i64; size.len()];
    for _ in 0..total {
        indices.push(offset + counter.iter().zip(&stride).map(|(i, s)| i * s).sum::<i64>());
        for k in (0..size.len()).rev() {
            counter[k] += 1;
            if counter[k] < size[k] {
                break;
            }
            counter[k] = 0;
        }
    }
    if let Some(&max) = indices.iter().max() {
        if max >= numel {
            return Err(format!("as_strided reads element {max}, outside the input's {numel} elements"));
        }
    }
    let shape: Vec<u64> = size.iter().map(|&s| s as u64).collect();
    Ok((shape, indices))
}
