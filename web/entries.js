// A room's log entries in words, for its page's history: who did what, and what a throw came
// to. Pure (no page, no socket): room.js gives it what the page knows (the faces written out,
// a hidden roll of its own, the entries so far, the member's name); node's tests run it on a
// stored log (web/tests/unit/entries.test.mjs).
import { totalText } from './written.js';

/** What a record threw, in words: its label, the move, or the notation. */
export function what(record) {
  return record.label || record.what.action || record.what.notation || 'a roll';
}

/** What a record came to: ` → 17 (success)`, or nothing for a roll of no total. */
export function result(record) {
  const total = record.total === null || record.total === undefined ? '' : ` → ${totalText(record.total)}`;
  return `${total}${record.outcome ? ` (${record.outcome})` : ''}`;
}

/**
 * What a move's outcome came to in full, as one sentence a screen reader says after the entry:
 * the rules' last step ("18 − Evasion 11 = 7 damage"), its special results and what changed.
 * `explained` is the tray's (`{ lines, tags, changed }`); empty for a free roll.
 */
export function inFull(explained) {
  if (!explained) return '';
  const parts = [explained.lines?.at(-1), ...(explained.tags || []), ...(explained.changed || [])];
  return parts.filter(Boolean).join('. ');
}

/** A roll mode in words, as the room's modes name it. */
export const MODE_NAMES = {
  public: 'everyone at once',
  gamemaster: 'for the game master',
  blind: 'blind',
  self: 'for themselves alone',
};

/** How a hidden roll was thrown, by its mode (who sees it before the reveal). */
export const HOW = { self: 'hidden', gamemaster: 'for the game master', blind: 'blind' };

/** Who sees a hidden roll of `by` in `mode`, said to the member who sees it now. */
export function whoSees(mode, by, page) {
  if (mode === 'gamemaster') {
    return page.gamemaster ? `only you and ${by} see it` : 'only you and the game master see it';
  }
  if (mode === 'blind') return `only you see it; ${by} does not`;
  return 'only you see it';
}

/** The scene's name in its RON text, its escapes read (`\'`, `\"`, `\u{2019}`). */
export function sceneName(text) {
  const written = /name:\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  if (written === undefined) return '';
  // One pass, so an escaped backslash before "u{" stays a backslash.
  return written.replace(/\\(?:u\{([0-9a-fA-F]{1,6})\}|(.))/g, (_, hex, c) => {
    if (hex === undefined) return { n: '\n', t: '\t' }[c] ?? c;
    const code = Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

/**
 * Entry `e` of the log in words: `{ text, title?, rolled?, faces?, said?, working?, outcome?,
 * reveal? }`. `page` is what the page knows: `rolled` (this throw written out, if the server
 * sent it), `explained` (a move's outcome as the rules worked it out, from the tray), `mine`
 * (a hidden roll at this place that this member may see, if any), `entries` (the log so far),
 * `name` (the member's) and `gamemaster` (whether the member is the game master).
 */
export function describeEntry(e, page) {
  const ev = e.event;
  switch (ev.kind) {
    case 'created': {
      const title = sceneName(ev.scene) || 'a scene';
      return { text: `${ev.gamemaster} opened the room: ${title}`, title };
    }
    case 'joined':
      return {
        text: `${ev.name} joined as ${ev.role === 'gamemaster' ? 'the game master' : ev.role}` +
          (ev.seats.length ? ` (${ev.seats.join(', ')})` : ''),
      };
    case 'played':
      return { text: `${ev.by}: ${ev.said.join('; ') || 'a move'}` };
    case 'thrown':
      return {
        text: `${ev.by}: ${what(ev.record)}${result(ev.record)}`,
        rolled: page.rolled,
        faces: ev.record.faces,
        said: ev.said,
        working: page.explained && { lines: page.explained.lines || [], tags: page.explained.tags || [] },
        outcome: true,
      };
    case 'hidden': {
      const revealed = page.entries.find((x) => x.event.kind === 'revealed' && x.event.of === e.seq);
      const shown = revealed ? JSON.parse(revealed.event.payload) : null;
      const seen = shown || page.mine;
      const mode = ev.mode || 'self';
      // A label is sealed with the roll (a build before roll modes logged it in the open); so
      // is a move, which the log names only as "a move".
      const thrown = ev.label || (seen ? what(seen.record) : ev.notation || 'a move');
      return {
        text: `${ev.by}: ${thrown}, ${HOW[mode] || 'hidden'}` +
          (seen ? `${result(seen.record)} (${shown ? 'revealed' : whoSees(mode, ev.by, page)})` : ''),
        faces: seen?.record.faces,
        ...(seen?.said ? { said: seen.said } : {}),
        reveal: !shown && (page.gamemaster === true || (ev.by === page.name && mode === 'self')),
      };
    }
    case 'modes':
      return {
        text: `${ev.by} set the roll modes: ${MODE_NAMES[ev.default] || ev.default} by default; ` +
          `players may roll ${ev.players.map((m) => MODE_NAMES[m] || m).join(', ')}`,
      };
    case 'dice': {
      const whose = ev.character ? ` for ${ev.character}` : '';
      return {
        text: ev.look
          ? `${ev.by} chose ${ev.look.material || 'plastic'} dice${whose}: ${ev.look.body} with ${ev.look.ink} ${ev.look.typeface ? `${ev.look.typeface} ` : ''}numerals${ev.look.pips ? ', pips on the d6' : ''}`
          : `${ev.by} went back to the room's dice${whose}`,
      };
    }
    case 'revealed': {
      const hidden = page.entries.find((x) => x.seq === ev.of)?.event;
      let shown = null;
      try {
        shown = JSON.parse(ev.payload);
      } catch {
        // Told as it is below: the server checked the seal when it stored the reveal.
      }
      return {
        text: `${hidden?.by || 'The game master'}'s roll #${ev.of} revealed: ` +
          `${hidden?.label || (shown?.record ? what(shown.record) : 'a hidden roll')}${shown ? result(shown.record) : ''}`,
        faces: shown?.record.faces,
        ...(shown?.said ? { said: shown.said } : {}),
      };
    }
    default:
      return { text: ev.kind };
  }
}
