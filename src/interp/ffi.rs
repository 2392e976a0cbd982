//! Bindings to the dispatcher shim (src/interp/shim.cpp).

use std::ffi::{c_char, c_void, CStr, CString};

pub const NONE: i32 = 0;
pub const TENSOR: i32 = 1;
pub const INT: i32 = 2;
pub const DOUBLE: i32 = 3;
pub const BOOL: i32 = 4;
pub const STRING: i32 = 5;
pub const INTS: i32 = 6;
pub const DOUBLES: i32 = 7;
pub const BOOLS: i32 = 8;
pub const TENSORS: i32 = 9;
pub const OPT_TENSORS: i32 = 10;
pub const SCALAR_TYPE: i32 = 11;
pub const DEVICE: i32 = 12;
pub const LAYOUT: i32 = 13;
pub const MEMORY_FORMAT: i32 = 14;
pub const WRAPPED_INT: i32 = 15;
pub const WRAPPED_DOUBLE: i32 = 16;
pub const WRAPPED_BOOL: i32 = 17;

#[repr(C)]
pub struct Arg {
    pub kind: i32,
    pub tensor: *mut c_void,
    pub i: i64,
    pub d: f64,
    pub s: *const c_char,
    pub ints: *const i64,
    pub doubles: *const f64,
    pub tensors: *const *mut c_void,
    pub len: usize,
}

impl Default for Arg {
    fn default() -> Self {
        Arg {
            kind: NONE,
            tensor: std::ptr::null_mut(),
            i: 0,
            d: 0.0,
            s: std::ptr::null(),
            ints: std::ptr::null(),
            doubles: std::ptr::null(),
            tensors: std::ptr::null(),
            len: 0,
        }
    }
}

#[repr(C)]
pub struct Out {
    pub kind: i32,
    pub tensor: *mut c_void,
    pub i: i64,
    pub d: f64,
    pub tensors: *mut *mut c_void,
    pub len: usize,
}

unsafe extern "C" {
    fn a2o_call(
        name: *const c_char,
        overload: *const c_char,
        args: *const Arg,
        nargs: usize,
        outs: *mut *mut Out,
        nouts: *mut usize,
    ) -> *mut c_char;
    fn a2o_call_named(
        name: *const c_char,
        overload: *const c_char,
        names: *const *const c_char,
        args: *const Arg,
        nargs: usize,
        outs: *mut *mut Out,
        nouts: *mut usize,
    ) -> *mut c_char;

    fn a2o_free_outs(outs: *mut Out, n: usize);
    fn a2o_free_string(s: *mut c_char);
    fn a2o_set_autocast_cpu(enabled: bool, dtype: i64, prev_enabled: *mut bool, prev_dtype: *mut i64);
}

/// Turns CPU autocast on or off for later calls, with `dtype` (a
/// c10::ScalarType code); returns the previous (enabled, dtype).
pub fn set_autocast_cpu(enabled: bool, dtype: i64) -> (bool, i64) {
    let (mut prev_enabled, mut prev_dtype) = (false, 0i64);
    unsafe { a2o_set_autocast_cpu(enabled, dtype, &mut prev_enabled, &mut prev_dtype) };
    (prev_enabled, prev_dtype)
}

/// A result of a call, with tensors owned by the caller.
pub enum Returned {
    None,
    Tensor(tch::Tensor),
    Int(i64),
    Double(f64),
    Bool(bool),
    Tensors(Vec<tch::Tensor>),
}

/// Calls `aten::<name>.<overload>` with boxed arguments (in schema order).
/// Keep everything the args point at alive for the call.
pub fn call(name: &str, overload: &str, args: &[Arg]) -> Result<Vec<Returned>, String> {
    call_with(name, overload, args, None)
}

/// [`call`] with the arguments by name (`names[k]` names `args[k]`): the
/// schema's defaults fill the others.
pub fn call_named(name: &str, overload: &str, names: &[&str], args: &[Arg]) -> Result<Vec<Returned>, String> {
    call_with(name, overload, args, Some(names))
}

fn call_with(name: &str, overload: &str, args: &[Arg], names: Option<&[&str]>) -> Result<Vec<Returned>, String> {
    let name_c = CString::new(name).map_err(|e| e.to_string())?;
    let overload_c = CString::new(overload).map_err(|e| e.to_string())?;
    let mut outs: *mut Out = std::ptr::null_mut();
    let mut n = 0usize;
    let error = match names {
        None => unsafe { a2o_call(name_c.as_ptr(), overload_c.as_ptr(), args.as_ptr(), args.len(), &mut outs, &mut n) },
        Some(names) => {
            let owned: Vec<CString> = names.iter().map(|s| CString::new(*s).unwrap_or_default()).collect();
            let pointers: Vec<*const c_char> = owned.iter().map(|s| s.as_ptr()).collect();
            unsafe {
                a2o_call_named(
                    name_c.as_ptr(),
                    overload_c.as_ptr(),
                    pointers.as_ptr(),
                    args.as_ptr(),
                    args.len(),
                    &mut outs,
                    &mut n,
                )
            }
        }
    };
    if !error.is_null() {
        let message = unsafe { CStr::from_ptr(error) }.to_string_lossy().into_owned();
        unsafe { a2o_free_string(error) };
        // libtorch messages carry a C++ backtrace after the first lines.
        let short: Vec<&str> = message.lines().take_while(|l| !l.starts_with("Exception raised from")).collect();
        return Err(short.join("\n"));
    }
    let mut results = Vec::with_capacity(n);
    for k in 0..n {
        let out = unsafe { &*outs.add(k) };
        results.push(match out.kind {
            TENSOR => Returned::Tensor(unsafe { tch::Tensor::from_ptr(out.tensor as *mut _) }),
            INT => Returned::Int(out.i),
            DOUBLE => Returned::Double(out.d),
            BOOL => Returned::Bool(out.i != 0),
            TENSORS => Returned::Tensors(
                (0..out.len).map(|j| unsafe { tch::Tensor::from_ptr(*out.tensors.add(j) as *mut _) }).collect(),
            ),
            _ => Returned::None,
        });
    }
    unsafe { a2o_free_outs(outs, n) };
    Ok(results)
}
