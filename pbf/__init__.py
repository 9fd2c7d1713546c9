"""pbf: a play-by-forum batch processor for Alter EGO ―オルタリゴ― and the rider battle game."""

__version__ = "0.1.0"
