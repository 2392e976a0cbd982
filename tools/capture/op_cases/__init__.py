"""The per-op cases of tools/capture/capture_op_tests.py, one module a family of ops.

Each module registers its cases with `op_case_lib.case` when imported and
imports what it uses (`case`, the input makers: tools/capture/op_case_lib.py).
capture_op_tests.py imports them all, in file-name order, after its own cases.
One module alone (with tools/capture on sys.path):

    cd tools/capture && ../../.venv/bin/python -c "import op_cases.nn, op_case_lib; print(len(op_case_lib.CASES))"
"""
