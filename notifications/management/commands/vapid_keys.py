"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as lines for .env."""

from django.core.management.base import BaseCommand

from notifications.services import vapid_keys_new


class Command(BaseCommand):
    help = "Print a new VAPID key pair (Web Push) as lines for .env. Keep the private key secret."
    requires_system_checks: list[str] = []  # it makes two keys: Django's checks would only delay it

    def handle(self, *args, **options) -> None:
        public, private = vapid_keys_new()
        self.stdout.write(f"TSOXA_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"TSOXA_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("TSOXA_VAPID_SUBJECT=mailto:you@example.org")
