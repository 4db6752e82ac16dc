// Reading the server's JSON in one place: the pages use these shapes, so a renamed
// server field is fixed here only.

export function list(data, key) {
  if (Array.isArray(data)) return data;
  return (data && (data[key] || data.items)) || [];
}

// A seat of a table: who sits there (a person, a bot, or nobody).
export function seatsOf(table) {
  const raw = table.seats_detail || table.players || (Array.isArray(table.seats) ? table.seats : []);
  const count = typeof table.seats === "number" ? table.seats : raw.length;
  const seats = [];
  for (let i = 0; i < count; i++) {
    const s = raw.find((x) => x && x.seat === i) || raw[i] || {};
    seats.push({
      seat: i,
      username: s.username || (s.user && s.user.username) || null,
      userId: s.user_id ?? (s.user && s.user.id) ?? null,
      bot: s.bot || null,
      zombie: Boolean(s.zombie),
      connected: s.connected,
      clock: s.clock ?? s.bank_ms ?? null,
    });
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
