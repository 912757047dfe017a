"""Host tests: the file-system tools, the drive model and its server, the
userland on Linux; no guest boots.  tools.py compiles and runs the tools."""
