"""The API's JSON parser: a body it cannot read is a 400, never a server error.

DRF's JSONParser already turns most bad JSON into a ParseError, but not a body nested so deep
that the decoder runs out of stack (100,000 "[" raise RecursionError, a 500). This one catches
that too, and refuses JSON nested deeper than any of our documents go (a match file is five
levels deep), so that no code behind the parser has to walk an absurd structure.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32


def _depth(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (0 for a plain value), without recursion; only
    containers are walked, and the walk stops as soon as it is too deep."""
    containers = (dict, list)
    if not isinstance(data, containers):
        return 0
    deepest, stack = 1, [(data, 1)]
    while stack:
        value, level = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        inner = [child for child in children if isinstance(child, containers)]
        if inner:
            if level + 1 > MAX_DEPTH:
                return level + 1
            deepest = max(deepest, level + 1)
            stack.extend((child, level + 1) for child in inner if child)  # an empty one goes no deeper
    return deepest


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except (RecursionError, ValueError, UnicodeDecodeError) as error:
            raise ParseError(_("The body is not valid JSON.")) from error
        if _depth(data) > MAX_DEPTH:
            raise ParseError(_("The body is nested too deeply."))
        return data
