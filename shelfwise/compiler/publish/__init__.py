"""The publish stage: the store rendered to pages (pages.py, with the page templates of shelfwise/templates/), then a
mkdocs-material build of the site (site.py, with the configuration, theme overrides and ask widget of shelfwise/site/),
with originals, llms.txt and the link map.
"""

__all__: list[str] = []
