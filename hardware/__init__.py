"""The pin map and the installation files, shipped with the package."""
