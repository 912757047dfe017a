"""The course: labs/NAME/ (handout and manifest), labs/lab.py (strip, grade, check)."""
