"""Code generation targets (C host code, accelerator backends): filled in by later issues."""
