"""What is read and written besides the command line's own output: boards checked by
``verify``."""
