"""Path converters for the site's URLs."""

from __future__ import annotations


class RowId:
    """A row's id in a URL: 1 to 18 digits.  A longer number cannot be a row of
    ours (ids are 64-bit), so it is a 404 here rather than an overflow in the
    database driver."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
