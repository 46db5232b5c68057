from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Entry, Round, StandingsSnapshot, Table, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["team", "status", "seed", "contact"]
    autocomplete_fields = ["team"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "ruleset", "format", "status", "organizer", "created_at"]
    list_filter = ["ruleset", "format", "status"]
    search_fields = ["name", "slug"]
    readonly_fields = ["participants", "started_at", "finished_at", "created_at"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(SimpleHistoryAdmin):
    list_display = ["team", "player", "tournament", "status", "created_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["team__name", "player__name"]


class TableInline(admin.TabularInline):
    model = Table
    fields = ("number", "entry0", "partner0", "entry1", "partner1", "match")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["tournament", "number", "kind", "status", "created_at"]
    list_filter = ["kind", "status"]
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(SimpleHistoryAdmin):
    list_display = ["round", "number", "entry0", "entry1", "match"]
    readonly_fields = ["token"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "version", "computed_at"]
    readonly_fields = ["rows", "playoffs", "version", "computed_at"]
