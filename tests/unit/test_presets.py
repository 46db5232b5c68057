"""The built-in presets are valid rules, spelt out, and mean what their names say; a copy with changes
is checked by the rule set and keeps what it copied."""

import dataclasses

import pytest

from scoring import engine, presets
from scoring.engine import ScoringError
from scoring.models import RulePreset

BY_NAME = {preset.name: preset for preset in presets.BUILT_IN}


@pytest.mark.parametrize("preset", presets.BUILT_IN, ids=lambda p: p.slug)
def test_every_built_in_preset_is_valid_and_spelt_out(preset):
    rules = engine.get_ruleset(preset.ruleset)
    assert dict(preset.options) == rules.spelt_out(rules.options(preset.options))
    names = {f.name for f in dataclasses.fields(rules.Options)} - {"ended_after"}
    assert set(preset.options) == names  # every option, none of another game
    assert preset.slug and preset.about and preset.built_in


def test_built_in_names_and_slugs_are_unique_whatever_the_case():
    assert len({p.name.casefold() for p in presets.BUILT_IN}) == len(presets.BUILT_IN)
    assert len({p.slug for p in presets.BUILT_IN}) == len(presets.BUILT_IN)
    assert not {p.slug for p in presets.BUILT_IN} & presets.RESERVED_SLUGS


def test_there_is_a_built_in_preset_for_every_game():
    assert {p.ruleset for p in presets.BUILT_IN} == set(engine.RULESETS)


@pytest.mark.parametrize(
    ("name", "ruleset", "changed", "time_limit"),
    [
        ("FFB 2016", "coinche", {}, None),
        ("Cannes 2001 points or 40 minutes", "coinche", {"target": 2001, "timed_last_deal_exact": True}, 40),
        ("Contrée without announcements", "coinche", {"annonces": False}, None),
        ("Bulgarian federation", "bulgarian", {}, None),
        ("Cypriot café 351", "pilotta", {}, None),  # 351 is Pilotta's usual target
        ("Kafeneio 1000", "mpourloto", {}, None),
        ("French Belote 501", "french", {}, None),
        ("Belote Classic 501", "classic", {}, None),
    ],
)
def test_a_built_in_preset_sets_what_its_name_says(name, ruleset, changed, time_limit):
    preset = BY_NAME[name]
    usual = presets.defaults(ruleset)
    assert preset.ruleset == ruleset and preset.time_limit == time_limit
    assert {k: v for k, v in preset.options.items() if usual[k] != v} == changed


def test_the_cypriot_preset_plays_to_351_match_points():
    assert BY_NAME["Cypriot café 351"].options["target"] == 351


def test_a_preset_is_found_by_name_whatever_the_case_or_by_slug():
    assert presets.preset_get("ffb 2016") is BY_NAME["FFB 2016"]
    assert presets.preset_get("cannes-2001-points-or-40-minutes").name == "Cannes 2001 points or 40 minutes"


def test_applying_a_preset_puts_the_options_given_over_its_own():
    ruleset, options, name = presets.preset_apply(preset="Cannes 2001 points or 40 minutes", ruleset=None,
                                                  options={"base": 162})  # fmt: skip
    assert (ruleset, name) == ("coinche", "Cannes 2001 points or 40 minutes")
    assert options["target"] == 2001 and options["timed_last_deal_exact"] is True and options["base"] == 162


def test_a_preset_of_another_game_is_refused_and_none_is_the_game_given():
    with pytest.raises(ScoringError) as refused:
        presets.preset_apply(preset="FFB 2016", ruleset="pilotta", options={})
    assert refused.value.field == "preset" and "Coinche" in refused.value.message
    assert presets.preset_apply(preset="", ruleset=None, options=None) == ("mpourloto", {}, "")


def test_every_option_has_words():
    for key in engine.RULESETS:
        for field in presets.option_fields(key):
            assert str(presets.option_words(key, field.name)) != field.name, (key, field.name)


def test_the_rows_of_a_preset_say_which_options_differ_from_the_game():
    rows = {row.name: row for row in presets.option_rows(BY_NAME["Cannes 2001 points or 40 minutes"])}
    assert rows["target"].differs and rows["target"].value == 2001 and rows["target"].default == 1000
    assert rows["timed_last_deal_exact"].differs and rows["timed_last_deal_exact"].is_bool
    assert not rows["base"].differs
    assert "ended_after" not in rows


# A copy with changes (saved: the database) ----------------------------------------------------


@pytest.mark.django_db
def test_a_copy_with_changes_keeps_the_rest_and_names_what_it_copied(django_user_model):
    owner = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    copy = presets.preset_create(
        owner=owner, base="Cannes 2001 points or 40 minutes", name="Kafeneio contrée", changes={"base": 162}
    )
    cannes = BY_NAME["Cannes 2001 points or 40 minutes"]
    assert copy.ruleset == "coinche" and copy.based_on == cannes.name and copy.time_limit == 40
    assert dict(copy.options) == {**cannes.options, "base": 162}
    assert copy.slug == "kafeneio-contrée" and not copy.built_in  # a Greek name keeps its letters too
    assert presets.preset_get("KAFENEIO CONTRÉE") == copy


@pytest.mark.django_db
def test_a_copy_is_checked_by_the_rule_set_and_nothing_is_saved_when_refused(django_user_model):
    owner = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    for changes, field in [
        ({"base": 161}, "options.base"),
        ({"rounding": "up"}, "options.rounding"),
        ({"sa_ta": "yes"}, "options.sa_ta"),
        ({"trumps": 3}, "options.trumps"),
        ({"ended_after": 3}, "options.ended_after"),
    ]:
        with pytest.raises(ScoringError) as refused:
            presets.preset_create(owner=owner, base="FFB 2016", name="Bad", changes=changes)
        assert refused.value.field == field
    for name in ("ffb 2016", "  ", "x" * 81):
        with pytest.raises(ScoringError) as refused:
            presets.preset_create(owner=owner, base="coinche", name=name)
        assert refused.value.field == "name"
    assert not RulePreset.objects.exists()
