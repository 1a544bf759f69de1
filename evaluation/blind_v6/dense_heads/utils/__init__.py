from .grids import make_grid_points
from .misc import multi_apply, scale_by_level

__all__ = ["make_grid_points", "multi_apply", "scale_by_level"]
