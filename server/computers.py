"""The computers: computer seats and stand-ins play at the device's pace,
with the plans and bots they need (solved or read once, kept in bounded
tables). Their actions go through the pipeline (server/pipeline.py)."""

import asyncio
import logging

from engine.bots import make_bot
from engine.levels import PLAN, TABLES, needs
from engine.plan_solver import solve_plan
from engine.turnplan import TurnPlan
from engine.view import View
from server.names import code_tag
from server.room import Refused
from server.store import STORE_ERRORS, StoreUnsure

log = logging.getLogger("server")


class Computers:
    """The hub's part that plays the computers (server/hub.py)."""

    def _kick_bots(self, live):
        """Start the room's computer task when a computer or a stand-in is
        to move and a person is there to watch it."""
        if live.room.to_move() is None or not self._people_here(live):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._bots(live))

    def _people_here(self, live):
        seats = live.room.state["seats"]
        return any(not seats[i]["kind"] for i in live.present if i < len(seats))

    async def _bots(self, live):
        """Play the computers' and stand-ins' actions at the device's pace
        (a save that fails is tried again at the next pace)."""
        try:
            while True:
                await asyncio.sleep(self.settings.bot_pace)
                if self.live.get(live.room.code) is not live:
                    return
                try:
                    async with live.lock:
                        room = live.room
                        who = room.to_move()
                        if who is None or not self._people_here(live):
                            return
                        seat, by = who
                        game = room.game
                        assert game is not None
                        kind = room.state["seats"][seat]["kind"] or self.settings.standin_level
                        bot = await self._bot(kind, game.rules)
                        action = bot.decide(View(game))
                        live.bot_task = None  # _change may start the next one; this one ends
                        await self._change(
                            live, lambda room, s=seat, a=action, b=by: room.act(s, a, b))
                        return
                except StoreUnsure:
                    return  # the room left memory (_keep)
                except STORE_ERRORS as e:  # nothing played: again at the next pace
                    live.bot_task = asyncio.current_task()
                    log.warning("room %s: the store failed (%s): the computer waits",
                                code_tag(live.room.code), type(e).__name__)
        except Refused:
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer failed in room %s", code_tag(live.room.code))

    async def _plan(self, rules):
        fp = rules.plan_rules().fingerprint()  # one plan for every target of a scoring
        plan = self.plans.get(fp)
        if plan is None:
            path = self.settings.tables / ("plan-%s.bin" % fp)
            if path.exists():
                with path.open("rb") as f:
                    plan = TurnPlan.from_file(f, rules)
            else:
                plan = await asyncio.to_thread(solve_plan, rules)
            self.plans[fp] = plan
        return plan

    async def _bot(self, kind, rules):
        key = (kind, rules.fingerprint())
        bot = self.bots.get(key)
        if bot is None:
            plan = await self._plan(rules) if needs(kind, PLAN) else None
            tables = str(self.settings.tables) if needs(kind, TABLES) else None
            bot = make_bot(kind, rules, plan, tables)
            self.bots[key] = bot
        return bot
