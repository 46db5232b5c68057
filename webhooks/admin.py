from django.contrib import admin

from .models import Attempt, Delivery, Subscription


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ["url", "tournament", "club", "active", "consecutive_failures", "created_by", "created_at"]
    list_filter = ["active"]
    search_fields = ["url", "tournament__name", "club__name"]
    raw_id_fields = ["tournament", "club", "created_by"]
    readonly_fields = ["secret", "consecutive_failures", "paused_at", "created_at", "updated_at"]


class AttemptInline(admin.TabularInline):
    model = Attempt
    extra = 0
    can_delete = False
    readonly_fields = ["number", "manual", "at", "ok", "status_code", "error", "response", "duration_ms"]


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "event", "subscription", "status", "attempts", "created_at", "delivered_at"]
    list_filter = ["status", "event"]
    raw_id_fields = ["subscription"]
    readonly_fields = ["id", "event", "body", "attempts", "created_at", "delivered_at", "next_attempt_at"]
    inlines = [AttemptInline]
