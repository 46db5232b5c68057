from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Deal, Match


class DealInline(admin.TabularInline):
    model = Deal
    fields = ("position", "data", "entered_by", "entered_at", "deleted_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # deals go through the services, which check them against the rules


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "ruleset", "target", "status", "winner", "created_at"]
    list_filter = ["ruleset", "status"]
    search_fields = ["team0__name", "team1__name"]
    readonly_fields = ["status", "winner", "state", "version", "finished_at", "created_at", "updated_at"]
    inlines = [DealInline]
    # The game, its options and the seats are fixed when the match starts: a change would
    # silently rescore every deal.
    fixed = [
        "ruleset",
        "options",
        "target",
        "first_dealer",
        "team0",
        "team1",
        "seat0",
        "seat1",
        "seat2",
        "seat3",
    ]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, *self.fixed] if obj else self.readonly_fields

    def has_add_permission(self, request) -> bool:
        return False  # matches start in the app, through the services


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "match", "position", "entered_by", "entered_at", "deleted_at"]
    list_filter = ["deleted_at"]
    readonly_fields = ["match", "position", "data", "client_key", "entered_by", "entered_at", "deleted_at"]

    def has_add_permission(self, request) -> bool:
        return False
