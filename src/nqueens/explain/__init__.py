"""``explain``: a search made visible, step by step (``events``), as a tree
(``tree``) and as a page that pans and zooms (``page``)."""
