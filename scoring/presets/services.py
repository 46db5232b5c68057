"""Presets saved by an organizer: made as a copy of one (or of a game's defaults) with changes,
changed and deleted by their owner. Refusals name the field at fault (``engine.ScoringError``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from .. import engine
from ..models import RulePreset
from .catalog import (
    ABOUT_MAX,
    BUILT_IN,
    NAME_MAX,
    NOT_A_RULE,
    RESERVED_SLUGS,
    TIME_LIMIT_MAX,
    Preset,
    defaults,
    preset_get,
    preset_of,
)


def _checked_options(ruleset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Every option, spelt out, after the engine's check (its refusal names the option: ``options.base``)."""
    if not isinstance(options, Mapping):
        raise engine.ScoringError("must be an object of option names and values", field="options")
    for name in NOT_A_RULE:
        if name in options:
            raise engine.ScoringError(
                "a preset holds rules chosen before a match: ended_after is where a match ended",
                field=f"options.{name}",
            )
    rules = engine.get_ruleset(ruleset)
    return rules.spelt_out(rules.options(options))


def _checked_name(name: Any, *, exclude: int | None = None) -> str:
    if not isinstance(name, str) or not name.strip():
        raise engine.ScoringError("a preset needs a name", field="name")
    name = " ".join(name.split())
    if len(name) > NAME_MAX or not name.isprintable():
        raise engine.ScoringError(
            f"a preset's name has at most {NAME_MAX} characters, without control characters", field="name"
        )
    folded = name.casefold()
    rows = RulePreset.objects.all() if exclude is None else RulePreset.objects.exclude(pk=exclude)
    saved = rows.values_list("name", flat=True)
    taken = any(p.name.casefold() == folded for p in BUILT_IN) or any(o.casefold() == folded for o in saved)
    if taken:
        raise engine.ScoringError("a preset of that name exists already: choose another name", field="name")
    return name


def _checked_time_limit(time_limit: Any) -> int | None:
    if time_limit in (None, 0):
        return None
    whole = isinstance(time_limit, int) and not isinstance(time_limit, bool)
    if not whole or not 1 <= time_limit <= TIME_LIMIT_MAX:
        raise engine.ScoringError(
            f"a time limit is 1 to {TIME_LIMIT_MAX} minutes (none: untimed)", field="time_limit"
        )
    return time_limit


def _checked_about(about: Any) -> str:
    if not isinstance(about, str) or len(about) > ABOUT_MAX:
        raise engine.ScoringError(f"the description has at most {ABOUT_MAX} characters", field="about")
    return about.strip()


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=True)[:90] or "preset"
    taken = {p.slug for p in BUILT_IN} | RESERVED_SLUGS
    slug, n = base, 1
    while slug in taken or RulePreset.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def preset_base(base: Preset | str) -> Preset:
    """What a copy starts from: a preset (itself, its name or its slug) or a game's defaults (its key)."""
    if isinstance(base, Preset):
        return base
    key = (base or "").strip() if isinstance(base, str) else ""
    if key in engine.RULESETS:
        return Preset("", "", key, defaults(key))
    found = preset_get(key)
    if found is None:
        raise engine.ScoringError(
            f"no preset or game is named {key!r}; games: {', '.join(engine.RULESETS)}", field="based_on"
        )
    return found


INHERIT: Any = object()  # the time limit of the preset copied


@transaction.atomic
def preset_create(
    *,
    owner: Any,
    base: Preset | str,
    name: str,
    changes: Mapping[str, Any] | None = None,
    about: str = "",
    time_limit: int | None = INHERIT,
) -> Preset:
    """A copy of ``base`` (a preset, or a game's defaults by its key) with ``changes``, named: every
    option checked by the rule set and spelt out. Its time limit is the base's unless one is given
    (None: untimed). Nothing is saved when anything is refused."""
    start = preset_base(base)
    options = _checked_options(start.ruleset, {**start.options, **dict(changes or {})})
    clean_name = _checked_name(name)
    row = RulePreset(
        name=clean_name,
        slug=_unique_slug(clean_name),
        ruleset=start.ruleset,
        options=options,
        time_limit=_checked_time_limit(start.time_limit if time_limit is INHERIT else time_limit),
        based_on=start.name,
        about=_checked_about(about),
        owner=owner,
    )
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # the same name or slug saved a moment ago by someone else
        raise engine.ScoringError(
            "a preset of that name exists already: choose another name", field="name"
        ) from None
    return preset_of(row)


def _owned(preset: Preset, user: Any) -> RulePreset:
    if preset.built_in:
        raise engine.ScoringError("a built-in preset cannot be changed: make a copy of it", field="preset")
    if not preset.may_change(user):
        raise engine.ScoringError("only the preset's owner may change it", field="preset")
    assert preset.pk is not None  # not built in: a saved preset
    return RulePreset.objects.select_for_update().get(pk=preset.pk)


@transaction.atomic
def preset_update(
    *,
    preset: Preset,
    user: Any,
    changes: Mapping[str, Any] | None = None,
    about: str | None = None,
    time_limit: int | None = INHERIT,
    name: str | None = None,
) -> Preset:
    """Change a saved preset's options (``changes`` over its own), description or time limit; by its
    owner. It keeps its name: matches and match files name it (``name`` may only repeat it). The
    matches and tournaments made from it keep their options: a change never alters a result."""
    row = _owned(preset, user)
    if name is not None and " ".join(str(name).split()) != row.name:
        raise engine.ScoringError(
            "a preset keeps its name (matches and match files name it): make a copy to have another",
            field="name",
        )
    if changes:
        row.options = _checked_options(row.ruleset, {**row.options, **dict(changes)})
    if about is not None:
        row.about = _checked_about(about)
    if time_limit is not INHERIT:
        row.time_limit = _checked_time_limit(time_limit)
    row.save()
    return preset_of(row)


@transaction.atomic
def preset_delete(*, preset: Preset, user: Any) -> None:
    """Delete a saved preset; by its owner. The matches and tournaments made from it keep its name and
    their spelt-out options: nothing they scored changes."""
    _owned(preset, user).delete()
