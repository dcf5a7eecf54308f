"""The pygame window: the OLED scaled pixel-true, six buttons to click,
arrows and X (A) / Z (B) on the keyboard, F12 for a screenshot."""

import time

import pygame

from firmware import buttons

KEYMAP = {
    pygame.K_UP: buttons.UP,
    pygame.K_DOWN: buttons.DOWN,
    pygame.K_LEFT: buttons.LEFT,
    pygame.K_RIGHT: buttons.RIGHT,
    pygame.K_x: buttons.A,
    pygame.K_z: buttons.B,
}
ON = (200, 230, 255)
OFF = (8, 10, 20)
BEZEL = (40, 44, 52)
BUTTON = (90, 96, 110)
BUTTON_DOWN = (160, 170, 190)
LABEL = (230, 230, 230)


def _layout(width, height, scale):
    """Window size, the screen rectangle and the six button circles."""
    margin = 24
    screen = pygame.Rect(margin, margin, width * scale, height * scale)
    pad_y = screen.bottom + 70
    cx = margin + 70
    r = 22
    circles = {
        buttons.UP: (cx, pad_y - 44, r),
        buttons.DOWN: (cx, pad_y + 44, r),
        buttons.LEFT: (cx - 44, pad_y, r),
        buttons.RIGHT: (cx + 44, pad_y, r),
        buttons.B: (screen.right - 110, pad_y + 16, 26),
        buttons.A: (screen.right - 40, pad_y - 16, 26),
    }
    size = (max(screen.right + margin, 360), pad_y + 110)
    return size, screen, circles


def run(sim, scale=4, frames=None):
    """Open the window and run until it is closed (or for `frames` frames,
    for tests)."""
    pygame.init()
    scale = max(scale, 6 if sim.width >= 128 else 8)
    size, screen_rect, circles = _layout(sim.width, sim.height, scale)
    try:
        window = pygame.display.set_mode(size)
    except pygame.error as e:
        raise SystemExit("simulator: no display to open a window on (%s); try --headless "
                         "with --keys and --screenshot" % e)
    pygame.display.set_caption("Zehntausend - %s" % sim.board)
    font = pygame.font.Font(None, 22)
    surface = pygame.Surface((sim.width, sim.height))
    start = time.monotonic()
    mouse_bits = 0
    key_bits = 0
    shots = 0
    running = True
    clock = pygame.time.Clock()
    while running:
        if frames is not None:
            frames -= 1
            running = frames > 0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_F12:
                    shots += 1
                    sim.png("zehntausend-%d.png" % shots, scale)
                key_bits |= KEYMAP.get(event.key, 0)
            elif event.type == pygame.KEYUP:
                key_bits &= ~KEYMAP.get(event.key, 0)
            elif event.type == pygame.MOUSEBUTTONDOWN:
                mouse_bits = _hit(circles, event.pos)
            elif event.type == pygame.MOUSEBUTTONUP:
                mouse_bits = 0
        sim.held = key_bits | mouse_bits
        sim.now = int((time.monotonic() - start) * 1000)
        sim.app.step(sim.now, sim.held)
        _draw(window, surface, sim, screen_rect, circles, font)
        pygame.display.flip()
        clock.tick(50)
    pygame.quit()


def _hit(circles, pos):
    for bit, (x, y, r) in circles.items():
        if (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r:
            return bit
    return 0


def _draw(window, surface, sim, screen_rect, circles, font):
    window.fill(BEZEL)
    for y in range(sim.height):
        for x in range(sim.width):
            surface.set_at((x, y), ON if sim.pixel(x, y) else OFF)
    window.blit(pygame.transform.scale(surface, screen_rect.size), screen_rect)
    names = {buttons.UP: "↑", buttons.DOWN: "↓", buttons.LEFT: "←", buttons.RIGHT: "→",
             buttons.A: "A", buttons.B: "B"}
    for bit, (x, y, r) in circles.items():
        color = BUTTON_DOWN if sim.held & bit else BUTTON
        pygame.draw.circle(window, color, (x, y), r)
        label = font.render(names[bit], True, LABEL)
        window.blit(label, label.get_rect(center=(x, y)))
    help_text = font.render("keys: arrows, X = A, Z = B, F12 screenshot", True, LABEL)
    window.blit(help_text, (screen_rect.left, window.get_height() - 28))
