"""A Monte Carlo bot for every game family (determinized playouts within the clock)."""
