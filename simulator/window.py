"""The pygame window: the OLED scaled pixel-true, six buttons to click,
arrows and X (A) / Z (B) on the keyboard, F12 for a screenshot (into
screenshots/ in the project folder; the window title and the console say
where)."""

import time
from pathlib import Path

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
SHOTS = Path(__file__).resolve().parent.parent / "screenshots"  # F12 (gitignored)
STEP_MS = 20  # app steps while something happens
IDLE_MS = 100  # app steps while nothing does (its timers still run)
BUSY_MS = 1000  # after a redraw, step at STEP_MS this long


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


def shot_path(folder):
    """The next free `zehntausend-N.png` in `folder` (made when missing)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while (folder / ("zehntausend-%d.png" % n)).exists():
        n += 1
    return folder / ("zehntausend-%d.png" % n)


def run(sim, scale=4, frames=None, seconds=None, shots=SHOTS):
    """Open the window and run until it is closed (or for `frames` passes
    or `seconds` of wall time, for tests). F12 writes a screenshot into
    `shots` (default: screenshots/ in the project folder, gitignored).

    The loop sleeps while nothing changes: it waits for input with a
    timeout, steps the app every STEP_MS while something happens (a key
    held, a redraw in the last second: computer turns, animations) and
    every IDLE_MS otherwise (timers such as the dimming keep running), and
    repaints only when the app redrew or a button's look changed."""
    pygame.init()
    scale = max(scale, 6 if sim.width >= 128 else 8)
    size, screen_rect, circles = _layout(sim.width, sim.height, scale)
    try:
        window = pygame.display.set_mode(size)
    except pygame.error as e:
        raise SystemExit("simulator: no display to open a window on (%s); try --headless "
                         "with --keys and --screenshot" % e)
    caption = "Zehntausend - %s" % sim.board
    pygame.display.set_caption(caption + " - F12: screenshot to %s" % _shown(shots))
    font = pygame.font.Font(None, 22)
    surface = pygame.Surface((sim.width, sim.height))
    start = time.monotonic()
    end = None if seconds is None else start + seconds
    mouse_bits = key_bits = 0
    busy_until = 0  # ms: step at STEP_MS until then
    next_step = 0
    paint = True
    running = True
    while running:
        if frames is not None:
            frames -= 1
            running = frames > 0
        now = int((time.monotonic() - start) * 1000)
        pace = STEP_MS if (sim.held or now < busy_until) else IDLE_MS
        first = pygame.event.wait(max(1, min(pace, next_step - now)))
        events = [first] + pygame.event.get() if first.type != pygame.NOEVENT else []
        for event in events:
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN:
                if event.key == pygame.K_F12:
                    path = shot_path(shots)
                    sim.png(str(path), scale)
                    print("simulator: screenshot written to %s" % path)
                    pygame.display.set_caption(caption + " - screenshot: %s" % path)
                key_bits |= KEYMAP.get(event.key, 0)
            elif event.type == pygame.KEYUP:
                key_bits &= ~KEYMAP.get(event.key, 0)
            elif event.type == pygame.MOUSEBUTTONDOWN:
                mouse_bits = _hit(circles, event.pos)
            elif event.type == pygame.MOUSEBUTTONUP:
                mouse_bits = 0
            elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWSHOWN):
                paint = True
        held = key_bits | mouse_bits
        now = int((time.monotonic() - start) * 1000)
        if held != sim.held:
            sim.held = held
            paint = True  # the button's look; the app sees it at once
            next_step = now
        if now >= next_step:
            sim.now = now
            if sim.step_at(now, held):
                paint = True
                busy_until = now + BUSY_MS
            next_step = now + (STEP_MS if (held or now < busy_until) else IDLE_MS)
        if paint:
            _draw(window, surface, sim, screen_rect, circles, font)
            pygame.display.flip()
            paint = False
        if end is not None and time.monotonic() >= end:
            running = False
    pygame.quit()


def _shown(folder):
    """`folder` relative to the working folder where it is inside it."""
    try:
        return str(Path(folder).resolve().relative_to(Path.cwd())) + "/"
    except ValueError:
        return str(folder)


# direction of each arrow button: (dx, dy) of its tip
ARROWS = {buttons.UP: (0, -1), buttons.DOWN: (0, 1), buttons.LEFT: (-1, 0),
          buttons.RIGHT: (1, 0)}


def arrow(bit, x, y, r):
    """The triangle of an arrow button centred at (x, y), radius r."""
    dx, dy = ARROWS[bit]
    tip = r // 2
    half = r // 2
    back = r // 3
    return [(x + dx * tip, y + dy * tip),
            (x - dx * back - dy * half, y - dy * back - dx * half),
            (x - dx * back + dy * half, y - dy * back + dx * half)]


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
    for bit, (x, y, r) in circles.items():
        color = BUTTON_DOWN if sim.held & bit else BUTTON
        pygame.draw.circle(window, color, (x, y), r)
        if bit in ARROWS:  # drawn: the default font has no arrow glyphs
            pygame.draw.polygon(window, LABEL, arrow(bit, x, y, r))
        else:
            label = font.render("A" if bit == buttons.A else "B", True, LABEL)
            window.blit(label, label.get_rect(center=(x, y)))
    help_text = font.render("keys: arrows, X = A, Z = B, F12 screenshot (screenshots/)",
                            True, LABEL)
    window.blit(help_text, (screen_rect.left, window.get_height() - 28))
