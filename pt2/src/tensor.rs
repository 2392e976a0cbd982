//! Zero-copy views of weight / constant payloads.

use crate::schema::ScalarType;

/// A weight or constant: its layout plus the raw storage bytes, borrowed from
/// the archive's memory map (nothing is copied or read until you touch `storage`).
///
/// `storage` is the whole storage file the tensor is a view of (several
/// tensors may share one storage, e.g. a tensor and a slice of it); the element
/// at index `(i0, i1, ...)` lives at element offset
/// `storage_offset + Σ ik * strides[k]` of `storage`. Data is little-endian.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorData<'a> {
    pub dtype: ScalarType,
    pub sizes: Vec<i64>,
    /// Strides in elements.
    pub strides: Vec<i64>,
    /// Offset into `storage`, in elements.
    pub storage_offset: i64,
    /// The raw storage bytes (a slice of the memory map). Validated at
    /// construction: every element of the view lies inside it.
    pub storage: &'a [u8],
    /// Whether the payload was an `nn.Parameter`.
    pub is_param: bool,
    pub requires_grad: bool,
}

impl<'a> TensorData<'a> {
    /// Bytes per element (never 0: `Unknown` dtypes are rejected earlier).
    pub fn element_size(&self) -> usize {
        self.dtype.element_size().unwrap_or(0)
    }

    /// Number of elements (product of sizes; 1 for a scalar).
    /// Saturates instead of overflowing (possible only for stride-0 views).
    pub fn numel(&self) -> u64 {
        self.sizes.iter().fold(1u64, |acc, &s| acc.saturating_mul(s as u64))
    }

    /// Size of the logical tensor in bytes (`numel * element_size`).
    pub fn nbytes(&self) -> u64 {
        self.numel().saturating_mul(self.element_size() as u64)
    }

    /// Dense row-major ("C-contiguous") layout? Dimensions of size 1 may have
    /// any stride, as in torch's `is_contiguous()`.
    pub fn is_contiguous(&self) -> bool {
        if self.numel() == 0 {
            return true;
        }
        let mut expected: i64 = 1;
        for (&size, &stride) in self.sizes.iter().zip(&self.strides).rev() {
            if size != 1 {
                if stride != expected {
                    return false;
                }
                expected = expected.saturating_mul(size);
            }
        }
        true
    }

    /// The tensor's bytes in row-major order, borrowed from the memory map,
    /// when the layout is contiguous; `None` otherwise (use `storage`,
    /// `strides` and `storage_offset` to gather the elements).
    pub fn contiguous_bytes(&self) -> Option<&'a [u8]> {
        if !self.is_contiguous() {
            return None;
        }
        let nbytes = self.nbytes() as usize;
        if nbytes == 0 {
            return Some(&self.storage[..0]);
        }
        let start = self.storage_offset as usize * self.element_size();
        self.storage.get(start..start + nbytes)
    }
}

/// Checks that the view described by the arguments stays inside a storage of
/// `storage_len` bytes. Returns a reason on failure.
pub(crate) fn check_view(
    dtype: ScalarType,
    sizes: &[i64],
    strides: &[i64],
    storage_offset: i64,
    storage_len: usize,
) -> Result<(), String> {
    let elem = dtype.element_size().ok_or_else(|| format!("unsupported dtype {}", dtype.name()))? as u128;
    if sizes.len() != strides.len() {
        return Err(format!("{} sizes but {} strides", sizes.len(), strides.len()));
    }
    if let Some(s) = sizes.iter().find(|&&s| s < 0) {
        return Err(format!("negative size {s}"));
    }
    if let Some(s) = strides.iter().find(|&&s| s < 0) {
        return Err(format!("negative stride {s}"));
    }
    if storage_offset < 0 {
        return Err(format!("negative storage offset {storage_offset}"));
    }
    if sizes.contains(&0) {
        return Ok(()); // empty tensor: touches no storage
    }
    // Largest element index reached by the view (u128: cannot overflow for i64 inputs
    // with a handful of dims, but check anyway).
    let mut last: u128 = storage_offset as u128;
    for (&size, &stride) in sizes.iter().zip(strides) {
        last = (size as u128 - 1)
            .checked_mul(stride as u128)
            .and_then(|v| v.checked_add(last))
            .ok_or_else(|| "view extent overflows".to_string())?;
    }
    let needed = (last + 1).checked_mul(elem).ok_or_else(|| "view extent overflows".to_string())?;
    if needed > storage_len as u128 {
        return Err(format!(
            "view (sizes {sizes:?}, strides {strides:?}, storage offset {storage_offset}, \
             dtype {}) needs {needed} bytes of storage but the stored payload has {storage_len}",
            dtype.name()
        ));
    }
    // A broadcast (stride-0) view may describe far more bytes than are
    // stored; writing it out (the ONNX writer materializes it) must stay
    // bounded by what the archive holds.
    let logical = sizes.iter().try_fold(elem, |acc, &s| acc.checked_mul(s as u128)).unwrap_or(u128::MAX);
    if logical > MAX_BROADCAST_FLOOR && logical > (storage_len as u128).saturating_mul(MAX_BROADCAST_RATIO) {
        return Err(format!(
            "view (sizes {sizes:?}, strides {strides:?}) describes {logical} bytes over a stored payload of \
             {storage_len} bytes: broadcast views more than {MAX_BROADCAST_RATIO} times (and {} MiB) larger \
             than their storage are refused",
            MAX_BROADCAST_FLOOR >> 20
        ));
    }
    Ok(())
}

/// See [`check_view`]: a view may describe at most this many times the
/// bytes of its storage, unless it is at most [`MAX_BROADCAST_FLOOR`] bytes.
pub(crate) const MAX_BROADCAST_RATIO: u128 = 1024;
pub(crate) const MAX_BROADCAST_FLOOR: u128 = 64 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    fn td<'a>(sizes: &[i64], strides: &[i64], off: i64, storage: &'a [u8]) -> TensorData<'a> {
        TensorData {
            dtype: ScalarType::Float,
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
            storage_offset: off,
            storage,
            is_param: false,
            requires_grad: false,
        }
    }

    #[test]
    fn contiguity() {
        let s = [0u8; 4 * 48];
        assert!(td(&[3, 16], &[16, 1], 0, &s).is_contiguous());
        assert_eq!(td(&[3, 16], &[16, 1], 0, &s).contiguous_bytes().unwrap().len(), 192);
        assert!(!td(&[16, 3], &[1, 16], 0, &s).is_contiguous());
        assert!(td(&[16, 3], &[1, 16], 0, &s).contiguous_bytes().is_none());
        // row of a matrix
        let row = td(&[16], &[1], 16, &s);
        let b = row.contiguous_bytes().unwrap();
        assert_eq!(b.len(), 64);
        assert_eq!(b.as_ptr(), s[64..].as_ptr());
        // size-1 dims ignore strides
        assert!(td(&[1, 16], &[999, 1], 0, &s).is_contiguous());
        assert!(td(&[], &[], 5, &s).is_contiguous());
        assert_eq!(td(&[], &[], 5, &s).contiguous_bytes().unwrap().len(), 4);
        assert_eq!(td(&[0, 7], &[7, 1], 0, &s).contiguous_bytes().unwrap().len(), 0);
    }

    #[test]
    fn broadcast_views_do_not_overflow() {
        let s = [0u8; 4];
        let t = td(&[1 << 62, 1 << 62], &[0, 0], 0, &s);
        // Such a view is refused (it would be written out as 2^126 bytes) ...
        let err = check_view(ScalarType::Float, &t.sizes, &t.strides, 0, 4).unwrap_err();
        assert!(err.contains("broadcast views"), "{err}");
        // ... as is [2^40, 8] over 8 floats; a small broadcast is fine.
        assert!(check_view(ScalarType::Float, &[1 << 40, 8], &[0, 1], 0, 32).is_err());
        assert!(check_view(ScalarType::Float, &[1024, 8], &[0, 1], 0, 32).is_ok());
        assert_eq!(t.numel(), u64::MAX);
        assert!(!t.is_contiguous());
        assert!(t.contiguous_bytes().is_none());
    }

    #[test]
    fn view_checks() {
        let f = ScalarType::Float;
        assert!(check_view(f, &[3, 16], &[16, 1], 0, 192).is_ok());
        assert!(check_view(f, &[3, 16], &[16, 1], 1, 192).is_err());
        assert!(check_view(f, &[16], &[1], 32, 192).is_ok());
        assert!(check_view(f, &[16], &[1], 33, 192).is_err());
        assert!(check_view(f, &[0, 5], &[5, 1], 0, 0).is_ok());
        assert!(check_view(f, &[-1], &[1], 0, 192).is_err());
        assert!(check_view(f, &[2], &[1, 1], 0, 192).is_err());
        assert!(check_view(f, &[i64::MAX, i64::MAX], &[i64::MAX, i64::MAX], 0, 192).is_err());
        assert!(check_view(ScalarType::Unknown, &[1], &[1], 0, 192).is_err());
    }
}
