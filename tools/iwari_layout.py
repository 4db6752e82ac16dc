"""Give every Iwari map a drawing layout (hex territories, tent-space and totem positions,
connection badge positions), written into the map JSON files. Run it again after changing a map:

    .venv/bin/python tools/iwari_layout.py
"""
import itertools
import json
import math
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "src/ludoteca/games/iwari/data"
R = 118                       # hex radius (centre to corner)
W = math.sqrt(3) * R          # pointy-top hex width
COLS, ROWS = 4, 3
M = 16

def cell_center(c, r):
    x = M + W / 2 + c * W + (W / 2 if r % 2 else 0)
    y = M + R + r * 1.5 * R
    return x, y

CELLS = [(c, r) for r in range(ROWS) for c in range(COLS)]
CENTERS = [cell_center(c, r) for c, r in CELLS]
WIDTH = round(M * 2 + W * (COLS + 0.5))
HEIGHT = round(M * 2 + 2 * R + (ROWS - 1) * 1.5 * R)

def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])

def layout(path):
    data = json.loads(path.read_text())
    terr = data["territories"]
    tid = {t["id"]: i for i, t in enumerate(terr)}
    edges = []  # territory pairs that want to be neighbours (connections weigh more)
    for c in data["connections"]:
        edges.append((tid[c["between"][0]], tid[c["between"][1]], 2))
    for a, b in data["roads"]:
        edges.append((tid[a.split(".")[0]], tid[b.split(".")[0]], 1))
    for a, b in zip(data.get("purple_road", []), data.get("purple_road", [])[1:], strict=False):
        ta, tb = tid[a.split(".")[0]], tid[b.split(".")[0]]
        if ta != tb:
            edges.append((ta, tb, 1))

    def cost(assign):
        total = 0
        for a, b, w in edges:
            d = dist(CENTERS[assign[a]], CENTERS[assign[b]]) / W
            total += w * (d if d < 1.05 else d * 4)
        return total

    rng = random.Random(7)
    best, best_cost = None, 1e18
    for _ in range(30):
        assign = list(range(12))
        rng.shuffle(assign)
        cur = cost(assign)
        temp = 5.0
        for _step in range(6000):
            i, j = rng.sample(range(12), 2)
            assign[i], assign[j] = assign[j], assign[i]
            new = cost(assign)
            if new <= cur or rng.random() < math.exp((cur - new) / temp):
                cur = new
            else:
                assign[i], assign[j] = assign[j], assign[i]
            temp *= 0.999
        if cur < best_cost:
            best, best_cost = assign[:], cur
    assign = best
    far = [(terr[a]["id"], terr[b]["id"]) for a, b, _ in edges
           if dist(CENTERS[assign[a]], CENTERS[assign[b]]) > W * 1.05]
    print(path.name, "cost", round(best_cost, 1), "non-adjacent:", far, file=sys.stderr)

    # Spaces on six slots facing the hex's edges; ends of links face their neighbours.
    pos = {}
    for t, entry in enumerate(terr):
        cx, cy = CENTERS[assign[t]]
        n = entry["spaces"]
        want = {}  # space number -> list of angles towards linked territories
        links = [(c["ends"][0], c["ends"][1]) for c in data["connections"]] + [tuple(r) for r in data["roads"]]
        for a, b in links:
            for mine, other in ((a, b), (b, a)):
                tm, sm = mine.split(".")
                to = other.split(".")[0]
                if tm == entry["id"]:
                    ox, oy = CENTERS[assign[tid[to]]]
                    want.setdefault(int(sm), []).append(math.atan2(oy - cy, ox - cx))
        slots = [math.radians(a) for a in (0, 60, 120, 180, 240, 300)] if n <= 6 else None
        inner = [tuple(r) for r in entry["roads"]]
        best_p, best_c = None, 1e18
        for perm in itertools.permutations(range(6), n):
            c = 0.0
            for s in range(n):
                for ang in want.get(s + 1, []):
                    d = abs((slots[perm[s]] - ang + math.pi) % (2 * math.pi) - math.pi)
                    c += d * 2
            for a, b in inner:
                k = abs(perm[a - 1] - perm[b - 1])
                k = min(k, 6 - k)
                c += (k - 1) * 1.5
            if c < best_c:
                best_p, best_c = perm, c
        rad = R * 0.6
        spaces = [[round(cx + rad * math.cos(slots[best_p[s]])), round(cy + rad * math.sin(slots[best_p[s]]))]
                  for s in range(n)]
        outline = [[round(cx + R * math.cos(math.radians(30 + 60 * k))),
                    round(cy + R * math.sin(math.radians(30 + 60 * k)))]
                   for k in range(6)]
        entry["layout"] = {"outline": outline, "totem": [round(cx), round(cy)], "spaces": spaces}
        for s in range(n):
            pos[f"{entry['id']}.{s + 1}"] = spaces[s]
    # Connection badges: on the edge the two hexes share, where they keep clear of the
    # tent spaces, the roads crossing that edge and the badges already placed.
    def seg_dist(p, a, b):
        (ax, ay), (bx, by), (px, py) = a, b, p
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy or 1
        u = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / L2))
        return math.hypot(px - ax - u * dx, py - ay - u * dy)
    road_segs = [(pos[a], pos[b]) for a, b in data["roads"]]
    for entry in terr:
        for a, b in entry["roads"]:
            road_segs.append((pos[f"{entry['id']}.{a}"], pos[f"{entry['id']}.{b}"]))
    placed = []
    for c in sorted(data["connections"], key=lambda c: c["number"]):
        a, b = (CENTERS[assign[tid[x]]] for x in c["between"])
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        L = dist(a, b) or 1
        ex, ey = -(b[1] - a[1]) / L, (b[0] - a[0]) / L   # along the shared edge
        best_pt, best_score = None, -1e9
        for k in range(-8, 9):
            # Within 36 of the edge's middle: clear of its corners (R = 118).
            off = k * 4.5
            pt = (mx + ex * off, my + ey * off)
            score = min([dist(pt, q) - 29 for q in pos.values()]
                        + [seg_dist(pt, s0, s1) - 18 for s0, s1 in road_segs]
                        + [dist(pt, q) - 34 for q in placed] + [40]) - abs(off) * 0.05
            if score > best_score:
                best_pt, best_score = pt, score
        placed.append(best_pt)
        c["layout"] = {"at": [round(best_pt[0]), round(best_pt[1])]}
    data["layout"] = {"width": WIDTH, "height": HEIGHT}
    prov = data["_provenance"]
    note = (" The layout blocks (territory outlines, tent space and totem circle positions, connection"
            " badges) are ours too: hexes on a 4x3 grid placed by a search that keeps connected territories"
            " side by side, then checked by eye in the browser; they only draw the map and change no rule.")
    if "layout blocks" not in prov:
        data["_provenance"] = prov + note
    # keep the key order readable: layout last in each block
    # The layout blocks on one line each, the rest as the file was (indent 1).
    blocks = {}
    for holder in [*terr, *data["connections"], data]:
        token = f"@@layout{len(blocks)}@@"
        blocks[token] = json.dumps(holder["layout"], ensure_ascii=False)
        holder["layout"] = token
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    for token, block in blocks.items():
        text = text.replace(f'"{token}"', block)
    path.write_text(text)

for name in ("base", "floating-lands", "glacial-mass", "long-road"):
    layout(DATA / f"map-{name}.json")
