from django.contrib import admin

from .models import Club, Membership, Player, RecordEvent, Team


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "player_a", "player_b", "created_at"]
    search_fields = ["name", "player_a__name", "player_b__name"]
    autocomplete_fields = ["player_a", "player_b"]


class MembershipInline(admin.TabularInline):
    """A club's members, with the days they joined and left (a member who left keeps their row)."""

    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "can_write", "created_at"]
    search_fields = ["name", "city"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["admins"]
    inlines = [MembershipInline]


@admin.register(RecordEvent)
class RecordEventAdmin(admin.ModelAdmin):
    """The decisions about people's records, as they were made: read only (a decision is taken back by
    another, kept too)."""

    list_display = ["at", "action", "player", "by", "club"]
    list_filter = ["action"]
    search_fields = ["player__name", "by__username"]
    date_hierarchy = "at"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
