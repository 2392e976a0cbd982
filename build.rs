//! With `--features torch`, compiles the dispatcher shim (src/interp/shim.cpp)
//! against the libtorch of the Python torch install that tch links
//! (`LIBTORCH`, or the `python3` on PATH, as torch-sys does).

fn main() {
    println!("cargo:rerun-if-changed=src/interp/shim.cpp");
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    if std::env::var_os("CARGO_FEATURE_TORCH").is_none() {
        return;
    }
    #[cfg(feature = "torch")]
    torch::build();
}

#[cfg(feature = "torch")]
mod torch {
    use std::path::PathBuf;

    fn torch_dir() -> PathBuf {
        if let Some(dir) = std::env::var_os("LIBTORCH") {
            return PathBuf::from(dir);
        }
        let python = std::env::var("ATEN2ONNX_PYTHON").unwrap_or_else(|_| "python3".to_string());
        let out = std::process::Command::new(&python)
            .args(["-c", "import os, torch; print(os.path.dirname(torch.__file__))"])
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run {python} to find torch: {e} (run tools/setup.sh; source tools/env.sh)")
            });
        assert!(out.status.success(), "{python} cannot import torch: {}", String::from_utf8_lossy(&out.stderr));
        PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
    }

    pub fn build() {
        let torch = torch_dir();
        cc::Build::new()
            .cpp(true)
            .file("src/interp/shim.cpp")
            .include(torch.join("include"))
            .include(torch.join("include/torch/csrc/api/include"))
            .flag("-std=c++17")
            .flag("-D_GLIBCXX_USE_CXX11_ABI=1")
            .warnings(false)
            .compile("aten2onnx_shim");
        println!("cargo:rustc-link-search=native={}", torch.join("lib").display());
        println!("cargo:rustc-link-lib=dylib=torch_cpu");
        println!("cargo:rustc-link-lib=dylib=c10");
    }
}
