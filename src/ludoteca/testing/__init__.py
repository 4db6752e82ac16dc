"""Helpers for the tests, the benchmarks and the tools that drive a real server: never
imported by the server itself (tests/test_import_graph.py checks it), kept in the
package so that a script run from bench/ or tools/ finds them without the test tree."""
