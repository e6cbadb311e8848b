"""Every text the tool prints or posts, made from plain data (never the ``Config``)."""
