"""The rules engine: the Game/State API, playouts, agents, checks and solvers."""
