"""The web pages: views by area, their forms, URL modules and converters.
Thin glue around the core's one door."""
