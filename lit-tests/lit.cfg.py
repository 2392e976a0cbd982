# lit configuration: every .mlir / .test file here is a test whose RUN lines
# drive aten-opt / aten-translate and check the output with FileCheck.
# Run through tools/test.sh (it builds the tools and sets ATEN2ONNX_BIN_DIR).
import os

import lit.formats

config.name = "aten2onnx"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")
config.excludes = ["lit.cfg.py", "Inputs", "README.md", "Output"]

repo = os.path.dirname(config.test_source_root)
bin_dir = os.environ.get("ATEN2ONNX_BIN_DIR", os.path.join(repo, "target", "debug"))
llvm_bin = os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin")
for tool in ("aten-opt", "aten-translate"):
    if not os.path.exists(os.path.join(bin_dir, tool)):
        lit_config.fatal(f"{tool} not found in {bin_dir}: build with `cargo build` first (tools/test.sh does)")
config.environment["PATH"] = os.pathsep.join([bin_dir, llvm_bin, os.environ.get("PATH", "")])
config.substitutions.append(("%fixtures", os.path.join(repo, "tests", "fixtures")))
config.substitutions.append(("%corpus", os.path.join(repo, "tests", "corpus")))
config.substitutions.append(("%python", os.environ.get("ATEN2ONNX_PYTHON", os.path.join(repo, ".venv", "bin", "python"))))
# Tools built with the `torch` feature (libtorch): --verify works.
if os.environ.get("ATEN2ONNX_TORCH") == "1":
    config.available_features.add("torch")
for var in ("LD_LIBRARY_PATH", "ORT_DYLIB_PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
