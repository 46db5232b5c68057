from django.contrib import admin

from .models import Club, Membership, Player, Team


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
