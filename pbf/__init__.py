"""pbf: a play-by-forum batch processor for Alter EGO ―オルタリゴ― and the rider battle game."""

__version__ = "0.1.0"

# The project's public home (pyproject.toml's project.urls say the same; a test keeps them together).
# The opening post links the player's guide there unless the campaign sets guide_url.
PROJECT_URL = "https://github.com/pbf-battle/pbf"
GUIDE_URL = PROJECT_URL + "/blob/main/docs/guide/{system}.md"
