from django import template

from notifications import services

register = template.Library()


@register.simple_tag
def push_public_key() -> str:
    """The server's VAPID public key, or '' when push is off (the opt-in is then not shown)."""
    return services.public_key()
