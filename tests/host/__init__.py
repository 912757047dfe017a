"""Host tests: the file-system tools, the drive model and its server, the
userland on Linux; no guest boots.  toolbuild.py compiles and runs the
tools."""
