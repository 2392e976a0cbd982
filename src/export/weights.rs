//! Initializer bytes from the `.pt2` archive (memory-mapped, never copied
//! as a whole).

use super::{graph::Initializer, stream::Data};
use aten2onnx_pt2::{Archive, ScalarType, TensorData};

/// ONNX `TensorProto.DataType` of a torch dtype.
pub fn onnx_data_type(dtype: ScalarType) -> Option<i32> {
    use ScalarType::*;
    Some(match dtype {
        Float => 1,
        Byte => 2,
        Char => 3,
        UInt16 => 4,
        Short => 5,
        Int => 6,
        Long => 7,
        Bool => 9,
        Half => 10,
        Double => 11,
        UInt32 => 12,
        UInt64 => 13,
        ComplexFloat => 14,
        ComplexDouble => 15,
        BFloat16 => 16,
        Float8E4M3FN => 17,
        Float8E4M3FNUZ => 18,
        Float8E5M2 => 19,
        Float8E5M2FNUZ => 20,
        Float8E8M0FNU => 24,
        ComplexHalf | Unknown => return None,
    })
}

/// The archive tensor behind `init` (a weight, else a constant), checked
/// against the op's type, as row-major data.
pub fn resolve<'a>(archive: &'a Archive, init: &Initializer) -> Result<Data<'a>, String> {
    let tensor = match archive.weight(&init.fqn) {
        Ok(t) => t,
        Err(weight_error) => archive.constant(&init.fqn).map_err(|_| {
            format!(
                "{} names `{}`, which is neither a weight nor a constant of the archive ({weight_error})",
                init.position, init.fqn
            )
        })?,
    };
    check(&tensor, init)?;
    Ok(match tensor.contiguous_bytes() {
        Some(bytes) => Data::Contiguous(bytes),
        None => Data::Strided {
            storage: tensor.storage,
            element_size: tensor.element_size(),
            sizes: tensor.sizes.clone(),
            strides: tensor.strides.clone(),
            offset: tensor.storage_offset,
        },
    })
}

fn check(tensor: &TensorData<'_>, init: &Initializer) -> Result<(), String> {
    let data_type = onnx_data_type(tensor.dtype);
    if data_type != Some(init.data_type) {
        return Err(format!(
            "{}: `{}` is {} in the archive, but the op's type has ONNX data type {}",
            init.position,
            init.fqn,
            tensor.dtype.name(),
            init.data_type
        ));
    }
    if tensor.sizes != init.dims {
        return Err(format!(
            "{}: `{}` has shape {:?} in the archive, but the op's type says {:?}",
            init.position, init.fqn, tensor.sizes, init.dims
        ));
    }
    Ok(())
}
