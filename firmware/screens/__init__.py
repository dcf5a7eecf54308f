"""The app's screens: small objects on the app's stack (see firmware.app)."""
