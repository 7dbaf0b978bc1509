"""Write: the extractive writer (``write``) and its ranking (``rank``, ``rank_model`` with ``rank_weights.json``,
``feedback``, ``semantic``, ``definitions``, ``unit_shape``, ``tables``), the model writer (``write_model``) and the model as
chooser (``select_model``)."""

__all__: list[str] = []
