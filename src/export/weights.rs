//! Initializer bytes from the `.pt2` archive (memory-mapped, never copied
//! as a whole).

use super::{graph::Initializer, stream::Data};
use aten2onnx_pt2::{ScalarType, TensorData, Tensors};

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
pub fn resolve<'a>(archive: &'a Tensors, init: &Initializer) -> Result<Data<'a>, String> {
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

/// The files initializers of an imported ONNX model read from (the model
/// itself, external data files), each memory-mapped once; their pages are
/// released once written, like the archive's.
pub struct SourceFiles {
    maps: Vec<(String, super::pages::Pages)>,
}

impl SourceFiles {
    pub fn open(initializers: &[Initializer]) -> Result<SourceFiles, String> {
        let mut maps: Vec<(String, super::pages::Pages)> = Vec::new();
        for init in initializers {
            let Some((path, _, _)) = &init.source else { continue };
            if maps.iter().any(|(p, _)| p == path) {
                continue;
            }
            let pages = super::pages::Pages::open(std::path::Path::new(path))
                .map_err(|e| format!("{}: `{}` reads {path}, which cannot be opened: {e}", init.position, init.fqn))?;
            maps.push((path.clone(), pages));
        }
        Ok(SourceFiles { maps })
    }

    /// The bytes of `init` (which has a `source`), checked against its type.
    pub fn resolve(&self, init: &Initializer) -> Result<Data<'_>, String> {
        let (path, offset, length) = init.source.as_ref().expect("an initializer with a source");
        let pages = &self.maps.iter().find(|(p, _)| p == path).expect("opened").1;
        let bytes = pages.bytes();
        let end = offset.checked_add(*length).filter(|&e| e <= bytes.len() as u64).ok_or_else(|| {
            format!(
                "{}: `{}` reads bytes {offset}..{} of {path}, past its end ({} bytes)",
                init.position,
                init.fqn,
                offset.saturating_add(*length),
                bytes.len()
            )
        })?;
        let width: u64 = match init.data_type {
            2 | 3 | 9 | 17 | 18 | 19 | 20 | 24 => 1,
            4 | 5 | 10 | 16 => 2,
            1 | 6 | 12 => 4,
            7 | 11 | 13 | 14 => 8,
            15 => 16,
            other => {
                return Err(format!("{}: `{}` has ONNX data type {other}, not supported here", init.position, init.fqn))
            }
        };
        let count = init.dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(u64::try_from(d).ok()?));
        if count.and_then(|c| c.checked_mul(width)) != Some(*length) {
            return Err(format!(
                "{}: `{}` holds {length} bytes, but its type {:?} of data type {} needs another size",
                init.position, init.fqn, init.dims, init.data_type
            ));
        }
        Ok(Data::Contiguous(&bytes[*offset as usize..end as usize]))
    }

    /// Drops the pages of `data` from the process (best effort).
    pub fn release(&self, data: &Data<'_>) {
        for (_, pages) in &self.maps {
            pages.release(data);
        }
    }
}
