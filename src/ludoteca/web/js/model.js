// Reading the server's JSON in one place: the pages use these shapes, so a renamed
// server field is fixed here only.

export function list(data, key) {
  if (Array.isArray(data)) return data;
  return (data && (data[key] || data.items)) || [];
}

// A seat of a table: who sits there (a person, a bot, or nobody). The server's table
// summary (server/tables/summary.py) gives the seat count as `seats` and one entry per
// seat in `players`: {seat, username, bot, zombie, connected}.
export function seatsOf(table) {
  const players = table.players || [];
  const seats = [];
  for (let i = 0; i < table.seats; i++) {
    const s = players.find((x) => x.seat === i) || {};
    seats.push({ seat: i, username: s.username || null, bot: s.bot || null, zombie: Boolean(s.zombie),
      connected: s.connected, timed_out: Number.isInteger(s.timed_out) ? s.timed_out : null });
  }
  return seats;
}

export function gameName(games, id) {
  const g = games.find((x) => x.id === id);
  return g ? g.name : id;
}

// A move's canonical text (sorted keys), to compare moves as the engine does.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
