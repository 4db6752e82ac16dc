// The table's sounds: the reader's turn, another player's move, the
// end of the game. Each is synthesised here with WebAudio (a few short tones), so there is
// no sound file to fetch or to license. One button in the status bar turns them off; the
// choice is kept in localStorage. While they are off no AudioContext is ever made.
import { h, svg } from "../dom.js";
import { t } from "../i18n.js";

export const SETTING = "ludoteca.sound";

export const soundsOn = () => localStorage.getItem(SETTING) !== "0";

let audio = null;

function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ||= new Context();
  // A context made before the reader touched the page starts suspended.
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// The notes of each sound: [frequency in Hz, start in s, length in s, wave, loudness].
const SOUNDS = {
  turn: [[660, 0, 0.12, "sine", 0.18], [880, 0.11, 0.18, "sine", 0.18]],
  move: [[420, 0, 0.07, "triangle", 0.12]],
  end: [[523.25, 0, 0.16, "sine", 0.16], [659.25, 0.14, 0.16, "sine", 0.16], [783.99, 0.28, 0.32, "sine", 0.16]],
};

// Plays one of the sounds above, if the reader has them on.
export function playSound(name) {
  if (!soundsOn() || !SOUNDS[name]) return;
  const ctx = context();
  if (!ctx) return;
  const now = ctx.currentTime + 0.01;
  for (const [freq, start, length, wave, loud] of SOUNDS[name]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // A quick rise and a fall to silence: no click at either end.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(loud, now + start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

function speaker(on) {
  return svg("svg", { width: 20, height: 20, viewBox: "0 0 20 20", "aria-hidden": "true", class: "sound-icon" },
    svg("path", { d: "M3 7.5h3.2L10.5 4v12L6.2 12.5H3z", fill: "currentColor" }),
    on
      ? svg("path", { d: "M13 7a4 4 0 0 1 0 6M15.3 4.8a7 7 0 0 1 0 10.4", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" })
      : svg("path", { d: "M13 7.5l5 5M18 7.5l-5 5", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }));
}

// The status bar's sound button: pressed while the sounds are on.
export function soundToggle() {
  const button = h("button", { type: "button", class: "sound-toggle", id: "sound-toggle" });
  function draw() {
    const on = soundsOn();
    const label = t(on ? "table.sound_off" : "table.sound_on");
    if (button.dataset.drawn === `${on}|${label}`) return;
    button.dataset.drawn = `${on}|${label}`;
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", label);
    button.title = label;
    button.replaceChildren(speaker(on));
  }
  button.addEventListener("click", () => {
    localStorage.setItem(SETTING, soundsOn() ? "0" : "1");
    draw();
    if (soundsOn()) playSound("move"); // a click on: the reader hears what they turned on
  });
  draw();
  return { element: button, draw };
}

// Returns `heard()`, called after each drawing of the table: a sound when the turn has
// just become the reader's, when another seat has moved, when the game has ended. None
// for the state the page opened with, nor for the reader's own moves.
export function tableSounds(page) {
  const { store } = page;
  const s = store.state;
  let seen = null;
  return function heard() {
    if (!s.table) return;
    const now = { version: s.version, mine: store.readerDecides() && s.table.status === "playing", over: s.table.status === "over", acks: s.acks };
    const before = seen;
    // While the reader's own move is on its way, an update may already hold it with
    // another seat's after it: judged once the acknowledgement says which version was ours.
    if (before && s.busy && now.version !== before.version) return;
    seen = now;
    if (!before || now.version === before.version) return;
    if (now.over && !before.over) playSound("end");
    else if (now.mine && !before.mine) playSound("turn");
    else if (!now.over && !s.busy && store.movedAt < now.version) playSound("move"); // not the reader's own, on its way
  };
}
