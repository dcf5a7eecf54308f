"""Device program: the app (screens, input, persistence) and the device adapters."""
