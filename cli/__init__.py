"""The ``carcam`` command line: one subcommand per job, composing the packages."""
