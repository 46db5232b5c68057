"""The form of a preset copied with changes (or changed by its owner): a field per option, made from the
rule set's ``Options`` dataclass and the values it knows. It collects; ``scoring.presets`` decides."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import presets
from .catalog import Preset

NOT_OPTIONS = ("name", "about", "time_limit", "from")


def _closed(values: tuple[Any, ...], default: Any) -> forms.TypedChoiceField:
    """A select of the values the rule set knows (the default first); each value comes back typed."""
    by_text = {str(value): value for value in values}
    return forms.TypedChoiceField(
        choices=[(str(value), str(value)) for value in values],
        coerce=by_text.__getitem__,
        help_text=_("Usual: %(value)s") % {"value": default},
    )


def _option_field(ruleset: str, name: str, default: Any) -> forms.Field:
    """Booleans as a box to tick, closed lists as a select, whole numbers as a number."""
    known = presets.KNOWN_VALUES.get(ruleset, {})
    if name in known:
        field: forms.Field = _closed(known[name], default)
    elif isinstance(default, bool):
        field = forms.BooleanField(
            required=False, help_text=_("Usual: %(value)s") % {"value": _("yes") if default else _("no")}
        )
    elif isinstance(default, int):
        field = forms.IntegerField(help_text=_("Usual: %(value)s") % {"value": default})
    else:
        field = forms.CharField(max_length=40, help_text=_("Usual: %(value)s") % {"value": default})
    field.label = presets.option_words(ruleset, name)
    return field


class PresetForm(forms.Form):
    """A named copy of ``base`` with changes; ``editing``: the owner changes a saved preset (its name
    is kept, so the form has none)."""

    name = forms.CharField(max_length=presets.NAME_MAX, label=_("Name"))
    about = forms.CharField(
        max_length=presets.ABOUT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("What it is"),
        help_text=_("Who plays it, and where the rules come from"),
    )
    time_limit = forms.IntegerField(
        min_value=1,
        max_value=presets.TIME_LIMIT_MAX,
        required=False,
        label=_("Minutes a match or round"),
        help_text=_("Blank: untimed; a tournament made from the preset times its rounds so"),
    )

    def __init__(self, *args: Any, base: Preset, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.base, self.editing = base, editing
        if editing:
            del self.fields["name"]
        usual = presets.defaults(base.ruleset)
        self.option_names = []
        for option in presets.option_fields(base.ruleset):
            if option.name in NOT_OPTIONS:  # no game has one of these; a form field would hide it
                continue
            self.fields[option.name] = _option_field(base.ruleset, option.name, usual[option.name])
            value = base.options.get(option.name, usual[option.name])
            self.initial.setdefault(option.name, str(value) if option.name in self._closed_names() else value)
            self.option_names.append(option.name)
        self.initial.setdefault("time_limit", base.time_limit)
        if editing:
            self.initial.setdefault("about", base.about)

    def _closed_names(self) -> set[str]:
        return set(presets.KNOWN_VALUES.get(self.base.ruleset, {}))

    @property
    def option_fields(self) -> list[Any]:
        """The option fields, bound, in the rule set's order."""
        return [self[name] for name in self.option_names]

    def changes(self) -> dict[str, Any]:
        """Every option as posted: the service checks them together."""
        return {name: self.cleaned_data[name] for name in self.option_names}

    def add_refusal(self, field: str | None, message: str) -> None:
        """A service's refusal at its field (``options.base`` is the ``base`` field), or above the form."""
        name = (field or "").removeprefix("options.")
        self.add_error(name if name in self.fields else None, message)
