"""The site: the store rendered to pages (pages.py, templates/), then a clean mkdocs-material build
(site.py, theme/), with originals, llms.txt and the link map.
"""

__all__: list[str] = []
