//! `aten2onnx._native`: the compiler as a Python extension module, thin over
//! the `aten2onnx` library crate. The Python package (`python/aten2onnx/`)
//! runs `torch.export`, saves the program to a temporary `.pt2` and calls
//! [`convert`] here, in-process (no subprocess).
//!
//! Errors raise `aten2onnx.ConversionError` (a `RuntimeError`) with the
//! message `aten-translate` would print (without its `aten-translate: `
//! prefix). A panic inside the compiler (a bug) is caught and raised as a
//! `ConversionError` too, never left to unwind into Python.

use aten2onnx::{export::ExternalData, translate};
use pyo3::{create_exception, exceptions::PyRuntimeError, prelude::*};
use std::{
    collections::BTreeMap,
    panic::{self, AssertUnwindSafe},
    path::Path,
};

create_exception!(
    aten2onnx,
    ConversionError,
    PyRuntimeError,
    "The program could not be converted to ONNX (the message is the one aten-translate prints)."
);

/// Runs `body` with the GIL released and panics caught; a compiler error or
/// a panic becomes a `ConversionError`.
fn run<T: Send>(py: Python<'_>, input: &str, body: impl FnOnce() -> Result<T, String> + Send) -> PyResult<T> {
    let result = py.detach(|| panic::catch_unwind(AssertUnwindSafe(body)));
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(ConversionError::new_err(message)),
        Err(payload) => {
            let text = aten2onnx::guard::panic_message(payload.as_ref());
            Err(ConversionError::new_err(format!(
                "{input}: internal error (a bug in aten2onnx, please report it with this program): {text}"
            )))
        }
    }
}

// `..defaults`: fields added to ConvertOptions later keep their defaults.
#[allow(clippy::needless_update, clippy::too_many_arguments)]
fn options(
    opset: Option<i64>,
    external_data: &str,
    debug_info: bool,
    dim_names: Option<BTreeMap<String, String>>,
    target: &str,
    decompose: Option<Vec<String>>,
    half_precision: &str,
    quantize_weights: Option<&str>,
    custom_ops: Option<&str>,
) -> PyResult<translate::ConvertOptions> {
    let custom_ops = custom_ops
        .map(aten2onnx::custom_ops::CustomOps::load)
        .transpose()
        .map_err(|e| ConversionError::new_err(e.to_string()))?
        .map(std::sync::Arc::new);
    let quantize_weights = quantize_weights
        .map(translate::QuantizeWeights::parse)
        .transpose()
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let target = aten2onnx_passes::optimizer::rules::Target::parse(target).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!("target must be 'standard' or 'onnxruntime', not {target:?}"))
    })?;
    let native_half = match half_precision {
        "torch" => false,
        "native" => true,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "half_precision must be 'torch' or 'native', not {other:?}"
            )))
        }
    };
    let external_data = match external_data {
        "auto" => ExternalData::Auto,
        "always" => ExternalData::Always,
        "never" => ExternalData::Never,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "external_data must be 'auto', 'always' or 'never', not {other:?}"
            )))
        }
    };
    let defaults = translate::ConvertOptions::default();
    let opset = match opset.map(u32::try_from) {
        None => None,
        Some(Ok(opset)) => Some(opset),
        Some(Err(_)) => {
            use aten2onnx_passes::lowering::{MAX_OPSET, MIN_OPSET};
            return Err(ConversionError::new_err(format!(
                "--opset {} is outside the supported range {MIN_OPSET}..{MAX_OPSET}",
                opset.unwrap_or_default()
            )));
        }
    };
    Ok(translate::ConvertOptions {
        opset: opset.unwrap_or(defaults.opset),
        opset_given: opset.is_some(),
        external_data,
        debug_info,
        dim_names: dim_names.unwrap_or_default(),
        target,
        decompose: decompose.unwrap_or_default(),
        native_half,
        quantize_weights,
        custom_ops,
        // As `aten-translate`: verifiers on the input and the result (a
        // failure re-runs verifying each pass, so errors are the same).
        verification: translate::Verification::Result,
        ..defaults
    })
}

/// convert(input, output, opset=None, external_data="auto", debug_info=True, dim_names=None, report=None, input_name=None, target="standard", decompose=None, half_precision="torch", quantize_weights=None, custom_ops=None)
///
/// Converts a `.pt2` (or `.mlir`) file to an ONNX model at `output`, as
/// `aten-translate --to-onnx input -o output` does (written atomically:
/// nothing is left behind on error). `dim_names` maps the program's size
/// symbols (`"s77"`) to `dim_param` names (`"batch"`). `report`: a path to
/// write the export report to (JSON, or `.xlsx`), also when the conversion
/// fails; `input_name`: the input as the report names it (default `input`).
/// `target`, `decompose` and `half_precision` as `aten-translate --target` /
/// `--decompose` / `--half-precision`; `custom_ops` a translation library
/// as `--custom-ops`.
/// Returns the number of ONNX nodes written.
#[pyfunction]
#[pyo3(signature = (input, output, opset=None, external_data="auto", debug_info=true, dim_names=None, report=None, input_name=None, target="standard", decompose=None, half_precision="torch", quantize_weights=None, custom_ops=None))]
#[allow(clippy::too_many_arguments)]
fn convert(
    py: Python<'_>,
    input: String,
    output: String,
    opset: Option<i64>,
    external_data: &str,
    debug_info: bool,
    dim_names: Option<BTreeMap<String, String>>,
    report: Option<String>,
    input_name: Option<String>,
    target: &str,
    decompose: Option<Vec<String>>,
    half_precision: &str,
    quantize_weights: Option<&str>,
    custom_ops: Option<&str>,
) -> PyResult<usize> {
    let options = options(
        opset,
        external_data,
        debug_info,
        dim_names,
        target,
        decompose,
        half_precision,
        quantize_weights,
        custom_ops,
    )?;
    let shown = input.clone();
    run(py, &shown, move || {
        let output = Path::new(&output);
        let Some(report_path) = report else {
            return translate::convert(&input, output, &options).map(|r| r.nodes).map_err(|e| e.to_string());
        };
        let mut record = aten2onnx::report::Report::new("aten2onnx.export", input_name.as_deref().unwrap_or(&input));
        let result = translate::convert_reporting(&input, output, &options, Some(&mut record));
        if let Err(error) = &result {
            record.fail(error);
        }
        let written = record.write(&report_path);
        let nodes = result.map_err(|e| e.to_string())?.nodes;
        written.map_err(|e| e.to_string())?;
        Ok(nodes)
    })
}

/// verify(input, output, opset=None, external_data="auto", debug_info=True, dim_names=None, inputs=None, report=None, input_name=None, target="standard", decompose=None, half_precision="torch", quantize_weights=None, custom_ops=None)
///
/// `aten-translate --to-onnx input -o output --verify [--inputs inputs] [--report report]`:
/// converts, then runs the program on libtorch and the model in
/// onnxruntime. Returns `(ok, text)`: whether every output is within
/// tolerance, and the per-output report (with the first diverging op when
/// not ok). `report`/`input_name` as for `convert`; the report also holds
/// the comparison (`verify`). Only in builds with the `torch` feature (see
/// `has_verify`).
#[pyfunction]
#[pyo3(signature = (input, output, opset=None, external_data="auto", debug_info=true, dim_names=None, inputs=None, report=None, input_name=None, target="standard", decompose=None, half_precision="torch", quantize_weights=None, custom_ops=None))]
#[allow(clippy::too_many_arguments)]
#[allow(unused_variables)]
fn verify(
    py: Python<'_>,
    input: String,
    output: String,
    opset: Option<i64>,
    external_data: &str,
    debug_info: bool,
    dim_names: Option<BTreeMap<String, String>>,
    inputs: Option<String>,
    report: Option<String>,
    input_name: Option<String>,
    target: &str,
    decompose: Option<Vec<String>>,
    half_precision: &str,
    quantize_weights: Option<&str>,
    custom_ops: Option<&str>,
) -> PyResult<(bool, String)> {
    let options = options(
        opset,
        external_data,
        debug_info,
        dim_names,
        target,
        decompose,
        half_precision,
        quantize_weights,
        custom_ops,
    )?;
    #[cfg(feature = "torch")]
    {
        use aten2onnx::verify::{verify_reporting, VerifyOptions};
        let shown = input.clone();
        run(py, &shown, move || {
            let options = VerifyOptions { convert: options, inputs: inputs.map(std::path::PathBuf::from) };
            let Some(report_path) = report else {
                let verified =
                    verify_reporting(&input, Path::new(&output), &options, None).map_err(|e| e.to_string())?;
                return Ok((verified.ok(), verified.render()));
            };
            let mut record =
                aten2onnx::report::Report::new("aten2onnx.export", input_name.as_deref().unwrap_or(&input));
            let result = verify_reporting(&input, Path::new(&output), &options, Some(&mut record));
            match &result {
                Err(error) => record.fail(error),
                Ok(verified) if !verified.ok() => record.fail(&aten2onnx::Error::Verification(format!(
                    "{input}: the ONNX model differs from libtorch beyond tolerance"
                ))),
                Ok(_) => {}
            }
            let written = record.write(&report_path);
            let verified = result.map_err(|e| e.to_string())?;
            written.map_err(|e| e.to_string())?;
            Ok((verified.ok(), verified.render()))
        })
    }
    #[cfg(not(feature = "torch"))]
    {
        let _ = options;
        Err(ConversionError::new_err(VERIFY_UNAVAILABLE))
    }
}

#[cfg(not(feature = "torch"))]
const VERIFY_UNAVAILABLE: &str = "verify=True needs libtorch: this aten2onnx extension was built without the `torch` \
     feature (rebuild it with `maturin build --features torch`, see docs/python.md)";

/// cli_main(tool, args) -> int
///
/// Runs `aten-translate` or `aten-opt` (`tool`) on the command-line
/// arguments `args` (without the program name), as the binaries do: output
/// on stdout / files, messages on stderr; returns the exit code (0 or 1).
/// The Python package installs both commands through this
/// (`aten2onnx._cli`), so a wheel carries one copy of the compiler.
#[pyfunction]
fn cli_main(py: Python<'_>, tool: &str, args: Vec<std::ffi::OsString>) -> PyResult<i32> {
    let main = match tool {
        "aten-translate" => aten2onnx::cli::translate::main::<Vec<std::ffi::OsString>, std::ffi::OsString>,
        "aten-opt" => aten2onnx::cli::opt::main::<Vec<std::ffi::OsString>, std::ffi::OsString>,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "tool must be 'aten-translate' or 'aten-opt', not {other:?}"
            )))
        }
    };
    let argv: Vec<std::ffi::OsString> = std::iter::once(std::ffi::OsString::from(tool)).chain(args).collect();
    let code = py.detach(|| main(argv));
    Ok(if code == std::process::ExitCode::SUCCESS { 0 } else { 1 })
}

/// Whether this build can `verify` (the `torch` feature).
#[pyfunction]
fn has_verify() -> bool {
    cfg!(feature = "torch")
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ConversionError", m.py().get_type::<ConversionError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_OPSET", translate::ConvertOptions::default().opset)?;
    m.add("MIN_OPSET", aten2onnx_passes::lowering::MIN_OPSET)?;
    m.add("MAX_OPSET", aten2onnx_passes::lowering::MAX_OPSET)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(has_verify, m)?)?;
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    Ok(())
}
