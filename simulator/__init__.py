"""Desktop simulator: pygame host running the same app code as the device."""
