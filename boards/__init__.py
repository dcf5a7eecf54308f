"""Board definitions: one small module per supported board (pins, bus, display)."""
