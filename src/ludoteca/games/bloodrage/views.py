"""Per-seat and spectator views, secrets, and determinization."""

from __future__ import annotations

from typing import Any

from ludoteca.engine import Rng

from .battle import card_bonus
from .board import str_at
from .components import (
    CARDS,
    FJORD_SUPPORTS,
    FJORDS,
    LOCATIONS,
    PROVINCES,
    REALM,
    RESERVE,
    RING,
    SLOTS,
    STATS,
    TRACKS,
    VALHALLA,
    VILLAGES,
    YGG,
)
from .rules import FLOW
from .state import BRState


def _card(cid: str) -> dict[str, Any]:
    """A card its holder sees: the face values a board draws (type, STR, cost, slot, goal)."""
    c = CARDS[cid]
    out: dict[str, Any] = {"id": cid, "name": c.name, "type": c.type, "age": c.age}
    if c.type == "battle":
        out["str"] = c.str
    elif c.type == "quest":
        out.update(goal=c.goal, glory=c.glory)
    else:
        out.update(slot=c.slot, str=c.str, cost=c.cost)
    return out


def _doom(state: BRState) -> str | None:
    """The province the doom token marks (after this age's Ragnarok, the next age's)."""
    for p in state.ragnarok[state.age - 1:]:
        if not state.destroyed[p]:
            return PROVINCES[p]
    return None


def view(state: BRState, seat: int | None) -> dict[str, Any]:
    figures: list[list[list[Any]]] = [[] for _ in LOCATIONS]
    for s in range(state.n):
        for kind, at in zip(state.kinds[s], state.locs[s], strict=True):
            if 0 <= at < len(LOCATIONS):
                figures[at].append([s, kind])
    provinces = []
    for p, pid in enumerate(PROVINCES):
        provinces.append({
            "id": pid, "realm": REALM[p], "villages": None if p == YGG else VILLAGES[p],
            "destroyed": state.destroyed[p], "pillaged": state.pillaged[p], "token": state.tokens[p],
            "figures": figures[p],
        })
    fjords = [{"id": f, "supports": [PROVINCES[p] for p in FJORD_SUPPORTS[k]], "figures": figures[len(PROVINCES) + k]}
              for k, f in enumerate(FJORDS)]
    clans = []
    for s in range(state.n):
        clans.append({
            # None while the seat has still to choose its clan (BR-104)
            "seat": s, "clan": state.clans[s] or None,
            "glory": state.glory[s], "rage": state.rage[s], "passed": state.passed[s],
            "stats": {STATS[k]: {"step": state.stats[s][k] + 1, "value": TRACKS[k][state.stats[s][k]]}
                      for k in range(3)},
            "upgrades": {SLOTS[k]: (CARDS[c].name if c else None) for k, c in enumerate(state.upgrades[s])},
            "hand": len(state.hands[s]), "quests": len(state.quests[s]), "pack": len(state.packs[s]),
            "reserve": sorted(k for k, at in zip(state.kinds[s], state.locs[s], strict=True) if at == RESERVE),
            "valhalla": sorted(k for k, at in zip(state.kinds[s], state.locs[s], strict=True) if at == VALHALLA),
        })
    data: dict[str, Any] = {
        "age": state.age, "phase": state.phase, "first": state.first,
        "turn": state.turn if state.phase == "action" else None,
        "ragnarok": [PROVINCES[p] for p in state.ragnarok],
        "ring": list(RING),  # the outer provinces in order round the board, for drawing it
        "doom": _doom(state),
        "provinces": provinces, "fjords": fjords, "clans": clans,
        "decks": [len(d) for d in state.decks],
        "task": state.stack[-1][0] if state.stack and state.stack[-1][0] in FLOW.steps else None,
        "over": state.over,
    }
    b = state.battle
    if b is not None:
        data["battle"] = {
            "province": PROVINCES[b.province], "pillager": b.pillager, "participants": b.participants[:],
            "chosen": [bool(c) for c in b.chosen],
            "played": [[CARDS[c].name for c in cards] for cards in b.played],
            "cancelled": [CARDS[c].name for c in b.cancelled], "out": b.out[:], "winner": b.winner,
            # each participant's STR now: figures plus revealed cards (face-down ones not counted)
            "strength": [str_at(state, s, b.province) + sum(card_bonus(state, s, c) for c in b.played[s])
                         for s in b.participants],
        }
    if state.march is not None:
        src, chosen = state.march
        data["march"] = {"from": PROVINCES[src], "figures": [state.kinds[state.turn][i] for i in chosen]}
    if seat is not None:
        you: dict[str, Any] = {
            "seat": seat,
            "hand": [_card(c) for c in state.hands[seat]],
            "pack": [_card(c) for c in state.packs[seat]],
            "quests": [_card(c) for c in state.quests[seat]],
        }
        if b is not None and b.chosen[seat]:
            you["chosen"] = _card(b.chosen[seat])
        if b is not None and b.played[seat]:
            # already revealed, so public; the ids let the board offer Tyr's Prowess on them
            you["played"] = [_card(c) for c in b.played[seat]]
        data["you"] = you
    return data


def secrets(state: BRState) -> dict[int | None, set[str]]:
    out: dict[int | None, set[str]] = {}
    for s in range(state.n):
        mine = set(state.hands[s]) | set(state.packs[s]) | set(state.quests[s])
        if state.battle is not None and state.battle.chosen[s]:
            mine.add(state.battle.chosen[s])
        out[s] = mine
    out[None] = {c for deck in state.decks for c in deck}
    return out


def determinize(state: BRState, seat: int, rng: Rng) -> BRState:
    """Resample every card ``seat`` cannot see: other hands, packs, face-down quests and
    battle cards, and the decks; card ages and quest-ness of face-down quests are kept."""
    copy = state.clone()
    decks = [list(d) for d in copy.decks]  # resampled in place, tuples again at the end
    slots: list[tuple[str, int, int]] = []  # (where, owner, index)
    for s in range(copy.n):
        if s == seat:
            continue
        slots.extend(("hand", s, i) for i in range(len(copy.hands[s])))
        slots.extend(("pack", s, i) for i in range(len(copy.packs[s])))
        slots.extend(("quest", s, i) for i in range(len(copy.quests[s])))
        if copy.battle is not None and copy.battle.chosen[s]:
            slots.append(("chosen", s, 0))
    for a, deck in enumerate(decks):
        slots.extend(("deck", a, i) for i in range(len(deck)))

    def get(slot: tuple[str, int, int]) -> str:
        where, o, i = slot
        if where == "hand":
            return copy.hands[o][i]
        if where == "pack":
            return copy.packs[o][i]
        if where == "quest":
            return copy.quests[o][i]
        if where == "chosen":
            assert copy.battle is not None
            return copy.battle.chosen[o]
        return decks[o][i]

    def put(slot: tuple[str, int, int], cid: str) -> None:
        where, o, i = slot
        if where == "hand":
            copy.hands[o][i] = cid
        elif where == "pack":
            copy.packs[o][i] = cid
        elif where == "quest":
            copy.quests[o][i] = cid
        elif where == "chosen":
            assert copy.battle is not None
            copy.battle.chosen[o] = cid
        else:
            decks[o][i] = cid

    by_age: dict[int, list[tuple[str, int, int]]] = {}
    for slot in slots:
        by_age.setdefault(CARDS[get(slot)].age, []).append(slot)
    for group in by_age.values():
        pool = [get(slot) for slot in group]
        rng.shuffle(pool)
        quests = [c for c in pool if CARDS[c].type == "quest"]
        others = [c for c in pool if CARDS[c].type != "quest"]
        quest_slots = [slot for slot in group if slot[0] == "quest"]
        for slot in quest_slots:
            put(slot, quests.pop())
        rest = quests + others
        rng.shuffle(rest)
        for slot in group:
            if slot[0] != "quest":
                put(slot, rest.pop())
    copy.decks = [tuple(d) for d in decks]
    return copy


def move_text(state: BRState, seat: int, move: dict[str, Any]) -> str:
    """A short English label for the terminal (the browser uses the i18n files)."""
    kind = move.get("type", "")
    name = CARDS[move["card"]].name.replace("_", " ") if move.get("card") in CARDS else ""
    card = CARDS.get(move.get("card", ""))
    if kind == "pick":
        assert card is not None
        detail = f"+{card.str}" if card.type == "battle" else (
            f"{card.goal} {card.glory} glory" if card.type == "quest" else f"{card.slot}, cost {card.cost}")
        return f"keep {name} ({card.type}: {detail})"
    if kind in ("invade", "free_invade", "valhalla_invade"):
        return f"{kind.replace('_', ' ')}: {move['figure'].replace('_', ' ')} -> {move['to']}"
    if kind == "upgrade":
        assert card is not None
        return f"upgrade: {name} into the {move['slot']} slot (cost {card.cost})"
    if kind in ("play", "play_extra", "keep", "keep_card", "quest"):
        return f"{kind.replace('_', ' ')}: {name}"
    if kind == "march":
        return f"march from {move['from']} (1 rage)"
    if kind == "march_add":
        return f"march: take a {move['figure'].replace('_', ' ')}"
    if kind == "march_to":
        return f"march: go to {move['to']}"
    if kind == "join":
        return f"join the battle: {move['figure'].replace('_', ' ')} from {move['from']}"
    if kind in ("pillage", "domain_pillage"):
        return f"pillage {move['province']}"
    if kind in ("keep_figure", "protect", "sacrifice_figure"):
        return f"{kind.replace('_', ' ')}: {move['figure'].replace('_', ' ')} in {move['at']}"
    if kind == "raise":
        return f"raise {move['stat']}"
    if kind == "move_leader":
        return f"move the leader to {move['to']}"
    if kind == "clan":
        return f"play the {move['clan']} clan"
    return kind.replace("_", " ")


def view_text(v: dict[str, Any]) -> str:
    lines = [f"Age {v['age']}, phase {v['phase']}; doom: {v['doom']}; first player: seat {v['first']}"]
    for c in v["clans"]:
        st = ", ".join(f"{k} {x['value']}" for k, x in c["stats"].items())
        ups = ", ".join(f"{k}: {n}" for k, n in c["upgrades"].items() if n)
        clan = c["clan"] or "no clan yet"
        lines.append(f"seat {c['seat']} ({clan}): glory {c['glory']}, rage {c['rage']}; {st}; hand {c['hand']}, "
                     f"quests {c['quests']}; reserve {len(c['reserve'])}, Valhalla {len(c['valhalla'])}"
                     + (f"; upgrades {ups}" if ups else ""))
    for p in v["provinces"]:
        if p["destroyed"]:
            lines.append(f"  {p['id']}: destroyed")
            continue
        figs = " ".join(f"{s}:{k}" for s, k in p["figures"]) or "-"
        room = "" if p["villages"] is None else f"/{p['villages']}"
        flag = "pillaged" if p["pillaged"] else f"reward {p['token']}"
        lines.append(f"  {p['id']} ({p['realm']}, {len(p['figures'])}{room}, {flag}): {figs}")
    for f in v["fjords"]:
        if f["figures"]:
            lines.append(f"  {f['id']}: " + " ".join(f"{s}:{k}" for s, k in f["figures"]))
    if "battle" in v:
        b = v["battle"]
        lines.append(f"battle in {b['province']} (pillager seat {b['pillager']}): participants {b['participants']}, "
                     f"revealed {b['played']}")
    you = v.get("you")
    if you:
        for key in ("hand", "pack", "quests"):
            if you[key]:
                lines.append(f"your {key}: " + ", ".join(c["name"].replace("_", " ") for c in you[key]))
    return "\n".join(lines)
