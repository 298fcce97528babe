# tests/project.cmake — project-level checks, labelled "project".
