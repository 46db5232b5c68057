"""Named rule presets: a rule set's options bundled under a name ("FFB 2016", "Cypriot café 351").

The built-in presets and what a preset means (``catalog.py``), the presets an organizer saves
(``services.py``), and their pages, form and API (``views.py``, ``forms.py``, ``api.py``). The
public names of the first two are re-exported here: ``presets.preset_get(...)``."""

from .catalog import (
    ABOUT_MAX,
    BUILT_IN,
    COINCHE_WORDS,
    KNOWN_VALUES,
    NAME_MAX,
    NOT_A_RULE,
    OPTION_WORDS,
    RESERVED_SLUGS,
    TIME_LIMIT_MAX,
    OptionRow,
    Preset,
    defaults,
    option_fields,
    option_rows,
    option_words,
    preset_apply,
    preset_get,
    preset_list,
    preset_of,
    preset_slug,
)
from .services import INHERIT, preset_base, preset_create, preset_delete, preset_update

__all__ = [
    "ABOUT_MAX",
    "BUILT_IN",
    "COINCHE_WORDS",
    "INHERIT",
    "KNOWN_VALUES",
    "NAME_MAX",
    "NOT_A_RULE",
    "OPTION_WORDS",
    "RESERVED_SLUGS",
    "TIME_LIMIT_MAX",
    "OptionRow",
    "Preset",
    "defaults",
    "option_fields",
    "option_rows",
    "option_words",
    "preset_apply",
    "preset_base",
    "preset_create",
    "preset_delete",
    "preset_get",
    "preset_list",
    "preset_of",
    "preset_slug",
    "preset_update",
]
