"""What each seat may see, the secrets, and determinization for search bots (HW-52)."""

from __future__ import annotations

from functools import cache
from typing import Any

from ludoteca.engine import Rng

from . import scoring, sheets
from .components import ATTRIBUTES, CITIZENS, DIRECTIONS, STOCK, components
from .state import HadriansWallState

C = components()
SEC = C.section_index
BOX_IDS = tuple(box.id for box in C.boxes)


def _player(state: HadriansWallState, seat: int, reader: int | None) -> dict[str, Any]:
    p = state.players[seat]
    own = reader == seat
    filled = {box_id: year for box_id, year in zip(BOX_IDS, p.boxes, strict=True) if year}
    out: dict[str, Any] = {
        "seat": seat,
        "filled": filled,
        "stock": dict(zip(STOCK, p.stock, strict=True)),
        "attributes": {a: p.count[SEC[a]] for a in ATTRIBUTES},
        "citizens": {c: p.count[SEC[c]] for c in CITIZENS},
        "cohorts": {d: p.count[SEC[f"cohort_{d}"]] for d in DIRECTIONS},
        "disdain": p.disdain,
        "final_disdain": scoring.final_disdain(p),
        "temple_favours": p.temple_favours,
        "diplomat_favours": dict(zip(DIRECTIONS, p.dir_favours, strict=True)),
        "diplomats": p.diplomat_dirs[:],
        "goods": p.goods[:],
        "gladiators": [{"strength": p.count[SEC[f"gladiator_{g + 1}"]], "damage": p.glad_damage[g],
                        "fought": p.glad_fought[g]} for g in range(2)],
        "map": [i for i in range(C.map_rows * C.map_cols) if p.map >> i & 1],
        "prospect": p.prospect,
        "chosen": p.chosen,
        "ended": p.ended,
        "todo": [item[:] for item in p.todo],
        "guideline_count": len(p.guidelines),
        "deck_size": len(p.deck),
        "extra_picts": p.extra_picts,
        "hits": dict(zip(DIRECTIONS, p.hits, strict=True)),
        "favours_used": p.favours_used,
        "defended": p.defended,
    }
    # The seed (and the rulebook) reveal both chosen cards together once every seat has
    # chosen, so guidelines are public from then on.
    out["guidelines"] = p.guidelines[:]
    if own:
        out["hand"] = p.hand[:]
        out["pending_guideline"] = p.pending_guideline
        out["pending_prospect"] = p.pending_prospect
        out["blocked"] = {box_id: why for box_id, why in sheets.box_status(state, seat).items()
                          if why not in ("filled", "earned")}
        out["score"] = scoring.score(state, seat)
    return out


@cache
def layout() -> dict[str, Any]:
    """The printed parts of the sheets and cards, for a client that draws them: every
    section and box (payments, reward icons, unlocks), the player cards, the fate cards,
    the year table and the scouting map. The same for every reader and every version.
    Fate cards are keyed by their number only: a card's full id is a secret while it is
    in the deck, and the hidden-information tests look for it in every view."""
    sections = []
    for sec in C.sections:
        boxes = []
        for b in sec.boxes:
            box = C.boxes[b]
            entry: dict[str, Any] = {"id": box.id, "pay": list(box.pay_labels)}
            if box.reward:
                entry["reward"] = list(box.reward)
            if box.lock:
                entry["lock"] = [[C.sections[s].id, least] for s, least in box.lock]
            if box.large:
                entry["large"] = True
            boxes.append(entry)
        sections.append({"id": sec.id, "sheet": sec.sheet, "kind": sec.kind, "earned": sec.earned,
                         "per_year": sec.per_year, "boxes": boxes})
    return {
        "sections": sections,
        "cards": {c.id: {"goal": c.goal, "thresholds": list(c.thresholds),
                         "gift": dict(zip(STOCK, c.gift, strict=True)), "good": c.good, "pattern": c.pattern}
                  for c in C.cards},
        "patterns": {name: [list(cell) for cell in cells] for name, cells in C.patterns.items()},
        "fate": {c.id.rsplit("-", 1)[1]: {"attack": c.attack, "gladiator": c.gladiator, "good": c.good,
                                          "gain": dict(zip(STOCK, c.gain, strict=True))} for c in C.fate},
        "years": [dict(row) for row in C.years],
        "disdain_penalty": list(C.disdain_penalty),
        "map": {"rows": C.map_rows, "cols": C.map_cols, "rewards": {str(k): v for k, v in C.map_rewards.items()}},
        "market_renown": list(C.market_renown),
        "gladiator": {"survive": [list(r) for r in C.glad_survive], "die": [list(r) for r in C.glad_die]},
    }


def view(state: HadriansWallState, seat: int | None) -> dict[str, Any]:
    return {
        "layout": layout(),
        "year": state.year,
        "phase": state.phase,
        "difficulty": state.difficulty,
        "resource_passing": state.passing,
        "seats": state.seats,
        "year_card": state.year_card,
        "flips": state.flips[:],
        "attack_cards": state.attack_cards[:],
        "last_attack": [dict(a) for a in state.last_attack],
        "fate_deck_size": len(state.fate_deck),
        "fate_discard_size": len(state.fate_discard),
        "neutral_open": state.neutral_open[:],
        "neutral_deck_size": len(state.neutral_deck),
        "players": [_player(state, s, seat) for s in range(state.seats)],
    }


def secrets(state: HadriansWallState) -> dict[int | None, set[str]]:
    out: dict[int | None, set[str]] = {None: set(state.fate_deck) | set(state.neutral_deck)}
    for seat, p in enumerate(state.players):
        out[None] |= set(p.deck)
        mine = set(p.hand)
        if p.pending_guideline:
            mine.add(p.pending_guideline)
        if p.pending_prospect:
            mine.add(p.pending_prospect)
        out[seat] = mine
    return out


def determinize(state: HadriansWallState, seat: int, rng: Rng) -> HadriansWallState:
    """Resample what ``seat`` cannot see: deck orders, other seats' hidden cards."""
    copy = state.clone()
    rng.shuffle(copy.fate_deck)
    rng.shuffle(copy.neutral_deck)
    for other, p in enumerate(copy.players):
        if other == seat:
            rng.shuffle(p.deck)
            continue
        pool = p.deck[:] + p.hand[:]
        if p.pending_guideline:
            pool.append(p.pending_guideline)
        if p.pending_prospect:
            pool.append(p.pending_prospect)
        rng.shuffle(pool)
        n_deck = len(p.deck)
        p.deck = pool[:n_deck]
        rest = pool[n_deck:]
        p.hand = rest[:len(p.hand)]
        rest = rest[len(p.hand):]
        if p.pending_guideline:
            p.pending_guideline = rest.pop(0)
        if p.pending_prospect:
            p.pending_prospect = rest.pop(0)
    return copy


def text(view: dict[str, Any]) -> str:
    """A compact terminal rendering of a view."""
    passing = "" if view["resource_passing"] or view["seats"] == 1 else ", no resource passing"
    lines = [f"Year {view['year']} ({view['phase']}, {view['difficulty']}{passing}); fate card {view['year_card']}; "
             f"flips {view['flips']}; last attack {view['attack_cards']}"]
    if view["neutral_open"]:
        lines.append(f"Neutral cards: {view['neutral_open']}")
    for p in view["players"]:
        stock = " ".join(f"{k} {v}" for k, v in p["stock"].items())
        attrs = " ".join(f"{k} {v}" for k, v in p["attributes"].items())
        cohorts = "/".join(str(v) for v in p["cohorts"].values())
        cit = " ".join(f"{k} {v}" for k, v in p["citizens"].items())
        lines.append(f"Seat {p['seat']}{' (ended)' if p['ended'] else ''}: {stock}")
        lines.append(f"  {attrs}; cohorts L/C/R {cohorts}; disdain {p['final_disdain']}; "
                     f"favours {p['temple_favours']}+{list(p['diplomat_favours'].values())}")
        lines.append(f"  {cit}; prospect {p['prospect']}; goods {[g for g in p['goods'] if g]}")
        if "hand" in p:
            lines.append(f"  hand {p['hand']}; guidelines {p.get('guidelines')}; score {p['score']['total']}")
    return "\n".join(lines)
