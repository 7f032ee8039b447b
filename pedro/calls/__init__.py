"""Calls of one function made in the project's own language, in the sandbox: build's examples and probes, and
repair's probes of Go and JavaScript fixes. run.py starts the child; py_calls.py and js_calls.mjs run in the
project's interpreter, and Go's calls are a test of their own added to the package through the go command's overlay."""
