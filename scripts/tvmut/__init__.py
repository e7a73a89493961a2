"""The parts of scripts/tv_mutate.py (mutation testing of `gcnsmt tv`), one job per module:
mir (MIR text and registers), targets (targets, memory-instruction layouts), interp and
interp_mem (the independent concrete interpreter and the judge), mutants (the mutation
operators), runner (running `gcnsmt tv`). The command line and the report are in the script."""
